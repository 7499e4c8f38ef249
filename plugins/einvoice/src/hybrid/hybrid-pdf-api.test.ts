import {
  pdfAttachment,
  pdfAttachmentNames,
  pdfXmp,
  qpdfCheck,
  qpdfReport,
  startTestKernel,
  type TestKernel,
  type TestWorkspace,
} from '@docsvc/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readInvoiceXml } from '../read-invoice.ts'
import { SAMPLE_INVOICE, sampleInvoiceFor } from '../sample-invoice.ts'

// Hybrid invoices (SPEC 2.16 `output.einvoice`, decision 0117) over HTTP with the installation's
// own parts: Chromium prints, pdf-tools makes PDF/A-3b, this plugin's step embeds the XML, the
// built-in validator reports; what a client sees is read back with qpdf, poppler and the reader.

let t: TestKernel
let growth: TestWorkspace
let starter: TestWorkspace

beforeAll(async () => {
  t = await startTestKernel({ roles: ['api', 'worker'] })
  growth = await t.createWorkspace({ plan: 'growth' })
  starter = await t.createWorkspace({ plan: 'starter' })
  await t.setPlanLimits('growth', { requests_per_second: 1000 })
}, 60_000)

afterAll(async () => {
  await t?.close()
})

const HTML =
  '<!doctype html><html lang="en"><head><title>Invoice</title></head><body><h1>Invoice</h1></body></html>'

const render = (einvoice: object, pdf: object = {}, ws = growth) =>
  t.inject({
    method: 'POST',
    url: '/v1/renders',
    key: ws.liveKey,
    payload: { input: { type: 'html', html: HTML }, output: { format: 'pdf', pdf, einvoice } },
  })

const fileOf = async (body: { files: { url: string }[] }): Promise<Buffer> => {
  const { pathname, search } = new URL(body.files[0]!.url)
  return (await t.inject({ method: 'GET', url: pathname + search })).rawPayload
}

const usedRenders = async () =>
  (await t.inject({ method: 'GET', url: '/v1/account', key: growth.liveKey })).json().usage.renders as number

