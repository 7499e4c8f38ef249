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
const chromium = poolWithServer({
  '/brand.ttf': font,
  '/logo.png': (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' })
    res.end(PNG)
  },
})

const doc: RenderDocument = { kind: 'html', html: '<p>Body text</p>' }
const header = (src: string) =>
  `<style>@font-face { font-family: Brand; src: url("${src}") format("truetype") }</style>` +
  '<div style="font-family: Brand; font-size: 12px">Brand Header</div>'

describe('remote resources in header and footer templates', () => {
  it('prints a header whose @font-face is a remote URL, with that font', async () => {
    const ctx = outputContext()
    const file = await new PdfOutput(chromium.pool()).render(
      doc,
      { header_html: header(chromium.server().url('/brand.ttf')), margin: { top: '2cm' } },
      ctx,
    )
    expect(pdfText(file.bytes)).toContain('Brand Header')
    // the header's own font (bold), not an installed fallback
    expect(pdfFonts(file.bytes).map((f) => f.name)).toContainEqual(expect.stringContaining('DejaVuSans-Bold'))
    expect(ctx.warnings).toEqual([])
  })

  it('prints a header whose @font-face is a data: URL with that font', async () => {
    const file = await new PdfOutput(chromium.pool()).render(
      doc,
      { header_html: header(`data:font/ttf;base64,${FONT.toString('base64')}`), margin: { top: '2cm' } },
      outputContext(),
    )
    expect(pdfFonts(file.bytes).map((f) => f.name)).toContainEqual(expect.stringContaining('DejaVuSans-Bold'))
  })

  it('prints the header in an installed font when its font cannot be had, naming the field and URL', async () => {
    const missing = chromium.server().url('/gone.ttf')
    const refused = 'http://169.254.169.254/font.ttf'
    const ctx = outputContext()
    const file = await new PdfOutput(chromium.pool()).render(
      doc,
      {
        header_html: header(missing),
        footer_html: header(refused).replace('Brand Header', 'Brand Footer'),
        margin: { top: '2cm', bottom: '2cm' },
      },
      ctx,
    )
    const text = pdfText(file.bytes)
    expect(text).toContain('Brand Header')
    expect(text).toContain('Brand Footer')
    expect(ctx.warnings).toEqual([
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
    const ctx = outputContext()
    const file = await new PdfOutput(chromium.pool()).render(
      doc,
      {
        header_html: `<div style="font-size:10px">Logo <img src="${chromium.server().url('/logo.png')}" width="20" height="20"></div>`,
        margin: { top: '2cm' },
      },
      ctx,
    )
    expect(pdfText(file.bytes)).toContain('Logo')
    // the picture is in the file (Chromium writes image dictionaries uncompressed)
    expect(file.bytes.toString('latin1')).toMatch(/\/Subtype\s*\/Image/)
    expect(ctx.warnings).toEqual([])
  })

  it('leaves out a header image that cannot be had, naming the field and URL', async () => {
    const missing = chromium.server().url('/gone.png')
    const ctx = outputContext()
    const file = await new PdfOutput(chromium.pool()).render(
      doc,
      {
        header_html: `<div style="font-size:10px">Logo <img src='${missing}' width="20"></div>`,
        margin: { top: '2cm' },
      },
      ctx,
    )
    expect(pdfText(file.bytes)).toContain('Logo')
    expect(ctx.warnings).toEqual([
      {
        code: 'asset_failed',
        message: `header_html: the image ${missing} could not be loaded (HTTP 404); it is left out`,
      },
    ])
  })
})
