import { TEST_WATERMARK, testWatermarkFontPx } from '@docsvc/core/sdk'
import type { LayerContext } from './layer-context.ts'
import { attrs } from './svg-markup.ts'
import { measure } from './text-layout.ts'

/** Cap height of the bold fallback face, as a share of the font size (centres the word). */
const CAP_HEIGHT = 0.73

/**
 * The TEST mark of test-mode output in the look every output shares (TEST_WATERMARK), centred,
 * a third of the width.
 */
export function testWatermarkSvg(width: number, height: number, ctx: LayerContext): string {
  const { face } = ctx.fonts.choose('DejaVu Sans', 700, false)
  ctx.fontFiles.add(face.file)
  const { word, color, opacity, letterSpacing } = TEST_WATERMARK
  const size = testWatermarkFontPx(width, height)
  const spacing = size * letterSpacing
  const baseline = height / 2 + (size * CAP_HEIGHT) / 2
  const wordWidth = measure(word, size, face) + spacing * word.length
  ctx.textRuns.push({ text: word, x: (width - wordWidth) / 2, baseline, size, width: wordWidth })
  return `<text${attrs({
    x: width / 2,
    y: baseline,
    'font-family': `'${face.family}'`,
    'font-size': size,
    'font-weight': face.weight,
    'letter-spacing': spacing,
    'text-anchor': 'middle',
    fill: `rgb(${color.r},${color.g},${color.b})`,
    'fill-opacity': opacity,
  })}>${word}</text>`
}
