import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pdfInfo, pdfPageTexts, pdfText } from '@docsvc/core/testing'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  memoryLogger,
  startTestKernel,
  type TestKernel,
  type TestWorkspace,
} from '../../core/src/testing/index.ts'

// The render pipeline end to end with real Chromium: requests over HTTP, outputs read by poppler
// and sharp. One kernel (one browser) for the file; SQLite, since the database side is covered
// by the render API suites on both dialects.

let t: TestKernel
let ws: TestWorkspace
let site: Server
let siteUrl: string
const log = memoryLogger()

beforeAll(async () => {
  site = createServer((req, res) => {
    if (req.url === '/page') {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><body><h1>Served page</h1><p id="ready">ok</p></body></html>')
    } else if (req.url === '/data.json') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ customer: 'Ada Lovelace' }))
    } else if (req.url === '/lang') {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<p>Accept-Language: ${req.headers['accept-language']}</p>`)
    } else if (req.url === '/to-metadata') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end()
    } else {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  t = await startTestKernel({
    roles: ['api', 'worker'],
    env: { DOCSVC_NETWORK_ALLOW: '127.0.0.1/32' },
    logger: log.logger,
  })
  ws = await t.createWorkspace({ plan: 'scale' })
}, 60_000)

afterAll(async () => {
  await t?.close()
  await new Promise<void>((resolve) => site.close(() => resolve()))
})

async function binary(path: string, body: object, key = ws.liveKey) {
  const res = await t.inject({ method: 'POST', url: path, key, payload: { delivery: 'binary', ...body } })
  return res
}

describe('HTML, Markdown and URLs into PDF and images with Chromium', () => {
  it('answers page_ranges past the end at the field sent, with the page count and no Chromium text', async () => {
    const html = '<p>one</p><p style="break-before: page">two</p>'
    const res = await binary('/v1/pdf/from-html', { html, pdf: { page_ranges: '5-6' } })
    expect(res.statusCode).toBe(422)
    const body = res.json()
    expect(body.code).toBe('validation_error')
    expect(body.detail).toBe('pdf.page_ranges "5-6" names pages the document does not have: it has 2 pages.')
    expect(body.errors).toEqual([
      {
        path: '/pdf/page_ranges',
        code: 'out_of_range',
        message: 'names pages the document does not have: it has 2 pages',
      },
    ])
    expect(res.body).not.toMatch(/Protocol error|printToPDF/i)
    // Chromium's words are in the log, findable from the request id through the render id
    const renderId = body.render_id
    const request = log.lines.find((l) => l.request_id === res.headers['x-request-id'] && l.render_id)
    expect(request).toMatchObject({ render_id: renderId, code: 'validation_error' })
    const worker = log.lines.find((l) => l.render_id === renderId && l.internal)
    expect(worker?.internal).toMatch(/page range|printToPDF/i)
  })

  it('renders HTML to a PDF whose text and pages poppler reads', async () => {
    const html = `<h1>Invoice 2026-0042</h1>${'<p>line</p>'.repeat(120)}`
    const res = await binary('/v1/pdf/from-html', { html, pdf: { format: 'A4' } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/pdf')
    const pdf = res.rawPayload
    expect(pdfText(pdf)).toContain('Invoice 2026-0042')
    const info = pdfInfo(pdf)
    expect(Number(info.Pages)).toBeGreaterThanOrEqual(2)
    expect(info['Page size']).toMatch(/59[56](\.\d+)? x 84[12](\.\d+)? pts \(A4\)/)
  })

  it('watermarks every page of a test render with real TEST text', async () => {
    const res = await binary(
      '/v1/pdf/from-html',
      { html: `<p>watermarked</p>${'<p>x</p>'.repeat(150)}` },
      ws.testKey,
    )
    const pages = pdfPageTexts(res.rawPayload)
    expect(pages.length).toBeGreaterThanOrEqual(2)
    for (const page of pages) expect(page).toContain('TEST')
    const live = await binary('/v1/pdf/from-html', { html: '<p>clean</p>' })
    expect(pdfText(live.rawPayload)).not.toContain('TEST')
  })

  it('renders Markdown with templating from data_url', async () => {
    const res = await binary('/v1/pdf/from-markdown', {
      markdown: '# Hello {{ customer }}\n\n| a | b |\n|---|---|\n| 1 | 2 |',
      templating: true,
      data_url: `${siteUrl}/data.json`,
    })
    expect(res.statusCode).toBe(200)
    expect(pdfText(res.rawPayload)).toContain('Hello Ada Lovelace')
  })

  it('renders a URL the operator network allows', async () => {
    const res = await binary('/v1/pdf/from-url', { url: `${siteUrl}/page`, wait: { selector: '#ready' } })
    expect(res.statusCode).toBe(200)
    expect(pdfText(res.rawPayload)).toContain('Served page')
  })

  it('refuses private, metadata and file: URLs with url_not_allowed', async () => {
    for (const url of ['http://10.0.0.1/', `${siteUrl}/to-metadata`, 'file:///etc/passwd']) {
      const res = await binary('/v1/pdf/from-url', { url })
      expect(res.statusCode, url).toBe(422)
      expect(res.json().code, url).toBe('url_not_allowed')
    }
  })

  it('makes PNG, JPEG and WebP of the asked size', async () => {
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const res = await binary('/v1/images/from-html', {
        html: '<body style="background:#123456"><h1>Card</h1></body>',
        format,
        image: { width: 1200, height: 630 },
      })
      expect(res.statusCode, format).toBe(200)
      expect(res.headers['content-type']).toBe(`image/${format}`)
      const meta = await sharp(res.rawPayload).metadata()
      expect(meta.format).toBe(format)
      expect([meta.width, meta.height]).toEqual([1200, 630])
    }
  })

  it('renders in the asked locale, back to the default after, and warns locale_unsupported', async () => {
    const html =
      '<p id="l">no script</p><script>document.getElementById("l").textContent = "lang " + navigator.language + " date " + new Date(Date.UTC(2026, 10, 22)).toLocaleDateString(undefined, { timeZone: "UTC" })</script>'
    const pdf = (locale?: string) => ({
      input: { type: 'html', html },
      output: { format: 'pdf', ...(locale ? { pdf: { locale } } : {}) },
    })
    const de = await binary('/v1/renders', pdf('de-DE'))
    expect(de.statusCode).toBe(200)
    expect(pdfText(de.rawPayload)).toContain('lang de-DE date 22.11.2026')
    // pages are reused: the next render without a locale is in the browser's own again
    const plain = await binary('/v1/renders', pdf())
    expect(pdfText(plain.rawPayload)).toContain('lang en-US date 11/22/2026')
    const url = await binary('/v1/pdf/from-url', { url: `${siteUrl}/lang`, pdf: { locale: 'fr-FR' } })
    expect(pdfText(url.rawPayload)).toContain('Accept-Language: fr-FR')
    const unknown = await t.inject({
      method: 'POST',
      url: '/v1/renders',
      key: ws.liveKey,
      payload: { ...pdf('zz'), delivery: 'base64' },
    })
    expect(unknown.statusCode).toBe(200)
    expect(unknown.json().warnings).toContainEqual(expect.objectContaining({ code: 'locale_unsupported' }))
    expect(pdfText(Buffer.from(unknown.json().files[0].data, 'base64'))).toContain('lang en-US')
    const bad = await binary('/v1/renders', pdf('not a locale'))
    expect(bad.statusCode).toBe(400)
    expect(bad.json().code).toBe('validation_error')
    expect(bad.json().errors).toContainEqual(expect.objectContaining({ path: '/output/pdf/locale' }))
  })

  it('fails a page that never reaches its wait condition with wait_timeout, and keeps serving', async () => {
    const res = await binary('/v1/pdf/from-url', {
      url: `${siteUrl}/page`,
      wait: { selector: '#never', timeout_ms: 500 },
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().code).toBe('wait_timeout')
    const next = await binary('/v1/pdf/from-html', { html: '<p>still serving</p>' })
    expect(pdfText(next.rawPayload)).toContain('still serving')
  })
})
