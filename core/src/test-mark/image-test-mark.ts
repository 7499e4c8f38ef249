import sharp from 'sharp'
import { type MarkFont, markFont } from './mark-font.ts'
import { markLayout } from './mark-layout.ts'
import { TEST_MARK } from './test-mark-look.ts'

// The TEST mark of a test-mode image, composited onto the finished pixels: whatever the page or
// scene drew, the mark is drawn over it. The letters are the PDF mark's own outlines (the same
// subset of the same face), so every format looks alike and no font lookup happens here.

export type MarkedImageFormat = 'png' | 'jpeg' | 'webp'

/** Quality of a lossy image encoded again with its mark when the request gave none. */
export const DEFAULT_MARK_QUALITY = 80
/** room above the cap height and below the baseline for round letters' overshoot (S) */
const OVERSHOOT = 0.05

/** The image with the TEST mark centred on it, in its format; lossy formats at `quality`. */
export async function stampTestImage(
  image: Buffer,
  format: MarkedImageFormat,
  quality: number = DEFAULT_MARK_QUALITY,
): Promise<Buffer> {
  // Chromium's captures reach 16,384 px a side: no pixel limit on what the service itself made
  const source = sharp(image, { limitInputPixels: false, sequentialRead: true })
  const { width = 0, height = 0 } = await source.metadata()
  if (width < 1 || height < 1) throw new Error('the image to mark has no size')
  const overlay = markOverlay(markFont(), width, height)
  const marked = source.composite([{ input: Buffer.from(overlay.svg), left: overlay.left, top: overlay.top }])
  switch (format) {
    case 'png':
      // as the Chromium output compacts its own PNGs: zlib level 6, no row filters
      return marked.png({ compressionLevel: 6, adaptiveFiltering: false }).toBuffer()
    case 'jpeg':
      return marked.jpeg({ quality, mozjpeg: false }).toBuffer()
    case 'webp':
      return marked.webp({ quality }).toBuffer()
  }
}

/** An SVG just around the word (not the whole image: a full-page capture is huge) and its place. */
export function markOverlay(font: MarkFont, width: number, height: number) {
  const { glyphs, size, spacing, width: wordWidth, capHeight } = markLayout(font, width, height)
  const pad = Math.ceil(size * OVERSHOOT) + 1
  const boxWidth = Math.min(width, Math.ceil(wordWidth) + 2 * pad)
  const boxHeight = Math.min(height, Math.ceil(capHeight) + 2 * pad)
  const left = Math.max(0, Math.round((width - boxWidth) / 2))
  const top = Math.max(0, Math.round((height - boxHeight) / 2))
  // the word centred in the box, whatever rounding and clamping did to it
  const x0 = boxWidth / 2 - wordWidth / 2
  const baseline = boxHeight / 2 + capHeight / 2
  const k = size / 1000
  const n = (v: number) => Number(v.toFixed(3)).toString()
  let x = x0
  let paths = ''
  for (const g of glyphs) {
    paths += `<path transform="translate(${n(x)} ${n(baseline)}) scale(${n(k)} ${n(-k)})" d="${font.outlines[g]}"/>`
    x += ((font.widths[g] ?? 0) * size) / 1000 + spacing
  }
  const { r, g, b } = TEST_MARK.color
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${boxWidth}" height="${boxHeight}">` +
    `<g fill="rgb(${r},${g},${b})" fill-opacity="${TEST_MARK.opacity}">${paths}</g></svg>`
  return { svg, left, top }
}
