import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ghostscriptPdf, pdfText } from '@docsvc/core/testing'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../../core/src/testing/index.ts'
import { cyclicPageTreePdf, manyPagesPdf, metadataBombPdf } from './hostile-pdfs.ts'

// Hostile documents over HTTP (issue 13): each one ends its own render with a clear problem, and
// the next render on the same service succeeds. One kernel with the standard plugins (real
// Chromium, Liquid and pdf-lib threads) on SQLite; the PDF threads get small budgets so that a
// bomb is stopped in a fraction of a second.

const PLAIN = ghostscriptPdf(['Plain page'])
const dataUri = (bytes: Buffer) => `data:application/pdf;base64,${bytes.toString('base64')}`
const source = (bytes: Buffer) => ({ data_uri: dataUri(bytes) })
const MERGE_CAP = 3_000_000
// a PDF padded past a third of the cap: three of them are over it
const FILLER = Buffer.concat([PLAIN, Buffer.alloc(1_000_000, '\n')])

let t: TestKernel
let ws: TestWorkspace
let site: Server
let siteUrl: string

beforeAll(async () => {
  site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end(FILLER))
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  t = await startTestKernel({
    roles: ['api', 'worker'],
    env: {
      DOCSVC_NETWORK_ALLOW: '127.0.0.1/32',
      DOCSVC_PLUGIN_PDF_TOOLS_WORKER_HEAP_MB: '96',
      DOCSVC_PLUGIN_PDF_TOOLS_WORKER_BUFFERS_MB: '32',
      DOCSVC_MERGE_MAX_SOURCE_BYTES: String(MERGE_CAP),
      // a page allocating without end dies at this heap, in well under a second
      DOCSVC_PLUGIN_CHROMIUM_PAGE_HEAP_MB: '128',
    },
  })
  // scale: max_pages 5000
  ws = await t.createWorkspace({ plan: 'scale' })
  await t.setPlanLimits('scale', { requests_per_second: 10_000, test_renders_per_minute: 10_000 })
}, 60_000)
afterAll(async () => {
  await t?.close()
  await new Promise<void>((resolve) => site.close(() => resolve()))
})

const tool = (name: string, body: object) =>
  t.inject({ method: 'POST', url: `/v1/pdf-tools/${name}`, key: ws.liveKey, payload: body })

/** The next PDF render on the same service succeeds: the service is not worn down. */
async function expectNextPdfToolWorks(): Promise<void> {
  const res = await tool('metadata', { source: source(PLAIN) })
  expect(res.statusCode).toBe(200)
  expect(res.json().result).toMatchObject({ pages: 1, encrypted: false })
}

describe('hostile PDFs', () => {
  it('a compressed-stream bomb (1 GiB of zeros in 1 MB) is stopped at the memory budget: 422', async () => {
    const bomb = metadataBombPdf(1024)
    expect(bomb.length).toBeLessThan(1_100_000)
    // a metadata set rewrites the XMP packet, so pdf-lib inflates the old one
    const res = await tool('metadata', { source: source(bomb), set: { title: 'Boom' } })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({
      code: 'invalid_pdf_source',
      detail: 'Reading the source exceeded its memory budget of 32 MB.',
    })
    await expectNextPdfToolWorks()
  })

  it('the same bomb from a test key (whose sources are stamped TEST first, in a thread too): 422', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/pdf-tools/metadata',
      key: ws.testKey,
      payload: { source: source(metadataBombPdf(1024)), set: { title: 'Boom' } },
    })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({ code: 'invalid_pdf_source' })
    await expectNextPdfToolWorks()
  })

  it('a 10,000-page PDF is refused from its qpdf page count, before any work: 422 page_limit_exceeded', async () => {
    const big = manyPagesPdf(10_000)
    for (const [name, body] of [
      ['metadata', { source: source(big) }],
      ['rotate', { source: source(big), degrees: 90 }],
      ['split', { source: source(big), every: 100 }],
      ['merge', { sources: [source(PLAIN), source(big)] }],
    ] as const) {
      const res = await tool(name, body)
      expect(res.statusCode, name).toBe(422)
      expect(res.json(), name).toMatchObject({ code: 'page_limit_exceeded' })
    }
    expect((await tool('metadata', { source: source(big) })).json().detail).toBe(
      '10000 pages in the source; the plan allows 5000.',
    )
    await expectNextPdfToolWorks()
  })

  it('a page tree whose /Kids lead back to an ancestor is a 422 invalid_pdf_source, not a crash', async () => {
    const res = await tool('metadata', { source: source(cyclicPageTreePdf()) })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({ code: 'invalid_pdf_source' })
    expect(res.json().detail).toMatch(/page tree loops back on itself/)
    await expectNextPdfToolWorks()
  })

  it('a merge whose sources add up past mergeMaxSourceBytes is 413 payload_too_large naming /sources', async () => {
    const res = await tool('merge', { sources: [source(FILLER), source(FILLER), source(FILLER)] })
    expect(res.statusCode).toBe(413)
    expect(res.json()).toMatchObject({
      code: 'payload_too_large',
      errors: [{ path: '/sources', code: 'too_large' }],
    })
    // URLs are sized as they arrive: the render fails with the same problem
    const fetched = await tool('merge', { sources: [1, 2, 3].map((i) => ({ url: `${siteUrl}/${i}.pdf` })) })
    expect(fetched.statusCode).toBe(413)
    expect(fetched.json()).toMatchObject({ code: 'payload_too_large' })
    const fits = await tool('merge', { sources: [source(FILLER), source(PLAIN)], delivery: 'binary' })
    expect(fits.statusCode).toBe(200)
    expect(pdfText(fits.rawPayload)).toContain('Plain page')
  })
})

