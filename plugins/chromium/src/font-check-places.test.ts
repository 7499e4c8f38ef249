import type { RenderDocument, RenderWarning } from '@docsvc/core/sdk'
import { describe, expect, it } from 'vitest'
import { html, outputContext, poolWithServer } from './chromium-test-support.ts'
import { ImageOutput } from './image-output.ts'
import type { PdfOptions } from './pdf-options.ts'
import { PdfOutput } from './pdf-output.ts'

// The glyph check beyond the document's text nodes (decision 0094): generated content, frames,
// the PDF's header and footer templates and canvas text each get the same asset_failed warning,
// naming the place. U+E000..U+E005 (private use) are covered by no font on this machine
// (font-check.test.ts asserts it); the accents, Greek, symbols and Chinese used for the
// "no warning" cases are.

const NO_FONT_FIX = 'load a web font that covers them with @font-face, or ask the operator to install one'

const chromium = poolWithServer({
  '/frame.html': html('<p>Loopback frame \uE002</p>'),
  '/fine-frame.html': html('<p>Loopback frame café ✓</p>'),
  '/canvas.html': html(
    `<canvas id="c" width="200" height="60"></canvas><script>
      const g = document.getElementById('c').getContext('2d')
      g.font = 'bold 16px sans-serif'
      g.fillText('Total \uE004', 10, 20)
    </script>`,
  ),
})

const doc = (text: string): RenderDocument => ({ kind: 'html', html: text })

async function pdfRender(
  document: RenderDocument,
  options: PdfOptions = {},
): Promise<{ warnings: RenderWarning[]; missing: string[] }> {
  const ctx = outputContext()
  const file = await new PdfOutput(chromium.pool()).render(document, options, ctx)
  return { warnings: ctx.warnings, missing: file.missingGlyphs ?? [] }
}

const glyphWarning = (where: string, chars: string, fix = NO_FONT_FIX): RenderWarning => ({
  code: 'asset_failed',
  message: `${where}: no font has a glyph for ${chars}: they show as empty boxes; ${fix}`,
})

describe('generated content (::before, ::after)', () => {
  it('names the characters of content strings, attr(), @counter-style symbols and quotes, with the element', async () => {
    const { warnings, missing } = await pdfRender(
      doc(`<style>
        @counter-style marks { system: cyclic; symbols: "\\E001"; suffix: " " }
        .note::before { content: "\\E000  " }
        .ok::after { content: " ✓ é" }
        .tag::after { content: attr(data-mark) }
        ol.steps li { list-style: none; counter-increment: step }
        ol.steps li::before { content: counter(step, marks) }
        q.odd { quotes: "\\E003" "\\E004" }
        .gone::before { content: "\\E005" }
      </style>
      <p class="note">Read me</p><p class="ok">Fine</p><p class="tag" data-mark="\uE002">Tagged</p>
      <ol class="steps"><li>one</li></ol><p><q class="odd">quoted</q> and <q>plain</q></p>
      <p class="gone" style="display:none">hidden</p>`),
    )
    expect(warnings).toEqual([
      glyphWarning('::before of p.note', '\uE000 (U+E000)'),
      glyphWarning('::after of p.tag', '\uE002 (U+E002)'),
      glyphWarning('::before of li', '\uE001 (U+E001)'),
      glyphWarning('::before of q.odd', '\uE003 (U+E003), \uE004 (U+E004)'),
      glyphWarning('::after of q.odd', '\uE003 (U+E003), \uE004 (U+E004)'),
    ])
    expect(missing.sort()).toEqual(['\uE000', '\uE001', '\uE002', '\uE003', '\uE004'])
  })

  it('looks at every element whose content varies (attr), not only the first ones', async () => {
    const cells = Array.from({ length: 80 }, (_, i) => `<td data-m="${i === 79 ? '\uE000' : 'é'}">${i}</td>`)
    const { warnings } = await pdfRender(
      doc(`<style>td::before { content: attr(data-m) " " }</style><table><tr>${cells.join('')}</tr></table>`),
    )
    expect(warnings).toEqual([glyphWarning('::before of td', '\uE000 (U+E000)')])
  })

  it('names at most 10 places, the rest in one warning', async () => {
    const rules = Array.from({ length: 11 }, (_, i) => `.c${i}::before { content: "\\E000" }`)
    const paragraphs = Array.from({ length: 11 }, (_, i) => `<p class="c${i}">${i}</p>`)
    const { warnings } = await pdfRender(doc(`<style>${rules.join('\n')}</style>${paragraphs.join('')}`))
    expect(warnings).toHaveLength(10)
    expect(warnings[8]).toEqual(glyphWarning('::before of p.c8', '\uE000 (U+E000)'))
    expect(warnings[9]).toEqual(
      glyphWarning('2 more places (::before of p.c9, ::before of p.c10...)', '\uE000 (U+E000)'),
    )
  })

  it('says nothing when every generated character has a font', async () => {
    const { warnings } = await pdfRender(
      doc(`<style>
        .ok::before { content: "→ café " } .ok::after { content: attr(data-x) " 中文" }
        li::before { content: counter(list-item, lower-greek) ". " }
        q { quotes: "«" "»" }
      </style><p class="ok" data-x="Ελληνικά">Fine</p><ol><li>one</li></ol><q>quoted</q>`),
    )
    expect(warnings).toEqual([])
  })
})

