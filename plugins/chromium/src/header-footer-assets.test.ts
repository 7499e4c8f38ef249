import { readFileSync } from 'node:fs'
import type { RenderDocument } from '@docsvc/core/sdk'
import { pdfFonts } from '@docsvc/core/testing'
import { describe, expect, it } from 'vitest'
import { type Handler, outputContext, pdfText, poolWithServer } from './chromium-test-support.ts'
import { PdfOutput } from './pdf-output.ts'

// Chromium prints header_html and footer_html in a frame of its own: a remote @font-face there made
// Page.printToPDF fail ("Printing failed"), which the client saw as a generic render_failed, and
// an image that could not be loaded went missing without a word. Remote fonts and images are
// fetched through the guard and inlined as data: URLs, so the header prints with them; one that
// cannot be had is left out with a warning naming the field and the URL. A loopback server
// stands in for the asset host.

const FONT = readFileSync('/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf')
const font: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'font/ttf' })
  res.end(FONT)
}
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)
const css =
  (body: string): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/css' })
    res.end(body)
  }
const chromium = poolWithServer({
  '/brand.ttf': font,
  '/fonts/brand.css': css(
    '@font-face { font-family: Sheet; src: url(../brand.ttf) } div { font-family: Sheet }',
  ),
  '/nested.css': css('@import url(deeper.css); div { font-size: 12px }'),
  '/logo.png': (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' })
    res.end(PNG)
  },
})

const doc: RenderDocument = { kind: 'html', html: '<p>Body text</p>' }
const header = (src: string) =>
  `<style>@font-face { font-family: Brand; src: url("${src}") format("truetype") }</style>` +
  '<div style="font-family: Brand; font-size: 12px">Brand Header</div>'

/** A PDF with the header and footer given (2 cm margins): its text, font names and warnings. */
async function print(templates: { header_html?: string; footer_html?: string }) {
  const ctx = outputContext()
  const file = await new PdfOutput(chromium.pool()).render(
    doc,
    { ...templates, margin: { top: '2cm', bottom: '2cm' } },
    ctx,
  )
  const fonts = pdfFonts(file.bytes).map((f) => f.name)
  return { bytes: file.bytes, text: pdfText(file.bytes), fonts, warnings: ctx.warnings }
}
/** the header's own font (bold), not an installed fallback */
const BRAND_FONT = expect.stringContaining('DejaVuSans-Bold')

describe('remote resources in header and footer templates', () => {
  it('prints a header whose @font-face is a remote URL, with that font', async () => {
    const out = await print({ header_html: header(chromium.server().url('/brand.ttf')) })
    expect(out.text).toContain('Brand Header')
    expect(out.fonts).toContainEqual(BRAND_FONT)
    expect(out.warnings).toEqual([])
  })

  it('prints a header whose @font-face is a data: URL with that font', async () => {
    const out = await print({ header_html: header(`data:font/ttf;base64,${FONT.toString('base64')}`) })
    expect(out.fonts).toContainEqual(BRAND_FONT)
  })

  it('prints the header in an installed font when its font cannot be had, naming the field and URL', async () => {
    const missing = chromium.server().url('/gone.ttf')
    const refused = 'http://169.254.169.254/font.ttf'
    const out = await print({
      header_html: header(missing),
      footer_html: header(refused).replace('Brand Header', 'Brand Footer'),
    })
    expect(out.text).toContain('Brand Header')
    expect(out.text).toContain('Brand Footer')
    expect(out.warnings).toEqual([
      {
        code: 'asset_failed',
        message: `header_html: the web font ${missing} could not be loaded (HTTP 404); its text printed in an installed font`,
      },
      {
        code: 'asset_failed',
        message: expect.stringMatching(
          /^footer_html: the web font http:\/\/169\.254\.169\.254\/font\.ttf could not be loaded \(/,
        ),
      },
    ])
  })

  it('prints a remote <img> of a header, fetched through the guard', async () => {
    const out = await print({
      header_html: `<div style="font-size:10px">Logo <img src="${chromium.server().url('/logo.png')}" width="20" height="20"></div>`,
    })
    expect(out.text).toContain('Logo')
    // the picture is in the file (Chromium writes image dictionaries uncompressed)
    expect(out.bytes.toString('latin1')).toMatch(/\/Subtype\s*\/Image/)
    expect(out.warnings).toEqual([])
  })

  it('leaves out a header image that cannot be had, naming the field and URL', async () => {
    const missing = chromium.server().url('/gone.png')
    const out = await print({
      header_html: `<div style="font-size:10px">Logo <img src='${missing}' width="20"></div>`,
    })
    expect(out.text).toContain('Logo')
    expect(out.warnings).toEqual([
      {
        code: 'asset_failed',
        message: `header_html: the image ${missing} could not be loaded (HTTP 404); it is left out`,
      },
    ])
  })

  it('prints a header whose stylesheet (link or @import) is remote, with the fonts it names', async () => {
    for (const html of [
      `<link rel="stylesheet" href="${chromium.server().url('/fonts/brand.css')}"><div style="font-size:12px">Sheet Header</div>`,
      `<style>@import url("${chromium.server().url('/fonts/brand.css')}");</style><div style="font-size:12px">Sheet Header</div>`,
    ]) {
      const out = await print({ header_html: html })
      expect(out.text).toContain('Sheet Header')
      expect(out.fonts).toContainEqual(BRAND_FONT)
      expect(out.warnings).toEqual([])
    }
  })

  it('leaves out a stylesheet that cannot be had, and one a sheet imports, naming each', async () => {
    const missing = chromium.server().url('/gone.css')
    const out = await print({
      footer_html: `<link rel=stylesheet href="${missing}"><style>@import '${chromium.server().url('/nested.css')}';</style><div style="font-size:10px">Footer</div>`,
    })
    expect(out.text).toContain('Footer')
    expect(out.warnings).toEqual([
      {
        code: 'asset_failed',
        message: `footer_html: the stylesheet ${missing} could not be loaded (HTTP 404); it is left out`,
      },
      {
        code: 'asset_failed',
        message: `footer_html: the stylesheet ${chromium.server().url('/deeper.css')} is imported by another stylesheet (one level is fetched); it is left out`,
      },
    ])
  })
})
