import { createHash } from 'node:crypto'
import sharp from 'sharp'

export interface Fit {
  width: number
  height: number
  fit: 'cover' | 'contain' | 'fill'
}

/** Raster formats only: an SVG source could reach for files or URLs outside the guard. */
const ACCEPTED = new Set(['png', 'jpeg', 'webp', 'gif', 'avif'])
const MAX_INPUT_PIXELS = 100_000_000
/** Templates reuse the same pictures render after render; fitting one costs more than drawing the card. */
const CACHE_ENTRIES = 64
/** characters of data: URIs kept at most (~64 MB); a bigger picture than an eighth of it is not kept */
const CACHE_CHARS = 64 * 1024 * 1024
const cache = new Map<string, string>()
let cachedChars = 0

export class UnusableImage extends Error {}

/**
 * The image scaled to exactly the box as a data: URI resvg can draw. Opaque boxes (an opaque
 * source under cover or fill) go as JPEG, which resvg decodes several times faster than PNG;
 * anything with transparency stays PNG.
 */
export async function fittedImage(bytes: Buffer, box: Fit): Promise<string> {
  const key = `${createHash('sha256').update(bytes).digest('base64')}:${box.width}x${box.height}:${box.fit}`
  const hit = cache.get(key)
  if (hit !== undefined) {
    // most recently used last: eviction takes the first
    cache.delete(key)
    cache.set(key, hit)
    return hit
  }
  const image = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
  const { format, hasAlpha } = await image.metadata()
  if (!format || !ACCEPTED.has(format))
    throw new UnusableImage(`is ${format ?? 'not an image'}, not PNG, JPEG, WebP, GIF or AVIF`)
  const resized = image.rotate().resize(box.width, box.height, {
    fit: box.fit,
    background: { r: 0, g: 0, b: 0, alpha: 0 },
  })
  const opaque = !hasAlpha && box.fit !== 'contain'
  const uri = opaque
    ? `data:image/jpeg;base64,${(await resized.jpeg({ quality: 92 }).toBuffer()).toString('base64')}`
    : `data:image/png;base64,${(await resized.png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer()).toString('base64')}`
  remember(key, uri)
  return uri
}

function remember(key: string, uri: string): void {
  if (uri.length > CACHE_CHARS / 8) return
  // two renders may fit the same picture at once
  cachedChars -= cache.get(key)?.length ?? 0
  cache.set(key, uri)
  cachedChars += uri.length
  while (cache.size > CACHE_ENTRIES || cachedChars > CACHE_CHARS) {
    const [oldest, value] = cache.entries().next().value as [string, string]
    cache.delete(oldest)
    cachedChars -= value.length
  }
}
