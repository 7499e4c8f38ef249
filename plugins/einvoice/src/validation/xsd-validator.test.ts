import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SHIPPED_SCHEMAS } from './xsd-schemas.ts'
import { ciiXsdValidator, ublXsdValidator, xsdValidator } from './xsd-validator.ts'

// The XSD check against the official schemas: the standard's own samples pass, and a file with
// an element out of order or a required element missing fails naming that element.

const TESTDATA = path.join(import.meta.dirname, 'testdata')
const sample = (name: string) => readFileSync(path.join(TESTDATA, name))
const check = (validator: typeof ciiXsdValidator, xml: Buffer | string, syntax: 'cii' | 'ubl') =>
  validator.validate(Buffer.from(xml), { syntax, signal: AbortSignal.timeout(60_000) })

/** every sample of the EN 16931 repository, where the shared test data is installed (see README there) */
const EXAMPLES = process.env.DOCSVC_EINVOICE_TESTDATA ?? '/work/shared/einvoice/examples'

describe('XSD validation', () => {
  it('passes the official CII, UBL Invoice and UBL CreditNote samples', async () => {
    expect(await check(ciiXsdValidator, sample('CII_example1.xml'), 'cii')).toEqual({
      valid: true,
      errors: [],
      warnings: [],
      source: 'XSD (libxml2 xmllint)',
    })
    for (const name of ['ubl-tc434-example1.xml', 'ubl-tc434-creditnote1.xml'])
      expect((await check(ublXsdValidator, sample(name), 'ubl')).errors, name).toEqual([])
  })

  it('fails an element out of order, naming it with its XPath and line', async () => {
    // BT-2 (IssueDate) moved before BT-1 (ID)
    const xml = sample('ubl-tc434-example1.xml')
      .toString('utf8')
      .replace(
        '<cbc:ID>12115118</cbc:ID>\n    <cbc:IssueDate>2015-01-09</cbc:IssueDate>',
        '<cbc:IssueDate>2015-01-09</cbc:IssueDate>\n    <cbc:ID>12115118</cbc:ID>',
      )
    const report = await check(ublXsdValidator, xml, 'ubl')
    expect(report.valid).toBe(false)
    expect(report.errors[0]).toMatchObject({
      ruleId: 'XSD',
      severity: 'error',
      message: expect.stringContaining("Element 'cbc:IssueDate': This element is not expected."),
      location: '/Invoice[1]/cbc:IssueDate[1] (line 16)',
    })
  })

  it('fails a missing required element, naming what is expected', async () => {
    const text = sample('CII_example1.xml').toString('utf8')
    const xml = text.replace(/<rsm:ExchangedDocument>[\s\S]*?<\/rsm:ExchangedDocument>/, '')
    const report = await check(ciiXsdValidator, xml, 'cii')
    expect(report.valid).toBe(false)
    expect(report.errors[0]!.message).toContain('Expected is ( rsm:ExchangedDocument )')
    expect(report.errors[0]!.location).toMatch(
      /^\/rsm:CrossIndustryInvoice\[1\]\/rsm:SupplyChainTradeTransaction\[1\] \(line \d+\)$/,
    )
  })

  it('fails XML that is not well-formed, and a root of the other syntax', async () => {
    const half = sample('CII_example1.xml').subarray(0, 2000)
    const broken = await check(ciiXsdValidator, half, 'cii')
    expect(broken.valid).toBe(false)
    expect(broken.errors[0]!.message).toMatch(/^not well-formed XML: /)
    const wrong = await check(ciiXsdValidator, sample('ubl-tc434-example1.xml'), 'cii')
    expect(wrong.errors).toEqual([
      expect.objectContaining({ message: 'the root element is Invoice; cii XML has CrossIndustryInvoice' }),
    ])
  })

  it('refuses an artifacts folder without the entry schemas, and takes one that has them', () => {
    expect(() => xsdValidator('cii', { artifactsDir: TESTDATA })).toThrow(/lacks cii-d16b\/uncoupled-clm/)
    expect(xsdValidator('ubl', { artifactsDir: SHIPPED_SCHEMAS }).id).toBe('xsd-ubl')
  })

  it('stops xmllint when the caller aborts', async () => {
    const controller = new AbortController()
    controller.abort(new Error('stopped'))
    await expect(
      ciiXsdValidator.validate(sample('CII_example1.xml'), { syntax: 'cii', signal: controller.signal }),
    ).rejects.toThrow()
  })

  it.skipIf(!existsSync(EXAMPLES))(
    'passes every sample of the EN 16931 repository',
    async () => {
      for (const [syntax, validator] of [
        ['cii', ciiXsdValidator],
        ['ubl', ublXsdValidator],
      ] as const) {
        const dir = path.join(EXAMPLES, syntax)
        const files = readdirSync(dir).filter((f) => /\.xml$/i.test(f))
        expect(files.length).toBeGreaterThan(10)
        for (const file of files) {
          const report = await check(validator, readFileSync(path.join(dir, file)), syntax)
          expect(report.errors, `${syntax}/${file}`).toEqual([])
        }
      }
    },
    120_000,
  )
})
