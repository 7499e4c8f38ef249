import { glyphsOf, type MarkFont } from './mark-font.ts'
import { TEST_MARK, testMarkFontSize } from './test-mark-look.ts'

/** The word as drawn across a box: one layout for PDF pages (points) and images (pixels). */
export interface MarkLayout {
  /** glyph ids of the word in the mark's font */
  glyphs: number[]
  size: number
  /** added after each letter */
  spacing: number
  /** from the first letter's origin to the last letter's advance */
  width: number
  capHeight: number
}

/** A word as wide as at most this share of the box: a little margin on either side. */
const MAX_SHARE = 0.88

export function markLayout(font: MarkFont, width: number, height: number): MarkLayout {
  const glyphs = glyphsOf(font, TEST_MARK.word)
  const em = glyphs.reduce((sum, g) => sum + (font.widths[g] ?? 0), 0) / 1000
  // letter spacing follows each letter; the last one's is not part of the word's look
  const emWidth = em + TEST_MARK.letterSpacing * (glyphs.length - 1)
  const size = Math.min(testMarkFontSize(width, height), (width * MAX_SHARE) / emWidth)
  return {
    glyphs,
    size,
    spacing: size * TEST_MARK.letterSpacing,
    width: size * emWidth,
    capHeight: (font.capHeight * size) / 1000,
  }
}
