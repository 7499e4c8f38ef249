import {
  pdfInfo,
  pdfText,
  pdfWordBoxes,
  pdfXmp,
  qpdfCheck,
  startTestKernel,
  type TestKernel,
  type TestWorkspace,
} from '@docsvc/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// Issue 15 items 4-5 with real Chromium, read back by poppler and qpdf: `pdf.metadata` in Info
// and XMP, the title of an untitled document (decision 0056), the default margins (0057) and
// Liquid in an inline document's header (0059). One kernel, one browser, SQLite.

let t: TestKernel
let ws: TestWorkspace

beforeAll(async () => {
  t = await startTestKernel({ roles: ['api', 'worker'] })
  ws = await t.createWorkspace({ plan: 'scale' })
}, 60_000)

afterAll(async () => {
  await t?.close()
})

const pdf = async (body: object) => {
  const res = await t.inject({
    method: 'POST',
    url: '/v1/pdf/from-html',
    key: ws.liveKey,
    payload: { delivery: 'binary', ...body },
  })
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200)
  return res
}

/** 1 cm in PDF points */
const CM = 72 / 2.54

describe('PDF document information', () => {
  it('writes pdf.metadata to the Info dictionary and, in step, to the XMP packet', async () => {
    const res = await pdf({
      html: '<title>Its own title</title><p>Body</p>',
      pdf: {
        metadata: {
          title: 'Invoice 2026-0042',
          author: 'Acme GmbH',
          subject: 'October',
          keywords: ['invoice', 'acme'],
          creator: 'Acme ERP',
        },
      },
    })
    const bytes = res.rawPayload
    const info = pdfInfo(bytes)
    expect(info).toMatchObject({
      Title: 'Invoice 2026-0042',
      Author: 'Acme GmbH',
      Subject: 'October',
      Keywords: 'invoice, acme',
      Creator: 'Acme ERP',
    })
    const xmp = pdfXmp(bytes)
    expect(xmp).toMatch(/<dc:title>.*Invoice 2026-0042.*<\/dc:title>/s)
    expect(xmp).toMatch(/<dc:creator>.*Acme GmbH.*<\/dc:creator>/s)
    expect(xmp).toContain('<pdf:Keywords>invoice, acme</pdf:Keywords>')
    expect(xmp).toContain('<xmp:CreatorTool>Acme ERP</xmp:CreatorTool>')
    // the producer Chromium wrote stays, and the XMP says the same
    expect(info.Producer).toBeTruthy()
    expect(xmp).toContain(`<pdf:Producer>${info.Producer}</pdf:Producer>`)
    expect(qpdfCheck(bytes).ok).toBe(true)
    expect(pdfText(bytes)).toContain('Body')
  }, 60_000)

  it('titles a document without <title> by its file name, never about:blank', async () => {
    const named = pdfInfo((await pdf({ html: '<p>No title</p>', filename: 'report-q3.pdf' })).rawPayload)
    expect(named.Title).toBe('report-q3')
    // an empty title is no title; without a filename the file is named after the render
    const res = await t.inject({
      method: 'POST',
      url: '/v1/pdf/from-html',
      key: ws.liveKey,
      payload: { html: '<title> </title><p>Empty title</p>' },
    })
    expect(res.statusCode).toBe(200)
    const file = await t.inject({ method: 'GET', url: res.json().files[0].url })
    expect(pdfInfo(file.rawPayload).Title).toBe(res.json().id)
    // a templated filename is the title as it is named
    const templated = await pdf({
      html: '<p>{{ n }}</p>',
      templating: true,
      data: { n: 7 },
      filename: 'statement-{{ n }}',
    })
    expect(templated.headers['content-disposition']).toContain('statement-7.pdf')
    expect(pdfInfo(templated.rawPayload).Title).toBe('statement-7')
  }, 60_000)

  it('sets the metadata of a test render after its TEST mark, and of a protected PDF before sealing it', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/pdf/from-html',
      key: ws.testKey,
      payload: {
        html: '<p>Draft</p>',
        delivery: 'binary',
        pdf: { metadata: { title: 'Draft copy' }, protect: { owner_password: 'owner-secret-1' } },
      },
    })
    expect(res.statusCode).toBe(200)
    const info = pdfInfo(res.rawPayload)
    expect(info.Title).toBe('Draft copy')
    expect(info.Encrypted).toMatch(/^yes/)
    expect(pdfText(res.rawPayload)).toContain('TEST')
  }, 60_000)

  it("keeps a document's own title when pdf.metadata gives none", async () => {
    const info = pdfInfo(
      (await pdf({ html: '<title>Own title</title><p>x</p>', filename: 'f.pdf' })).rawPayload,
    )
    expect(info.Title).toBe('Own title')
  }, 60_000)
})

describe('PDF margins', () => {
  const edge = '<body style="margin:0"><p style="margin:0">Edgeword</p></body>'
  const position = async (body: object) => {
    const word = pdfWordBoxes((await pdf({ html: edge, ...body })).rawPayload).find(
      (w) => w.word === 'Edgeword',
    )
    expect(word).toBeDefined()
    return word!
  }

  it('keeps content 1cm from the edge of the sheet by default, and at the edge with margin 0', async () => {
    const byDefault = await position({})
    expect(byDefault.xMin).toBeGreaterThan(CM - 1)
    expect(byDefault.xMin).toBeLessThan(CM + 1)
    expect(byDefault.yMin).toBeGreaterThan(CM - 1)
    const none = await position({ pdf: { margin: { top: 0, right: 0, bottom: 0, left: 0 } } })
    expect(none.xMin).toBeLessThan(1)
    // a side left out keeps the default
    const leftOnly = await position({ pdf: { margin: { left: '3cm' } } })
    expect(leftOnly.xMin).toBeGreaterThan(3 * CM - 1)
    expect(leftOnly.yMin).toBeGreaterThan(CM - 1)
    expect(leftOnly.yMin).toBeLessThan(CM + 12)
  }, 60_000)
})

describe('Liquid in an inline document with templating: true', () => {
  it('fills header_html and footer_html from the data', async () => {
    const res = await pdf({
      html: '<p>Dear {{ customer }}</p>',
      templating: true,
      data: { customer: 'Ada Lovelace', number: '2026-0042' },
      pdf: {
        margin: { top: '2cm', bottom: '2cm' },
        header_html: '<div style="font-size:10px">Invoice {{ number }}</div>',
        footer_html: '<div style="font-size:10px">For {{ customer | upcase }}</div>',
      },
    })
    const text = pdfText(res.rawPayload)
    expect(text).toContain('Dear Ada Lovelace')
    expect(text).toContain('Invoice 2026-0042')
    expect(text).toContain('For ADA LOVELACE')
    expect(text).not.toContain('{{')
  }, 60_000)
})