describe('hostile templates and pages', () => {
  const fromHtml = (body: object) =>
    t.inject({
      method: 'POST',
      url: '/v1/pdf/from-html',
      key: ws.liveKey,
      payload: { delivery: 'binary', ...body },
    })

  async function expectNextRenderWorks(): Promise<void> {
    const res = await fromHtml({
      html: '<h1>After {{ what }}</h1>',
      templating: true,
      data: { what: 'the storm' },
    })
    expect(res.statusCode).toBe(200)
    expect(pdfText(res.rawPayload)).toContain('After the storm')
  }

  it('a template that loops forever ends at its time budget: 422 template_fuel_exhausted', async () => {
    const res = await fromHtml({
      html: '{% for i in (1..100000000000) %}{% for j in (1..100000000000) %}{% endfor %}{% endfor %}',
      templating: true,
    })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({ code: 'template_fuel_exhausted' })
    await expectNextRenderWorks()
  })

  it('a page that allocates until it dies fails its render with a clear problem; the browser recovers', async () => {
    const res = await fromHtml({
      html: '<h1>greedy</h1><script>let a=[];for(;;)a.push(new Array(1e6).fill(1))</script>',
    })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({ code: 'render_failed' })
    expect(res.json().detail).toMatch(/^the page crashed: its scripts used more memory than a page may have/)
    await expectNextRenderWorks()
  })
})

describe('hostile canvases', () => {
  /** An unbilled preview of an inline canvas: a red square on white, `side` pixels wide. */
  const canvas = (side: number) =>
    t.inject({
      method: 'POST',
      url: '/v1/previews/image',
      key: ws.liveKey,
      payload: {
        template_type: 'image_canvas',
        content: {
          width: side,
          height: side,
          background: '#ffffff',
          layers: [
            {
              type: 'rectangle',
              name: 'box',
              x: 0,
              y: 0,
              width: side / 2,
              height: side / 2,
              fill: '#ff0000',
            },
          ],
        },
        output: { format: 'png' },
      },
    })

  it('a 16,384 px square canvas (1 GiB of pixels) is refused before drawing: 422 scene_invalid; the next one draws', async () => {
    const res = await canvas(16_384)
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({
      code: 'scene_invalid',
      detail:
        'The output would be 16384x16384 = 268,435,456 pixels; this installation draws at most 67,108,864 pixels (DOCSVC_CANVAS_MAX_PIXELS)',
      errors: [{ path: '/width', code: 'maximum' }],
    })
    const next = await canvas(40)
    expect(next.statusCode).toBe(200)
    const { pathname, search } = new URL(next.json().files[0].url)
    const png = (await t.inject({ method: 'GET', url: pathname + search })).rawPayload
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true })
    expect(info).toMatchObject({ width: 40, height: 40 })
    // the top-left quarter is red: the square was drawn
    expect([...data.subarray(0, 3)]).toEqual([255, 0, 0])
  })
})
