// The one look of the TEST mark on test-mode output (SPEC "Test mode"), whatever draws it: the
// Chromium outputs overlay it as HTML, the image canvas as SVG.
export const TEST_WATERMARK = {
  word: 'TEST',
  /** bold, translucent red */
  color: { r: 220, g: 38, b: 38 },
  opacity: 0.42,
  /** letter spacing as a share of the font size */
  letterSpacing: 0.08,
} as const

/** Font size that fills about a third of the width and stays inside the height (8 px at least). */
export function testWatermarkFontPx(width: number, height: number): number {
  return Math.max(8, Math.round(Math.min(width / 3.2, height * 0.6)))
}
