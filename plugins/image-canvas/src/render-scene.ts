import type { GuardedFetch, RenderedFile, RenderWarningCode } from '@docsvc/core/sdk'
import { ProblemError } from '@docsvc/core/sdk'
import { renderAsync } from '@resvg/resvg-js'
import { type CanvasFormat, encodeRaster } from './encode-output.ts'
import { FALLBACK_FAMILY, installedFonts } from './font-catalog.ts'
import { loadImages } from './image-layer.ts'
import type { LayerContext, TextRun } from './layer-context.ts'
import { applySceneData } from './scene-data.ts'
import type { Scene } from './scene-schema.ts'
import { sceneSvg } from './scene-svg.ts'
import { assertOutputSize, validateScene } from './scene-validation.ts'
import { trimmedFontFile } from './trimmed-font.ts'

export interface CanvasImageOptions {
  /** output width in CSS pixels (default: the scene's, or kept in proportion to `height`) */
  width?: number
  height?: number
  device_scale_factor?: number
  quality?: number
  transparent?: boolean
}

export interface RenderSceneOptions {
  format: CanvasFormat
  image?: CanvasImageOptions | undefined
  /** http(s) image sources go through the SSRF guard */
  fetch: GuardedFetch
  /** the installation's pixel budget of one raster (config canvasMaxPixels), the PDF scale included */
  maxPixels: number
  signal: AbortSignal
  warn(code: RenderWarningCode, message: string): void
}

/** PDF pages are drawn at twice the canvas' pixels so they stay sharp when zoomed. */
const PDF_SCALE = 2

/** Renders a scene with its data to one file without a browser: scene -> SVG -> resvg -> encoder. */
export async function renderScene(
  scene: Scene,
  data: Record<string, unknown>,
  options: RenderSceneOptions,
): Promise<RenderedFile> {
  const { signal, format } = options
  const image = options.image ?? {}
  const warnings = new Set<string>()
  // each message once: a property given both flat and nested must not warn twice
  const warn = (code: RenderWarningCode, message: string) => {
    if (warnings.has(`${code}:${message}`)) return
    warnings.add(`${code}:${message}`)
    options.warn(code, message)
  }
  validateScene(scene)
  const { scene: applied, bound } = applySceneData(scene, data, warn)
  noteIgnoredOptions(format, image, warn)

  const size = outputSize(applied, image)
  const scale = image.device_scale_factor ?? (format === 'pdf' ? PDF_SCALE : 1)
  const pixels = {
    width: Math.max(1, Math.round(size.width * scale)),
    height: Math.max(1, Math.round(size.height * scale)),
  }
  // the size is the scene's unless the request's image options set it
  const path = image.width === undefined && image.height === undefined ? '/width' : ''
  assertOutputSize({ ...pixels, path }, format, options.maxPixels)
  // canvas pixels -> output pixels (the scene is fitted, keeping its proportions)
  const density = Math.min(size.width / applied.width, size.height / applied.height) * scale

  const images = await loadImages(applied, { fetch: options.fetch, signal, warn, scale: density })
  signal.throwIfAborted()
  const ctx: LayerContext = {
    fonts: installedFonts(),
    warn,
    fontFiles: new Set(),
    wholeFontFiles: new Set(),
    images,
    missingGlyphs: new Set(),
    textRuns: [],
    reject(layer, property, message) {
      const pointer = bound.get(`${layer.name}.${property}`)
      const code = pointer !== undefined ? 'data_invalid' : 'scene_invalid'
      const path = pointer ?? `/layers/${applied.layers.findIndex((l) => l.name === layer.name)}/${property}`
      throw new ProblemError(code, message, { errors: [{ path, code: 'invalid', message }] })
    },
  }
  const svg = sceneSvg(applied, ctx, size)
  const fontFiles = [...ctx.fontFiles].map((file) =>
    ctx.wholeFontFiles.has(file) ? file : trimmedFontFile(file),
  )
  const transparent = Boolean(image.transparent) && format !== 'jpeg'
  const background = transparent ? undefined : (applied.background ?? '#ffffff')
  const rendered = await renderAsync(
    svg,
    {
      fitTo: { mode: 'zoom', value: scale },
      font: { loadSystemFonts: false, fontFiles, defaultFontFamily: FALLBACK_FAMILY },
      ...(background !== undefined && background !== 'transparent' ? { background } : {}),
      logLevel: 'off',
    },
    signal,
  )
  signal.throwIfAborted()
  const file = await encodeRaster(
    {
      pixels: rendered.pixels,
      width: rendered.width,
      height: rendered.height,
      opaque: background !== undefined && isOpaqueColor(background),
    },
    {
      format,
      quality: image.quality,
      pageSize: size,
      textRuns: ctx.textRuns.map((run) => onPage(run, applied, size)),
    },
  )
  return { ...file, missingGlyphs: [...ctx.missingGlyphs] }
}

/** The output's size in CSS pixels: the scene's, or what `image` asks (one side keeps proportions). */
function outputSize(scene: Scene, image: CanvasImageOptions): { width: number; height: number } {
  const { width, height } = image
  if (width !== undefined && height !== undefined) return { width, height }
  if (width !== undefined)
    return { width, height: Math.max(1, Math.round((width * scene.height) / scene.width)) }
  if (height !== undefined)
    return { width: Math.max(1, Math.round((height * scene.width) / scene.height)), height }
  return { width: scene.width, height: scene.height }
}

function noteIgnoredOptions(
  format: CanvasFormat,
  image: CanvasImageOptions,
  warn: RenderSceneOptions['warn'],
) {
  if (image.quality !== undefined && (format === 'png' || format === 'pdf'))
    warn('feature_unavailable', `quality applies to jpeg and webp; ${format.toUpperCase()} ignores it`)
  if (image.transparent && format === 'jpeg')
    warn('feature_unavailable', 'JPEG has no transparency; the background stays opaque')
  // page screenshot options (ImageOptions of the Chromium outputs) mean nothing for a scene
  for (const option of ['full_page', 'selector', 'clip'])
    if ((image as Record<string, unknown>)[option] !== undefined)
      warn('feature_unavailable', `${option} applies to page screenshots, not to canvas templates; ignored`)
}

/** A text run moved from canvas pixels to the output's CSS pixels (the scene is fitted and centred). */
function onPage(run: TextRun, scene: Scene, size: { width: number; height: number }): TextRun {
  const k = Math.min(size.width / scene.width, size.height / scene.height)
  const left = (size.width - scene.width * k) / 2
  const top = (size.height - scene.height * k) / 2
  return {
    text: run.text,
    x: left + run.x * k,
    baseline: top + run.baseline * k,
    size: run.size * k,
    width: run.width * k,
  }
}

/** Whether a scene colour (already validated) has no transparency. */
export function isOpaqueColor(color: string): boolean {
  const c = color.toLowerCase()
  if (c === 'transparent') return false
  if (c.startsWith('#')) return c.length === 4 || c.length === 7 || c.endsWith(c.length === 5 ? 'f' : 'ff')
  const alpha = /^rgba\(.*,\s*([\d.]+)\s*\)$/.exec(c)?.[1]
  return alpha === undefined || Number(alpha) >= 1
}
