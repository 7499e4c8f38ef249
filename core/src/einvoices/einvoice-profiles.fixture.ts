import { Type } from 'typebox'
import { definePlugin } from '../sdk/define-plugin.ts'
import {
  type EinvoiceProfile,
  type EinvoiceSyntax,
  type EinvoiceXmlValidator,
  einvoiceFilename,
} from '../sdk/einvoice-contracts.ts'
import { conformanceReport, type Finding } from '../sdk/pdf-pipeline-contracts.ts'

// Stand-ins for the EN 16931 profiles, so the endpoint is tested exactly and fast: a two-term
// model with one business rule, and an XML validator that the invoice's `note` drives
// (`xml-error`, `xml-warning`, `slow`: never answers, `crash`: throws).

type Model = { number: string; total: string; lines: { amount: string }[]; note?: string }

const Amount = Type.String({ pattern: '^\\d+\\.\\d{2}$' })
const modelSchema = Type.Object(
  {
    number: Type.String({ minLength: 1 }),
    total: Amount,
    lines: Type.Array(Type.Object({ amount: Amount }, { additionalProperties: false }), { minItems: 1 }),
    note: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
)

const escapeXml = (text: string) =>
  text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c)

/** what the stand-in validator was asked last: the test checks it got the written XML */
export const validatorCalls: { syntax: EinvoiceSyntax; xml: string }[] = []

const noteValidator: EinvoiceXmlValidator = {
  id: 'fixture-rules',
  syntaxes: ['cii', 'ubl'],
  async validate(xml, { syntax, signal }) {
    const text = xml.toString('utf8')
    validatorCalls.push({ syntax, xml: text })
    if (text.includes('slow')) {
      // ignores its signal on purpose: the core must stop waiting by itself
      await new Promise((resolve) => setTimeout(resolve, 60_000).unref())
    }
    if (text.includes('crash')) throw new Error('validator crashed')
    const findings: Finding[] = []
    if (text.includes('xml-error'))
      findings.push({
        ruleId: 'FX-01',
        severity: 'error',
        message: 'the note is refused',
        location: '/Invoice/Note',
      })
    if (text.includes('xml-warning'))
      findings.push({
        ruleId: 'FX-02',
        severity: 'warning',
        message: 'the note is odd',
        location: '/Invoice/Note',
      })
    signal.throwIfAborted()
    return conformanceReport(findings, { source: 'fixture validator 1.0' })
  },
}

function fixtureProfile(
  id: string,
  syntaxes: EinvoiceSyntax[],
  withValidator: boolean,
): EinvoiceProfile<Model> {
  return {
    id,
    syntaxes,
    modelSchema,
    checkModel(model) {
      const cents = (amount: string) => BigInt(amount.replace('.', ''))
      const sum = model.lines.reduce((total, line) => total + cents(line.amount), 0n)
      return sum === cents(model.total)
        ? []
        : [
            {
              ruleId: 'BR-CO-15',
              severity: 'error',
              message: 'total is not the sum of the lines',
              location: '/total',
            },
          ]
    },
    writeXml(model, { syntax, test }) {
      const root = syntax === 'cii' ? 'CrossIndustryInvoice' : 'Invoice'
      const notes = [...(test ? ['TEST'] : []), ...(model.note ? [model.note] : [])]
      return Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?>\n<${root} profile="${id}"><ID>${escapeXml(model.number)}</ID>${notes.map((n) => `<Note>${escapeXml(n)}</Note>`).join('')}<Total>${model.total}</Total></${root}>\n`,
      )
    },
    xmlValidators: withValidator ? [noteValidator] : [],
    filename: (model, requested) => einvoiceFilename(requested, model.number),
  }
}

/** EN16931 (cii, ubl) and MINIMUM (cii) with the stand-in validator; BASIC (cii) with none. */
export const fixtureEinvoicePlugin = definePlugin({
  id: 'fixture-einvoice',
  apiVersion: '^1',
  provides: { einvoiceProfiles: ['EN16931', 'MINIMUM', 'BASIC'] },
  register({ registries }) {
    registries.einvoiceProfiles.add('EN16931', fixtureProfile('EN16931', ['cii', 'ubl'], true) as never)
    registries.einvoiceProfiles.add('MINIMUM', fixtureProfile('MINIMUM', ['cii'], true) as never)
    registries.einvoiceProfiles.add('BASIC', fixtureProfile('BASIC', ['cii'], false) as never)
  },
})

export const VALID_INVOICE = {
  number: 'RE 2026/42',
  total: '30.00',
  lines: [{ amount: '10.00' }, { amount: '20.00' }],
}
