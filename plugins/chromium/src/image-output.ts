import type { OutputContext, RenderDocument, RenderedFile, RenderOutput } from '@docsvc/core/sdk'
import { ProblemError, problemFromCause } from '@docsvc/core/sdk'
import type { Page } from 'playwright-core'
import sharp from 'sharp'
import type { BrowserPool } from './browser-pool.ts'
import { CHROMIUM_ENGINE } from './chromium-config.ts'
import {
  type CaptureTarget,
  captureTarget,
  type ImageFormat,
  type ImageOptions,
  ImageOptionsSchema,
  MAX_IMAGE_SIDE,
} from './image-options.ts'
import { DEFAULT_VIEWPORT } from './pooled-page.ts'
import { renderDocument } from './render-document.ts'

const CLEAR = { r: 0, g: 0, b: 0, a: 0 }

/** A rectangle in CSS pixels of the document. */
interface Area {
  x: number
  y: number
  width: number
  height: number
}

/** The `png`, `jpeg` and `webp` outputs: a screenshot through CDP (WebP natively, no re-encoding). */
export class ImageOutput implements RenderOutput<ImageOptions> {
  readonly format: ImageFormat
  readonly engine = CHROMIUM_ENGINE
  readonly optionsSchema = ImageOptionsSchema
  /** the worker's browser pool this output renders with */
  readonly pool: BrowserPool

  constructor(format: ImageFormat, pool: BrowserPool) {
    this.format = format
    this.pool = pool
  }

  async render(doc: RenderDocument, options: ImageOptions, ctx: OutputContext): Promise<RenderedFile> {
    const o = options ?? {}
    const format = this.format
    const warn = ctx.warn.bind(ctx)
    const target = captureTarget(o, format, warn)
    const viewport = { width: o.width ?? DEFAULT_VIEWPORT.width, height: o.height ?? DEFAULT_VIEWPORT.height }
    const scale = o.device_scale_factor ?? 1
    const transparent = Boolean(o.transparent) && format !== 'jpeg'
    let missingGlyphs: string[] = []
    const bytes = await renderDocument(this.pool, doc, ctx, {
      viewport: { ...viewport, deviceScaleFactor: scale },
      transparent,
      locale: o.locale,
      onMissingGlyphs: (chars) => {
        missingGlyphs = chars
      },
      produce: async ({ page, cdp }) => {
        const area = fitArea(await captureArea(page, target, viewport), scale, warn)
        // this page is in the workspace's context for transparent captures (see RenderSteps)
        if (transparent) await cdp.send('Emulation.setDefaultBackgroundColorOverride', { color: CLEAR })
        const shot = await cdp.send('Page.captureScreenshot', {
          format,
          ...(format !== 'png' && o.quality !== undefined ? { quality: o.quality } : {}),
          // Chromium's fast PNG encoding: the same pixels in a third of the time, ~2.5x the
          // bytes; compacted below, after the page is free again
          ...(format === 'png' ? { optimizeForSpeed: true } : {}),
          clip: { ...area, scale: 1 },
          captureBeyondViewport:
            area.x + area.width > viewport.width || area.y + area.height > viewport.height,
          fromSurface: true,
        })
        return Buffer.from(shot.data, 'base64')
      },
    })
    if (format === 'png') {
      const { data, info } = await compactPng(bytes)
      return {
        format,
        contentType: 'image/png',
        bytes: data,
        width: info.width,
        height: info.height,
        missingGlyphs,
      }
    }
    const { width, height } = await sharp(bytes).metadata()
    return { format, contentType: `image/${format}`, bytes, width, height, missingGlyphs }
  }
}

/**
 * A PNG compressed again at zlib level 6 without row filters, alpha kept when it has one: on a
 * 1200x630 card ~10 ms, and as small as Chromium's own careful encoding or smaller (its default
 * takes ~85 ms more of the capture).
 */
function compactPng(png: Buffer) {
  // Chromium's own capture, up to 16,384 px a side at any scale: no pixel limit
  return sharp(png, { limitInputPixels: false, sequentialRead: true })
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer({ resolveWithObject: true })
}

/** The captured rectangle in CSS pixels of the document. */
async function captureArea(
  page: Page,
  target: CaptureTarget,
  viewport: { width: number; height: number },
): Promise<Area> {
  switch (target.kind) {
    case 'viewport':
      return { x: 0, y: 0, ...viewport }
    case 'clip':
      return target.clip
    case 'full_page': {
      const size = (await page.evaluate(
        `(() => { const d = document.documentElement, b = document.body || d
          return [Math.max(d.scrollWidth, b.scrollWidth), Math.max(d.scrollHeight, b.scrollHeight)] })()`,
      )) as [number, number]
      return { x: 0, y: 0, width: Math.max(size[0], viewport.width), height: Math.max(size[1], 1) }
    }
    case 'selector':
      return elementArea(page, target.selector)
  }
}

async function elementArea(page: Page, selector: string): Promise<Area> {
  let found: Area | null | 'invalid'
  try {
    found = (await page.evaluate(
      `((selector) => {
        let el
        try { el = document.querySelector(selector) } catch { return 'invalid' }
        if (!el) return null
        const r = el.getBoundingClientRect()
        const x = Math.floor(r.left + scrollX), y = Math.floor(r.top + scrollY)
        return { x, y, width: Math.ceil(r.right + scrollX) - x, height: Math.ceil(r.bottom + scrollY) - y }
      })(${JSON.stringify(selector)})`,
    )) as Area | null | 'invalid'
  } catch (err) {
    throw problemFromCause(
      'render_failed',
      `image.selector ${JSON.stringify(selector)} could not be looked up in the page.`,
      err,
    )
  }
  if (found === 'invalid')
    throw new ProblemError(
      'validation_error',
      `selector ${JSON.stringify(selector)} is not a valid CSS selector`,
      {
        errors: [{ path: '/output/image/selector', code: 'invalid', message: 'not a valid CSS selector' }],
      },
    )
  if (!found)
    throw new ProblemError('render_failed', `no element matches the selector ${JSON.stringify(selector)}`)
  if (found.width <= 0 || found.height <= 0)
    throw new ProblemError('render_failed', `the element matched by ${JSON.stringify(selector)} has no size`)
  return found
}

/** Chromium stops at 16,384 pixels per side: a longer capture is cut, with a warning. */
function fitArea(area: Area, scale: number, warn: OutputContext['warn']): Area {
  const max = Math.floor(MAX_IMAGE_SIDE / scale)
  if (area.width <= max && area.height <= max) return area
  warn('feature_unavailable', `the capture is larger than ${MAX_IMAGE_SIDE} pixels per side and was cut`)
  return { ...area, width: Math.min(area.width, max), height: Math.min(area.height, max) }
}
