import { readFileSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import type { RenderDocument, RenderWarning } from '@docsvc/core/sdk'
import { nameGlyphs } from '@docsvc/core/sdk'
import { describe, expect, it } from 'vitest'
import { outputContext, poolWithServer } from './chromium-test-support.ts'
import { ImageOutput } from './image-output.ts'
import { PdfOutput } from './pdf-output.ts'

// The one check for glyphs no font covers and web fonts that did not load (decision 0071), on
// this machine's fonts: DejaVu (Latin, Greek, Cyrillic, many symbols and emoji in black and white)
// and a CJK font (Chinese), but nothing in the private use areas and nothing for code points
// Unicode has not assigned (U+0378): these are the characters no font covers. The first test
// asserts that, so a machine with such a font says why.

const FONT = readFileSync('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf')

const font = (cors: boolean) => (_req: unknown, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'font/ttf', ...(cors ? { 'access-control-allow-origin': '*' } : {}) })
  res.end(FONT)
}
const chromium = poolWithServer({
  '/fonts/good.ttf': font(true),
  '/fonts/no-cors.ttf': font(false),
  '/fonts/gone.ttf': (_req, res) => {
    res.writeHead(404, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' })
    res.end('no such font')
  },
  '/fonts/not-a-font.ttf': (_req, res) => {
    res.writeHead(200, { 'content-type': 'font/ttf', 'access-control-allow-origin': '*' })
    res.end('<html>this is a login page, not a font</html>')
  },
})
const server = { url: (p: string) => chromium.server().url(p) }
const pdf = {
  render: (...args: Parameters<PdfOutput['render']>) => new PdfOutput(chromium.pool()).render(...args),
}
const png = {
  render: (...args: Parameters<ImageOutput['render']>) =>
    new ImageOutput('png', chromium.pool()).render(...args),
}

const doc = (html: string): RenderDocument => ({ kind: 'html', html })

async function pdfWarnings(html: string): Promise<{ warnings: RenderWarning[]; missing: string[] }> {
  const ctx = outputContext()
  const file = await pdf.render(doc(html), {}, ctx)
  return { warnings: ctx.warnings, missing: file.missingGlyphs ?? [] }
}

describe('glyphs no font covers', () => {
  it('has no font for private-use or unassigned code points on this machine (the tests rely on it)', async () => {
    const { execFileSync } = await import('node:child_process')
    for (const cp of ['e000', 'e001', 'e002', 'e003', 'e004', 'f0000', '378'])
      expect(execFileSync('fc-list', [`:charset=${cp}`], { encoding: 'utf8' }).trim()).toBe('')
  })

  it('names private-use and unassigned characters that print as empty boxes', async () => {
    const { warnings, missing } = await pdfWarnings(
      '<h1>Report</h1><p>Marks: \uE000\uE001 and \u0378 and café</p><p>\uE000 again</p>',
    )
    expect(missing.sort()).toEqual(['\uE000', '\uE001', '\u0378'].sort())
    expect(warnings).toEqual([
      {
        code: 'asset_failed',
        message:
          'no font has a glyph for \uE000 (U+E000), \uE001 (U+E001), \u0378 (U+0378): they show as empty boxes; load a web font that covers them with @font-face, or ask the operator to install one',
      },
    ])
  })

  it('says nothing when every character has a font: accents, Greek, Cyrillic, Chinese, emoji', async () => {
    const { warnings, missing } = await pdfWarnings(
      '<p>Ærøskøbing café — Ελληνικά, русский, 中文, € ½ ✓ 😀</p><pre>monospace: ü ß</pre><p style="font-family: serif; font-weight: bold; font-style: italic">naïve résumé</p>',
    )
    expect(missing).toEqual([])
    expect(warnings).toEqual([])
  })

  it('leaves out text that is not shown', async () => {
    const { warnings } = await pdfWarnings(
      '<p>shown</p><p style="display:none">\uE000</p><template><p>\uE001</p></template><p style="font-size:0">\uE002</p>',
    )
    expect(warnings).toEqual([])
  })

  it('checks images too', async () => {
    const ctx = outputContext()
    const file = await png.render(doc('<p>Marks \uE000\uE001\uE002</p>'), {}, ctx)
    expect(file.missingGlyphs?.length).toBe(3)
    expect(ctx.warnings.map((w) => w.code)).toEqual(['asset_failed'])
    expect(ctx.warnings[0]!.message).toContain('\uE001 (U+E001)')
  })

  it('names at most 20 characters and counts the rest', () => {
    const chars = [...'가각간갇갈갉갊감갑값갓갔강갖갗같갚갛개객갠갤']
    expect(nameGlyphs(chars)).toMatch(/^가 \(U\+AC00\), 각 \(U\+AC01\), .* and 2 more$/)
  })
})

describe('web fonts that did not load', () => {
  const styled = (url: string) =>
    `<style>@font-face { font-family: Brand; src: url(${JSON.stringify(url)}) format("truetype") }
     p { font-family: Brand, sans-serif }</style><p>Quarterly report</p>`

  it('says nothing when the web font loads', async () => {
    const { warnings } = await pdfWarnings(styled(server.url('/fonts/good.ttf')))
    expect(warnings).toEqual([])
  })

  it('names the URL of a font that answered 404, once', async () => {
    const url = server.url('/fonts/gone.ttf')
    const { warnings } = await pdfWarnings(styled(url))
    expect(warnings).toEqual([{ code: 'asset_failed', message: `${url} answered 404 Not Found` }])
  })

  it('names the URL of a font another origin serves without CORS, and says what is missing', async () => {
    const url = server.url('/fonts/no-cors.ttf')
    const { warnings } = await pdfWarnings(styled(url))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.code).toBe('asset_failed')
    expect(warnings[0]!.message).toContain(url)
    expect(warnings[0]!.message).toContain('Access-Control-Allow-Origin')
    // an error answer without that header is refused the same way: the URL is named all the same
    const missing = server.url('/fonts/missing.ttf')
    const refused = await pdfWarnings(styled(missing))
    expect(refused.warnings.map((w) => w.message)).toEqual([expect.stringContaining(missing)])
  })

  it('names the URL and family of a font that arrived but is not a font', async () => {
    const url = server.url('/fonts/not-a-font.ttf')
    const { warnings } = await pdfWarnings(styled(url))
    expect(warnings).toEqual([
      {
        code: 'asset_failed',
        message: `${url} did not load as a font (web font "Brand"); text that uses it fell back to another font`,
      },
    ])
  })
})

describe('a document full of missing characters', () => {
  it('stops looking after 200 of them and says there are at least that many', async () => {
    const marks = Array.from({ length: 1000 }, (_, i) => String.fromCodePoint(0xf0001 + i)).join('')
    const { warnings, missing } = await pdfWarnings(`<p>${marks}</p>`)
    expect(missing).toHaveLength(200)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.message).toContain('and at least 180 more')
  })
})