describe('frames', () => {
  it('names srcdoc, data: and loopback frames with the characters each shows', async () => {
    const loopback = chromium.server().url('/frame.html')
    const dataUrl = `data:text/html;charset=utf-8,${encodeURIComponent('<p>Data frame \uE001</p>')}`
    const { warnings, missing } = await pdfRender(
      doc(`<p>Main text é</p>
        <iframe name="summary" srcdoc="<p>Inline frame \uE000</p>"></iframe>
        <iframe src="${dataUrl}"></iframe>
        <iframe src="${loopback}"></iframe>`),
    )
    expect(warnings).toHaveLength(3)
    expect(warnings).toContainEqual(glyphWarning('frame about:srcdoc (summary)', '\uE000 (U+E000)'))
    expect(warnings).toContainEqual(glyphWarning(`frame ${dataUrl.slice(0, 40)}...`, '\uE001 (U+E001)'))
    expect(warnings).toContainEqual(glyphWarning(`frame ${loopback}`, '\uE002 (U+E002)'))
    expect(missing.sort()).toEqual(['\uE000', '\uE001', '\uE002'])
  })

  it('says nothing when the frames show only covered text', async () => {
    const { warnings } = await pdfRender(
      doc(`<iframe srcdoc="<p>Ελληνικά 中文 ✓</p>"></iframe>
        <iframe src="${chromium.server().url('/fine-frame.html')}"></iframe>`),
    )
    expect(warnings).toEqual([])
  })
})

describe('header and footer templates', () => {
  const TEMPLATE_FIX =
    "header and footer templates cannot use the page's web fonts: embed one in the template with @font-face and a data: URL, or ask the operator to install one"

  it('names what the header and footer print, the document title in them included', async () => {
    const { warnings, missing } = await pdfRender(doc('<title>Report \uE003</title><p>Body text é</p>'), {
      header_html:
        '<div style="font-size:10px">Head \uE000 <span class="title"></span></div><div>\uE002 has no size and prints nothing</div>',
      // an entity: the template's source is ASCII, what it prints is not
      footer_html: '<div style="font-size:10px">Page <span class="pageNumber"></span> &#xE001;</div>',
      margin: { top: '60px', bottom: '60px' },
    })
    expect(warnings).toEqual([
      glyphWarning('header template', '\uE000 (U+E000), \uE003 (U+E003)', TEMPLATE_FIX),
      glyphWarning('footer template', '\uE001 (U+E001)', TEMPLATE_FIX),
    ])
    expect(missing.sort()).toEqual(['\uE000', '\uE001', '\uE003'])
  })

  it('says nothing when the templates print covered text', async () => {
    const { warnings } = await pdfRender(doc('<title>Ελληνικά</title><p>Body</p>'), {
      header_html: '<div style="font-size:10px">Café — <span class="title"></span> 中文</div>',
      footer_html: '<div style="font-size:10px">Page <span class="pageNumber"></span> ✓</div>',
      margin: { top: '60px', bottom: '60px' },
    })
    expect(warnings).toEqual([])
  })
})

describe('canvas text drawn by page scripts', () => {
  const CANVAS_FIX =
    'draw them with a canvas font that covers them (a web font loaded before drawing), or ask the operator to install one'
  const drawing = (texts: string[]) =>
    `<canvas id="c" width="300" height="100"></canvas><script>
      const g = document.getElementById('c').getContext('2d')
      g.font = '16px serif'
      ${texts.map((t, i) => `g.${i % 2 ? 'strokeText' : 'fillText'}(${JSON.stringify(t)}, 10, ${20 + i * 20})`).join('\n')}
    </script>`

  it('names characters filled or stroked on a canvas', async () => {
    const { warnings, missing } = await pdfRender(doc(drawing(['Total \uE000', '\uE001 café', 'ok'])))
    expect(warnings).toEqual([glyphWarning('canvas', '\uE000 (U+E000), \uE001 (U+E001)', CANVAS_FIX)])
    expect(missing.sort()).toEqual(['\uE000', '\uE001'])
  })

  it('says nothing when the canvas text is covered', async () => {
    const { warnings } = await pdfRender(doc(drawing(['Ελληνικά ✓', '中文 café'])))
    expect(warnings).toEqual([])
  })

  it('notes canvas text of a URL and of a frame, in images too', async () => {
    const fromUrl = await pdfRender({ kind: 'url', url: chromium.server().url('/canvas.html') })
    expect(fromUrl.warnings).toEqual([glyphWarning('canvas', '\uE004 (U+E004)', CANVAS_FIX)])

    const ctx = outputContext()
    const srcdoc = drawing(['\uE005']).replace(/"/g, '&quot;')
    const file = await new ImageOutput('png', chromium.pool()).render(
      doc(`<iframe srcdoc="${srcdoc}"></iframe>`),
      {},
      ctx,
    )
    expect(ctx.warnings).toEqual([
      glyphWarning('canvas in frame about:srcdoc', '\uE005 (U+E005)', CANVAS_FIX),
    ])
    expect(file.missingGlyphs).toEqual(['\uE005'])
  })
})
