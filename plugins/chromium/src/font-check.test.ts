import { readFileSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import type { RenderDocument, RenderWarning } from '@docsvc/core/sdk'
import { describe, expect, it } from 'vitest'
import { outputContext, poolWithServer } from './chromium-test-support.ts'
import { nameGlyphs } from './font-check.ts'
import { ImageOutput } from './image-output.ts'
import { PdfOutput } from './pdf-output.ts'

// The one check for glyphs no font covers and web fonts that did not load (decision 0071), on
// this machine's fonts: DejaVu (Latin, Greek, Cyrillic, many symbols and emoji in black and white)
// and Droid Sans Fallback (Chinese), but no Korean font (`fc-list :lang=ko` is empty) and nothing
// in the private use area. The test asserts that first, so a machine with more fonts says why.

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
  it('has no Korean font on this machine (the tests below rely on it)', async () => {
    const { execFileSync } = await import('node:child_process')
    expect(execFileSync('fc-list', [':lang=ko'], { encoding: 'utf8' }).trim()).toBe('')
  })

  it('names Korean characters and a private-use character that print as empty boxes', async () => {
    const { warnings, missing } = await pdfWarnings(
      '<h1>Report</h1><p>인사말: 안녕 and \uE000 and café</p><p>안녕 again</p>',
    )
    expect(missing.sort()).toEqual(['녕', '말', '사', '안', '인', '\uE000'].sort())
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.code).toBe('asset_failed')
    expect(warnings[0]!.message).toContain('no font has a glyph for ')
    expect(warnings[0]!.message).toContain('안 (U+C548)')
    expect(warnings[0]!.message).toContain('\uE000 (U+E000)')
    expect(warnings[0]!.message).toContain('@font-face')
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
      '<p>shown</p><p style="display:none">안녕</p><template><p>안녕</p></template>',
    )
    expect(warnings).toEqual([])
  })

  it('checks images too', async () => {
    const ctx = outputContext()
    const file = await png.render(doc('<p>안녕하세요</p>'), {}, ctx)
    expect(file.missingGlyphs?.length).toBe(5)
    expect(ctx.warnings.map((w) => w.code)).toEqual(['asset_failed'])
    expect(ctx.warnings[0]!.message).toContain('하 (U+D558)')
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
    const hangul = Array.from({ length: 1000 }, (_, i) => String.fromCodePoint(0xac01 + i)).join('')
    const { warnings, missing } = await pdfWarnings(`<p>${hangul}</p>`)
    expect(missing).toHaveLength(200)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.message).toContain('and at least 180 more')
  })
})
