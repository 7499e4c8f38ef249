// The one look of the TEST mark of test-mode output (SPEC "Test mode"), stamped on the finished
// PDF pages and image pixels alike (docs/decisions/0023-test-mark-on-finished-output.md).
export const TEST_MARK = {
  word: 'TEST',
  /** bold, translucent red */
  color: { r: 220, g: 38, b: 38 },
  opacity: 0.42,
  /** letter spacing as a share of the font size */
  letterSpacing: 0.08,
} as const

/** Font size that fills about a third of the width and stays inside the height (8 at least). */
export function testMarkFontSize(width: number, height: number): number {
  return Math.max(8, Math.round(Math.min(width / 3.2, height * 0.6)))
}
