import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  ghostscriptPdf,
  mutoolOpens,
  pdfAttachment,
  pdfAttachmentNames,
  pdfInfo,
  pdfInfoWithPassword,
  pdfPageTexts,
  qpdfCheck,
  qpdfRewrite,
} from '@docsvc/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../../core/src/testing/index.ts'

// The `pdf.attachments` and `pdf.protect` render options on real Chromium output (one browser for
// the file), and Chromium's PDFs as sources of the PDF tools. Results are read by poppler, qpdf
// and mupdf. SQLite only: the database side is covered by pdf-tools-api.test.ts on both.

const XML = '<?xml version="1.0"?><invoice number="2026-0042"/>'
const NOTES = 'Paid by bank transfer.\n'

let t: TestKernel
let ws: TestWorkspace
let site: Server
let siteUrl: string

beforeAll(async () => {
  site = createServer((req, res) => {
    if (req.url === '/notes.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end(NOTES)
    else if (req.url === '/huge.bin') res.writeHead(200).end(Buffer.alloc(10 * 1000 * 1000 + 1, 1))
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  t = await startTestKernel({ roles: ['api', 'worker'], env: { DOCSVC_NETWORK_ALLOW: '127.0.0.1/32' } })
  ws = await t.createWorkspace({ plan: 'scale' })
}, 60_000)

afterAll(async () => {
  await t?.close()
  await new Promise<void>((resolve) => site.close(() => resolve()))
})

const pdfFromHtml = (pdf: object, html = '<h1>Invoice 2026-0042</h1>') =>
  t.inject({
    method: 'POST',
    url: '/v1/pdf/from-html',
    key: ws.liveKey,
    payload: { html, pdf, delivery: 'binary' },
  })

const XML_ATTACHMENT = {
  name: 'invoice.xml',
  data_uri: `data:application/xml;base64,${Buffer.from(XML).toString('base64')}`,
  mime_type: 'application/xml',
  description: 'The invoice as XML',
  relationship: 'Data',
}

describe('pdf.attachments and pdf.protect on renders', () => {
  it('embeds each attachment with its name, type, description and AFRelationship', async () => {
    const res = await pdfFromHtml({
      attachments: [
        XML_ATTACHMENT,
        { name: 'notes.txt', url: `${siteUrl}/notes.txt`, mime_type: 'text/plain' },
      ],
    })
    expect(res.statusCode).toBe(200)
    const pdf = res.rawPayload
    expect(pdfAttachmentNames(pdf)).toEqual(['invoice.xml', 'notes.txt'])
    expect(pdfAttachment(pdf, 1).toString()).toBe(XML)
    expect(pdfAttachment(pdf, 2).toString()).toBe(NOTES)
    // qpdf's QDF form: every object written out uncompressed, to read the dictionaries
    const objects = qpdfRewrite(pdf, ['--qdf', '--object-streams=disable']).toString('latin1')
    expect(objects).toMatch(/\/AFRelationship \/Data/)
    expect(objects).toMatch(/\/Subtype \/application#2fxml/)
    expect(objects).toMatch(/\/AF \[/)
    expect(pdfPageTexts(pdf)[0]).toContain('Invoice 2026-0042')
    expect(qpdfCheck(pdf).ok).toBe(true)
    expect(mutoolOpens(pdf)).toBe(true)
  })

  it('protects the printed PDF with AES-256, attachments included', async () => {
    const res = await pdfFromHtml({
      attachments: [XML_ATTACHMENT],
      protect: { user_password: 'reader', owner_password: 'owner', permissions: { copy: false } },
    })
    expect(res.statusCode).toBe(200)
    const pdf = res.rawPayload
    expect(() => pdfInfo(pdf)).toThrow(/Incorrect password/)
    const info = pdfInfoWithPassword(pdf, 'reader')!
    expect(info.Encrypted).toBe('yes (print:yes copy:no change:no addNotes:no algorithm:AES-256)')
    expect(mutoolOpens(pdf)).toBe(false)
    expect(mutoolOpens(pdf, 'reader')).toBe(true)
    expect(qpdfCheck(pdf, 'owner').ok).toBe(true)
    const clear = qpdfRewrite(pdf, ['--password=owner', '--decrypt'])
    expect(pdfAttachmentNames(clear)).toEqual(['invoice.xml'])
    expect(pdfPageTexts(clear)[0]).toContain('Invoice 2026-0042')
  })

  it('fails with 422 attachment_failed when an attachment cannot be loaded or is too large', async () => {
    const missing = await pdfFromHtml({ attachments: [{ name: 'gone.txt', url: `${siteUrl}/gone.txt` }] })
    expect(missing.statusCode).toBe(422)
    expect(missing.json()).toMatchObject({
      code: 'attachment_failed',
      render_error: { code: 'attachment_failed' },
    })
    const huge = await pdfFromHtml({ attachments: [{ name: 'huge.bin', url: `${siteUrl}/huge.bin` }] })
    expect(huge.statusCode).toBe(422)
    expect(huge.json().code).toBe('attachment_failed')
    const neither = await pdfFromHtml({ attachments: [{ name: 'empty.txt' }] })
    expect(neither.json().code).toBe('attachment_failed')
  })

  it('refuses unknown protect and attachment fields with 400 before rendering', async () => {
    const res = await pdfFromHtml({ protect: { user_password: 'x', permissions: { teleport: true } } })
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('validation_error')
    const rel = await pdfFromHtml({
      attachments: [{ name: 'a', data_uri: 'data:,x', relationship: 'Friend' }],
    })
    expect(rel.statusCode).toBe(400)
  })
})

describe('Chromium PDFs as PDF tool sources', () => {
  it('merges a Chromium render (by render_id) with a Ghostscript PDF, in order', async () => {
    const printed = await t.inject({
      method: 'POST',
      url: '/v1/pdf/from-html',
      key: ws.liveKey,
      payload: { html: '<h1>From Chromium</h1>' },
    })
    expect(printed.statusCode).toBe(200)
    const gs = ghostscriptPdf(['From Ghostscript'])
    const res = await t.inject({
      method: 'POST',
      url: '/v1/pdf-tools/merge',
      key: ws.liveKey,
      payload: {
        sources: [
          { render_id: printed.json().id },
          { data_uri: `data:application/pdf;base64,${gs.toString('base64')}` },
        ],
        delivery: 'binary',
      },
    })
    expect(res.statusCode).toBe(200)
    const pages = pdfPageTexts(res.rawPayload).map((p) => p.trim())
    expect(pages[0]).toContain('From Chromium')
    expect(pages[pages.length - 1]).toBe('From Ghostscript')
    expect(qpdfCheck(res.rawPayload).ok).toBe(true)
  })
})
