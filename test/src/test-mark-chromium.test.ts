import { pdfAttachmentNames, pdfFonts, pdfPageTexts, pdfText, qpdfRewrite } from '@docsvc/core/testing'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../../core/src/testing/index.ts'

// SPEC "Test mode": test-key output is marked TEST, and the page cannot take the mark off. Real
// Chromium over HTTP; the pages below try what a tenant could: CSS aimed at the old in-page mark
// element, and a script that removes every element it does not know.

let t: TestKernel
let ws: TestWorkspace

beforeAll(async () => {
  t = await startTestKernel({ roles: ['api', 'worker'] })
  ws = await t.createWorkspace({ plan: 'scale' })
}, 60_000)

afterAll(async () => {
  await t?.close()
})

const HIDE_CSS = '<style>docsvc-test-watermark{visibility:hidden!important}</style>'
/** removes, as soon as it appears, every element this page did not write itself */
const REMOVE_STRANGERS = `<script>
  const known = new Set(['HTML', 'HEAD', 'BODY', 'SCRIPT', 'STYLE', 'H1', 'P', 'META'])
  const sweep = () => { for (const el of document.querySelectorAll('*')) if (!known.has(el.tagName)) el.remove() }
  new MutationObserver(sweep).observe(document.documentElement, { childList: true, subtree: true })
  setInterval(sweep, 1)
</script>`
const pages = (n: number) =>
  Array.from({ length: n }, (_, i) => `<p style="break-after: page">page ${i + 1}</p>`).join('')

async function binary(path: string, body: object, key: string) {
  const res = await t.inject({ method: 'POST', url: path, key, payload: { delivery: 'binary', ...body } })
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200)
  return res.rawPayload
}

/** A preview's file (previews are test renders whatever the key). */
async function preview(kind: 'pdf' | 'image', body: object) {
  const res = await t.inject({ method: 'POST', url: `/v1/previews/${kind}`, key: ws.liveKey, payload: body })
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200)
  const { pathname, search } = new URL(res.json().files[0].url)
  return (await t.inject({ method: 'GET', url: pathname + search })).rawPayload
}

/** Pixels clearly more red than green: the mark's colour, never black text on white. */
async function reddish(bytes: Buffer): Promise<number> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  let count = 0
  for (let i = 0; i < data.length; i += info.channels) if (data[i]! - data[i + 1]! > 40) count++
  return count
}

function expectMarkedPdf(pdf: Buffer, pageCount?: number) {
  const texts = pdfPageTexts(pdf)
  for (const [i, text] of texts.entries()) expect(text, `page ${i + 1}`).toContain('TEST')
  if (pageCount !== undefined) expect(texts).toHaveLength(pageCount)
  // PDF/A wants every font embedded: the mark's too
  const fonts = pdfFonts(pdf)
  expect(fonts.length).toBeGreaterThan(0)
  for (const font of fonts) expect(font, font.name).toMatchObject({ embedded: true })
}

describe('the TEST mark on the finished output', () => {
  it('marks every page of a test PDF whose CSS hides the old mark element, in an embedded font', async () => {
    const html = `${HIDE_CSS}<h1>Hello</h1>${pages(3)}`
    const pdf = await binary('/v1/pdf/from-html', { html }, ws.testKey)
    expectMarkedPdf(pdf, 3)
    expect(pdfFonts(pdf).map((f) => f.type)).toContain('CID TrueType')
    const live = await binary('/v1/pdf/from-html', { html }, ws.liveKey)
    expect(pdfText(live)).toContain('Hello')
    expect(pdfText(live)).not.toContain('TEST')
  })

  it('marks a test PDF whose script removes every element it does not know', async () => {
    const html = `${REMOVE_STRANGERS}<h1>Hello</h1>${pages(2)}`
    expectMarkedPdf(await binary('/v1/pdf/from-html', { html }, ws.testKey), 2)
  })

  it('marks a test PDF before its attachments and protection seal it', async () => {
    const html = `${HIDE_CSS}<h1>Hello</h1>${pages(2)}`
    const pdf = {
      protect: { user_password: 'pw' },
      attachments: [{ name: 'notes.txt', data_uri: 'data:text/plain,Paid' }],
    }
    const locked = await binary('/v1/pdf/from-html', { html, pdf }, ws.testKey)
    const open = qpdfRewrite(locked, ['--password=pw', '--decrypt'])
    expectMarkedPdf(open, 2)
    expect(pdfAttachmentNames(open)).toEqual(['notes.txt'])
  })

  it('marks Markdown with raw HTML and template previews', async () => {
    const markdown = `${HIDE_CSS}\n\n# Hello\n\n${REMOVE_STRANGERS}\n`
    expectMarkedPdf(await binary('/v1/pdf/from-markdown', { markdown, allow_raw_html: true }, ws.testKey))
    const html = `${HIDE_CSS}${REMOVE_STRANGERS}<h1>Hello</h1>${pages(2)}`
    expectMarkedPdf(await preview('pdf', { template_type: 'pdf_code', content: { html } }), 2)
  })

  it('composites the mark onto PNG, JPEG and WebP pixels whatever the page does; live images stay clean', async () => {
    const html = `${HIDE_CSS}${REMOVE_STRANGERS}<h1>Hello</h1>`
    const size = { width: 600, height: 300 }
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const test = await binary(
        '/v1/renders',
        { input: { type: 'html', html }, output: { format, image: size } },
        ws.testKey,
      )
      expect(await sharp(test).metadata(), format).toMatchObject({ format, ...size })
      expect(await reddish(test), format).toBeGreaterThan(3000)
    }
    const live = await binary(
      '/v1/renders',
      { input: { type: 'html', html }, output: { format: 'png', image: size } },
      ws.liveKey,
    )
    expect(await reddish(live)).toBe(0)
  })

  it('marks image previews of pages and of canvas scenes', async () => {
    const html = `${HIDE_CSS}${REMOVE_STRANGERS}<h1>Hello</h1>`
    const page = await preview('image', {
      template_type: 'pdf_code',
      content: { html },
      output: { format: 'png' },
    })
    expect(await reddish(page)).toBeGreaterThan(3000)
    const scene = { width: 400, height: 200, background: '#ffffff', layers: [] }
    const canvas = await preview('image', {
      template_type: 'image_canvas',
      content: scene,
      output: { format: 'png' },
    })
    expect(await reddish(canvas)).toBeGreaterThan(2000)
  })
})
