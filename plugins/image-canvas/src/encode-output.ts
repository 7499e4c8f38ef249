import type { RenderedFile } from '@docsvc/core/sdk'
import sharp, { type Sharp } from 'sharp'
import type { TextRun } from './layer-context.ts'
import { rasterPdf } from './pdf-page.ts'

export type CanvasFormat = 'png' | 'jpeg' | 'webp' | 'pdf'

export interface Raster {
  /** RGBA, premultiplied alpha (what resvg gives) */
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

/**
 * Encodes resvg's pixels straight from memory (no PNG round trip for JPEG and WebP). A PDF is
 * one page the size of the canvas with the PNG over it and the text as invisible text.
 */
export async function encodeRaster(raster: Raster, options: EncodeOptions): Promise<RenderedFile> {
  const { width, height } = raster
  const pixels = sharp(raster.pixels, { raw: { width, height, channels: 4, premultiplied: true } })
  // a third less to filter and compress, and no alpha to carry
  const image = raster.opaque ? pixels.removeAlpha() : pixels
  const quality = options.quality ?? DEFAULT_QUALITY
  switch (options.format) {
    case 'png':
      return { format: 'png', contentType: 'image/png', bytes: await png(image), width, height }
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
      const bytes = await rasterPdf(await png(image), options.pageSize, options.textRuns)
      return { format: 'pdf', contentType: 'application/pdf', bytes, pages: 1 }
    }
  }
}

/**
 * zlib level 3 without adaptive filtering: the latency of a card matters more here than its last
 * bytes. Measured on the benchmark card (RGB, with a grainy photo): level 6 is 2% smaller and
 * 70% slower; adaptive filtering is ~40% smaller (about Chromium's size) and three times slower.
 * Photo-heavy cards are smaller as JPEG or WebP anyway.
 */
function png(image: Sharp): Promise<Buffer> {
  return image.png({ compressionLevel: 3, adaptiveFiltering: false }).toBuffer()
}
