import type { GuardedFetch } from '@docsvc/core/sdk'
import { fittedImage, UnusableImage } from './fitted-image.ts'
import type { LayerContext, Warn } from './layer-context.ts'
import { type ImageLayer, MAX_CANVAS_SIDE, type Scene } from './scene-schema.ts'
import { attrs } from './svg-markup.ts'

export const MAX_IMAGE_BYTES = 20 * 1024 * 1024
/** All image sources of one render together. */
export const MAX_SOURCE_BYTES_PER_RENDER = 50 * 1024 * 1024
const PARALLEL_LOADS = 4
const FETCH_TIMEOUT_MS = 10_000

export interface ImageSourceOptions {
  fetch: GuardedFetch
  signal: AbortSignal
  warn: Warn
  /** output pixels per canvas pixel */
  scale: number
}

/**
 * Loads every visible image layer's source, a few at a time, and fits it to its box at the output's pixel
 * density, as data: URIs by layer name. A source that cannot be loaded or decoded is left
 * out with asset_failed, like a broken image on a page.
 */
export async function loadImages(scene: Scene, options: ImageSourceOptions): Promise<Map<string, string>> {
  const layers = scene.layers.filter(
    (l): l is ImageLayer =>
      l.type === 'image' && l.visible !== false && Boolean(l.src) && l.width > 0 && l.height > 0,
  )
  const images = new Map<string, string>()
  const budget = { bytes: MAX_SOURCE_BYTES_PER_RENDER }
  let next = 0
  // a few at a time, so 200 image layers cannot hold 200 sources in memory at once
  const worker = async () => {
    while (next < layers.length && !options.signal.aborted) {
      const layer = layers[next++] as ImageLayer
      const uri = await loadOne(layer, options, budget)
      if (uri) images.set(layer.name, uri)
    }
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL_LOADS, layers.length) }, worker))
  return images
}

async function loadOne(
  layer: ImageLayer,
  options: ImageSourceOptions,
  budget: { bytes: number },
): Promise<string | undefined> {
  const src = layer.src as string
  const failed = (why: string) => {
    options.warn(
      'asset_failed',
      `Layer ${layer.name}: image ${describeSource(src)} ${why}; the layer was left out`,
    )
    return undefined
  }
  let bytes: Buffer
  try {
    bytes = await sourceBytes(src, options)
  } catch (err) {
    if (options.signal.aborted) throw options.signal.reason
    return failed(`could not be loaded (${(err as Error).message})`)
  }
  budget.bytes -= bytes.length
  if (budget.bytes < 0)
    return failed(
      `went over the ${MAX_SOURCE_BYTES_PER_RENDER / 1024 / 1024} MB of image sources one render may load`,
    )
  try {
    return await fittedImage(bytes, {
      width: fittedSide(layer.width * options.scale),
      height: fittedSide(layer.height * options.scale),
      fit: layer.fit ?? 'cover',
    })
  } catch (err) {
    if (err instanceof UnusableImage) return failed(err.message)
    return failed(`could not be decoded (${(err as Error).message})`)
  }
}

/** A box larger than any output is drawn stretched from at most an output's side of pixels. */
function fittedSide(pixels: number): number {
  return Math.min(MAX_CANVAS_SIDE, Math.max(1, Math.round(pixels)))
}

async function sourceBytes(src: string, options: ImageSourceOptions): Promise<Buffer> {
  if (src.startsWith('data:')) return decodeDataUri(src)
  if (!/^https?:\/\//i.test(src)) throw new Error('src must be a data: URI or an http(s) URL')
  const response = await options.fetch(src, { timeoutMs: FETCH_TIMEOUT_MS, maxBytes: MAX_IMAGE_BYTES })
  if (response.status < 200 || response.status >= 300) throw new Error(`HTTP ${response.status}`)
  return response.body
}

/** `data:[<type>][;base64],<data>` (RFC 2397). */
export function decodeDataUri(uri: string): Buffer {
  const comma = uri.indexOf(',')
  if (comma < 0) throw new Error('malformed data: URI')
  const meta = uri.slice(5, comma)
  const payload = uri.slice(comma + 1)
  const bytes = /;base64$/i.test(meta)
    ? Buffer.from(payload, 'base64')
    : Buffer.from(
        payload.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
          String.fromCharCode(Number.parseInt(hex, 16)),
        ),
        'latin1',
      )
  if (bytes.length > MAX_IMAGE_BYTES) throw new Error(`larger than ${MAX_IMAGE_BYTES} bytes`)
  return bytes
}

function describeSource(src: string): string {
  return src.startsWith('data:') ? 'from a data: URI' : src.slice(0, 200)
}

/** The fitted image in its box, with rounded corners when the layer asks. */
export function imageSvg(layer: ImageLayer, ctx: LayerContext): string {
  const href = ctx.images.get(layer.name)
  if (!href) return ''
  const box = { x: layer.x ?? 0, y: layer.y ?? 0, width: layer.width, height: layer.height }
  const image = `<image${attrs({ ...box, href, preserveAspectRatio: 'none' })}/>`
  if (!layer.radius) return image
  const id = `clip-${layer.name}`
  const rx = Math.min(layer.radius, layer.width / 2, layer.height / 2)
  return `<clipPath${attrs({ id })}><rect${attrs({ ...box, rx })}/></clipPath><g${attrs({ 'clip-path': `url(#${id})` })}>${image}</g>`
}
