import { startTestKernel, type TestKernel, type TestWorkspace } from '@docsvc/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readInvoiceXml } from './read-invoice.ts'
import { SAMPLE_INVOICE } from './sample-invoice.ts'

// POST /v1/einvoices with the installation's own parts: this plugin's profiles, writers and the
// official XSDs (src/validation), over HTTP as a client sees it; the XML read back into the model.

let t: TestKernel
let ws: TestWorkspace

beforeAll(async () => {
  t = await startTestKernel({ roles: ['api', 'worker'] })
  ws = await t.createWorkspace({ plan: 'growth' })
  await t.setPlanLimits('growth', { requests_per_second: 1000 })
}, 60_000)

afterAll(async () => {
  await t?.close()
})

const post = (payload: object) => t.inject({ method: 'POST', url: '/v1/einvoices', key: ws.liveKey, payload })
const xmlOf = async (body: { files: { url: string }[] }) => {
  const { pathname, search } = new URL(body.files[0]!.url)
  return (await t.inject({ method: 'GET', url: pathname + search })).body
}

describe('POST /v1/einvoices with the built-in profiles', () => {
  it.each([
    ['EN16931', 'cii'],
    ['EN16931', 'ubl'],
    ['XRECHNUNG', 'cii'],
    ['XRECHNUNG', 'ubl'],
  ] as const)(
    'writes %s as %s, XSD-valid, and the XML reads back to the invoice sent',
    async (profile, syntax) => {
      const res = await post({ profile, syntax, invoice: SAMPLE_INVOICE })
      expect(res.statusCode, res.body.slice(0, 600)).toBe(200)
      const body = res.json()
      expect(body).toMatchObject({ kind: 'einvoice_xml', input_type: 'einvoice' })
      const report = body.result.conformance.einvoice
      expect(report).toMatchObject({ valid: true, errors: [] })
      expect(report.source).toContain('XSD')
      const read = readInvoiceXml(await xmlOf(body))
      expect(read.profile).toBe(profile)
      expect(read.invoice).toMatchObject({
        number: SAMPLE_INVOICE.number,
        seller: { name: SAMPLE_INVOICE.seller.name },
        buyer: { name: SAMPLE_INVOICE.buyer.name },
      })
      expect(read.invoice.lines).toHaveLength(SAMPLE_INVOICE.lines?.length ?? 0)
    },
  )

  it('refuses totals that do not add up with 422 einvoice_invalid naming the rule and the field', async () => {
    const res = await post({
      profile: 'EN16931',
      invoice: { ...SAMPLE_INVOICE, totals: { line_total: '1.00' } },
    })
    expect(res.statusCode, res.body.slice(0, 600)).toBe(422)
    const body = res.json()
    expect(body.code).toBe('einvoice_invalid')
    expect(body.errors).toContainEqual(
      expect.objectContaining({ path: '/invoice/totals/line_total', code: 'BR-CO-10' }),
    )
  })

  it('refuses UBL for a profile written in CII only, listing what it takes', async () => {
    const res = await post({ profile: 'BASIC', syntax: 'ubl', invoice: SAMPLE_INVOICE })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors).toContainEqual(expect.objectContaining({ path: '/syntax' }))
  })
})
