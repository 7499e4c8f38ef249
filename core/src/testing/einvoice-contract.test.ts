import { Type } from 'typebox'
import { type EinvoiceProfile, einvoiceFilename } from '../sdk/einvoice-contracts.ts'
import { conformanceReport, type Finding } from '../sdk/pdf-pipeline-contracts.ts'
import { runEinvoiceProfileContract } from './einvoice-contract.ts'

// The kit runs here against a deliberately tiny profile (two business terms, one rule, one
// structural check), so the kit is exercised before the EN 16931 profiles of a later issue.

type Tiny = { number: string; total: string; lines: { amount: string }[] }

const escapeXml = (text: string) =>
  text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c)

const tinyProfile: EinvoiceProfile<Tiny> = {
  id: 'TINY',
  syntaxes: ['cii'],
  modelSchema: Type.Object({
    number: Type.String({ minLength: 1 }),
    total: Type.String({ pattern: '^\\d+\\.\\d{2}$' }),
    lines: Type.Array(Type.Object({ amount: Type.String({ pattern: '^\\d+\\.\\d{2}$' }) })),
  }),
  checkModel(model) {
    // BR-CO-10 in spirit: the total is the sum of the lines (in cents, never floats)
    const cents = (amount: string) => BigInt(amount.replace('.', ''))
    const sum = model.lines.reduce((total, line) => total + cents(line.amount), 0n)
    const findings: Finding[] =
      sum === cents(model.total)
        ? []
        : [
            {
              ruleId: 'TINY-01',
              severity: 'error',
              message: 'total is not the sum of the lines',
              location: '/total',
            },
          ]
    return findings
  },
  writeXml(model, { test }) {
    const note = test ? '<Note>TEST</Note>' : ''
    return Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?>\n<Invoice><ID>${escapeXml(model.number)}</ID>${note}<Total>${model.total}</Total></Invoice>\n`,
    )
  },
  xmlValidators: [
    {
      id: 'tiny-structure',
      syntaxes: ['cii'],
      async validate(xml) {
        const text = xml.toString('utf8')
        return conformanceReport(
          /<Invoice>[\s\S]*<\/Invoice>\s*$/.test(text)
            ? []
            : [{ ruleId: 'TINY-XML', severity: 'error', message: 'not a whole Invoice element' }],
        )
      },
    },
  ],
  filename: (model, requested) => einvoiceFilename(requested, model.number),
}

runEinvoiceProfileContract('a tiny sample profile', async () => ({
  profile: tinyProfile as unknown as EinvoiceProfile,
  validModel: { number: 'INV 2024/7', total: '30.00', lines: [{ amount: '10.00' }, { amount: '20.00' }] },
  invoiceNumber: 'INV 2024/7',
  invalidModel: { number: 'INV 2024/8', total: '31.00', lines: [{ amount: '10.00' }, { amount: '20.00' }] },
  violatedRuleId: 'TINY-01',
  testMarked: true,
}))