describe('output.einvoice on a PDF render', () => {
  it('embeds Factur-X EN 16931 in a PDF/A-3b: factur-x.xml, Alternative, fx: XMP, clean reports, one billed render', async () => {
    const before = await usedRenders()
    const res = await render({ profile: 'EN16931', invoice: SAMPLE_INVOICE })
    expect(res.statusCode, res.body.slice(0, 800)).toBe(200)
    const body = res.json()
    expect(body.result.conformance.einvoice).toMatchObject({ valid: true, profile: 'EN16931', errors: [] })
    expect(body.result.conformance.pdfa).toMatchObject({ valid: true, profile: 'pdfa-3b', errors: [] })
    expect(await usedRenders()).toBe(before + 1)
    const bytes = await fileOf(body)
    expect(qpdfCheck(bytes).ok).toBe(true)
    expect(qpdfReport(bytes, ['--list-attachments'])).toContain('factur-x.xml')
    expect(pdfAttachmentNames(bytes)).toEqual(['factur-x.xml'])
    const json = qpdfReport(bytes, ['--json'])
    expect(json).toContain('"/AFRelationship": "/Alternative"')
    expect(json).toMatch(/"\/AF": \[/)
    expect(json).toContain('"mimetype": "text/xml"')
    const read = readInvoiceXml(pdfAttachment(bytes, 1).toString('utf8'))
    expect(read.profile).toBe('EN16931')
    expect(read.invoice).toMatchObject({
      number: SAMPLE_INVOICE.number,
      seller: { name: SAMPLE_INVOICE.seller.name },
      buyer: { name: SAMPLE_INVOICE.buyer.name },
    })
    expect(read.invoice.lines).toHaveLength(SAMPLE_INVOICE.lines?.length ?? 0)
    const xmp = pdfXmp(bytes)
    expect(xmp).toMatch(/pdfaid:part(>|=")3/)
    expect(xmp).toContain('urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#')
    expect(xmp).toContain('<fx:DocumentType>INVOICE</fx:DocumentType>')
    expect(xmp).toContain('<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>')
    expect(xmp).toContain('<fx:Version>1.0</fx:Version>')
    expect(xmp).toContain('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>')
    expect(xmp).toContain('<pdfaSchema:prefix>fx</pdfaSchema:prefix>')
  }, 120_000)

  it('names the XML xrechnung.xml for XRECHNUNG, on the flat route too', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/pdf/from-html',
      key: growth.liveKey,
      payload: {
        html: HTML,
        pdf: { pdfa: '3b' },
        einvoice: { profile: 'XRECHNUNG', invoice: SAMPLE_INVOICE },
      },
    })
    expect(res.statusCode, res.body.slice(0, 800)).toBe(200)
    const bytes = await fileOf(res.json())
    expect(pdfAttachmentNames(bytes)).toEqual(['xrechnung.xml'])
    expect(pdfXmp(bytes)).toContain('<fx:ConformanceLevel>XRECHNUNG</fx:ConformanceLevel>')
    expect(readInvoiceXml(pdfAttachment(bytes, 1).toString('utf8')).profile).toBe('XRECHNUNG')
  }, 120_000)

  it('embeds in a PDF/UA-1 too: one extension schema bag describes pdfuaid and fx, both reports clean', async () => {
    const res = await render({ profile: 'EN16931', invoice: SAMPLE_INVOICE }, { pdfua: true })
    expect(res.statusCode, res.body.slice(0, 800)).toBe(200)
    const body = res.json()
    expect(body.result.conformance.pdfa).toMatchObject({ valid: true, errors: [] })
    expect(body.result.conformance.pdfua).toMatchObject({ valid: true, errors: [] })
    const xmp = pdfXmp(await fileOf(body))
    expect(xmp.split('<pdfaExtension:schemas>')).toHaveLength(2)
    expect(xmp).toContain('<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>')
    expect(xmp).toContain('<pdfaSchema:prefix>fx</pdfaSchema:prefix>')
  }, 120_000)

  it('embeds MINIMUM as Data: not a full invoice, the XML sits beside the visible one', async () => {
    const res = await render({ profile: 'MINIMUM', invoice: sampleInvoiceFor('MINIMUM') })
    expect(res.statusCode, res.body.slice(0, 800)).toBe(200)
    const bytes = await fileOf(res.json())
    expect(pdfAttachmentNames(bytes)).toEqual(['factur-x.xml'])
    expect(qpdfReport(bytes, ['--json'])).toContain('"/AFRelationship": "/Data"')
    expect(pdfXmp(bytes)).toContain('<fx:ConformanceLevel>MINIMUM</fx:ConformanceLevel>')
    expect(res.json().result.conformance.pdfa).toMatchObject({ valid: true, errors: [] })
  }, 120_000)

  it('fails a model that breaks a business rule with 422 einvoice_invalid at the field, unbilled', async () => {
    const before = await usedRenders()
    const res = await render({
      profile: 'EN16931',
      invoice: { ...SAMPLE_INVOICE, totals: { line_total: '1.00' } },
    })
    expect(res.statusCode, res.body.slice(0, 800)).toBe(422)
    const body = res.json()
    expect(body.code).toBe('einvoice_invalid')
    expect(body.errors).toContainEqual(
      expect.objectContaining({ path: '/output/einvoice/invoice/totals/line_total', code: 'BR-CO-10' }),
    )
    expect(body.result.conformance.einvoice.valid).toBe(false)
    expect(await usedRenders()).toBe(before)
  }, 120_000)

  it('refuses an unknown profile, pdfa 2b, image output and the internal XML option at their fields (400), and a plan without e-invoicing (402)', async () => {
    const unknown = await render({ profile: 'NOPE', invoice: SAMPLE_INVOICE })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().errors).toContainEqual(
      expect.objectContaining({ path: '/output/einvoice/profile' }),
    )
    const twoB = await render({ profile: 'EN16931', invoice: SAMPLE_INVOICE }, { pdfa: '2b' })
    expect(twoB.statusCode).toBe(400)
    expect(twoB.json().errors).toContainEqual(expect.objectContaining({ path: '/output/pdf/pdfa' }))
    const flat = await t.inject({
      method: 'POST',
      url: '/v1/pdf/from-html',
      key: growth.liveKey,
      payload: { html: HTML, pdf: { pdfa: '2b' }, einvoice: { profile: 'EN16931', invoice: SAMPLE_INVOICE } },
    })
    expect(flat.statusCode).toBe(400)
    expect(flat.json().errors).toContainEqual(expect.objectContaining({ path: '/pdf/pdfa' }))
    const image = await t.inject({
      method: 'POST',
      url: '/v1/renders',
      key: growth.liveKey,
      payload: {
        input: { type: 'html', html: HTML },
        output: { format: 'png', einvoice: { profile: 'EN16931', invoice: SAMPLE_INVOICE } },
      },
    })
    expect(image.statusCode).toBe(400)
    expect(image.json().errors).toContainEqual(expect.objectContaining({ path: '/output/einvoice' }))
    // the step's own option carries XML core validated: a request cannot hand it XML directly
    const smuggled = await render(
      { profile: 'EN16931', invoice: SAMPLE_INVOICE },
      {
        einvoice_xml: { profile: 'EN16931', xml: Buffer.from('<x/>').toString('base64') },
      },
    )
    expect(smuggled.statusCode).toBe(400)
    expect(smuggled.json().errors).toContainEqual(
      expect.objectContaining({ path: '/output/pdf/einvoice_xml' }),
    )
    const plan = await render({ profile: 'EN16931', invoice: SAMPLE_INVOICE }, {}, starter)
    expect(plan.statusCode, plan.body.slice(0, 400)).toBe(402)
    expect(plan.json().code).toBe('plan_feature_unavailable')
  }, 120_000)
})
