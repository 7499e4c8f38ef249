import { endianness } from 'node:os'
import type { RenderedFile } from '@docsvc/core/sdk'
import sharp, { type Sharp } from 'sharp'
import type { TextRun } from './layer-context.ts'
import { opaquePng } from './opaque-png.ts'
import { rasterPdfInWorker } from './raster-pdf-worker.ts'

export type CanvasFormat = 'png' | 'jpeg' | 'webp' | 'pdf'

export interface Raster {
  /** RGBA, premultiplied alpha (what resvg gives); an opaque PNG is encoded in its place */
  pixels: Buffer
  width: number
  height: number
  /** every pixel is opaque (an opaque background): encoded without an alpha channel */
  opaque: boolean
}

export interface EncodeOptions {
  format: CanvasFormat
  quality?: number | undefined
  /** size of the PDF page in CSS pixels (96 per inch) */
  pageSize: { width: number; height: number }
  /** lines of text in CSS pixels of the page, for the PDF's invisible text */
  textRuns: TextRun[]
}

const DEFAULT_QUALITY = 80
/** opaquePng reads pixels as little-endian words */
const LITTLE_ENDIAN = endianness() === 'LE'

/**
 * Encodes resvg's pixels straight from memory (no PNG round trip for JPEG and WebP). A PDF is
 * one page the size of the canvas with the PNG over it and the text as invisible text.
 */
export async function encodeRaster(raster: Raster, options: EncodeOptions): Promise<RenderedFile> {
  const { width, height } = raster
  // opaque pixels are the same premultiplied or not: saying so spares sharp unpremultiplying
  // them in floating point (~3 ms of a 1200x630 card)
  const pixels = sharp(raster.pixels, {
    raw: { width, height, channels: 4, premultiplied: !raster.opaque },
    // the pixel budget was checked before drawing; sharp's own limit is a row short of SPEC's square
    limitInputPixels: false,
  })
  // a third less to filter and compress, and no alpha to carry
  const image = raster.opaque ? pixels.removeAlpha() : pixels
  const quality = options.quality ?? DEFAULT_QUALITY
  switch (options.format) {
    case 'png':
      return { format: 'png', contentType: 'image/png', bytes: await png(raster, image), width, height }
    case 'jpeg': {
      const bytes = await image
        .flatten({ background: '#ffffff' })
        .jpeg({ quality, mozjpeg: false })
        .toBuffer()
      return { format: 'jpeg', contentType: 'image/jpeg', bytes, width, height }
    }
    case 'webp': {
      const bytes = await image.webp({ quality }).toBuffer()
      return { format: 'webp', contentType: 'image/webp', bytes, width, height }
    }
    case 'pdf': {
      const bytes = await rasterPdfInWorker(await png(raster, image), options.pageSize, options.textRuns)
      // a scene has no title: the kernel titles the PDF by its file name, as any untitled one
      return { format: 'pdf', contentType: 'application/pdf', bytes, pages: 1, title: null }
    }
  }
}

/**
 * opaquePng filters its rows on the event loop, ~5 ms per million pixels: past this a raster goes
 * to sharp, whose encoder runs off the loop (a 16,384 x 4,096 raster held the loop 312 ms).
 */
const OPAQUE_PNG_MAX_PIXELS = 4_000_000

/**
 * Opaque rasters of cards and pages (the usual case) by opaquePng. Others by sharp at zlib level
 * 3 without adaptive filtering: the latency of a card matters more here than its last bytes
 * (adaptive filtering is ~40% smaller and three times slower).
 */
function png(raster: Raster, image: Sharp): Promise<Buffer> {
  const { width, height } = raster
  if (raster.opaque && LITTLE_ENDIAN && width * height <= OPAQUE_PNG_MAX_PIXELS)
    return opaquePng(raster.pixels, width, height)
  // sharp's buffers live in its native memory, which cannot be moved to the PDF thread: a copy can
  return image
    .png({ compressionLevel: 3, adaptiveFiltering: false })
    .toBuffer()
    .then((bytes) => Buffer.from(bytes))
}
