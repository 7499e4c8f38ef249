import type { LayerContext } from './layer-context.ts'
import { attrs } from './svg-markup.ts'
import { measure } from './text-layout.ts'

/** Cap height of the bold fallback face, as a share of the font size (centres the word). */
const CAP_HEIGHT = 0.73
const WORD = 'TEST'

/**
 * The TEST mark of test-mode output, the same look as the Chromium outputs' overlay
 * (plugins/chromium/src/test-watermark.ts): bold, translucent red, centred, a third of the width.
 */
export function testWatermarkSvg(width: number, height: number, ctx: LayerContext): string {
  const { face } = ctx.fonts.choose('DejaVu Sans', 700, false)
  ctx.fontFiles.add(face.file)
  const size = Math.max(8, Math.round(Math.min(width / 3.2, height * 0.6)))
  const spacing = size * 0.08
  const baseline = height / 2 + (size * CAP_HEIGHT) / 2
  const wordWidth = measure(WORD, size, face) + spacing * WORD.length
  ctx.textRuns.push({ text: WORD, x: (width - wordWidth) / 2, baseline, size, width: wordWidth })
  return `<text${attrs({
    x: width / 2,
    y: baseline,
    'font-family': `'${face.family}'`,
    'font-size': size,
    'font-weight': face.weight,
    'letter-spacing': spacing,
    'text-anchor': 'middle',
    fill: '#dc2626',
    'fill-opacity': 0.42,
  })}>${WORD}</text>`
}
