import type { RenderWarningCode } from '@docsvc/core/sdk'
import { type Static, Type } from 'typebox'
import { LocaleSchema } from './page-locale.ts'

/** Chromium cannot capture more than this many pixels per side (and SPEC 8 caps canvases there). */
export const MAX_IMAGE_SIDE = 16_384

/** ImageOptions (DESIGN.md §10). */
export const ImageOptionsSchema = Type.Object(
  {
    width: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_IMAGE_SIDE, description: 'viewport width' }),
    ),
    height: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_IMAGE_SIDE, description: 'viewport height' }),
    ),
    device_scale_factor: Type.Optional(Type.Number({ minimum: 0.1, maximum: 4 })),
    full_page: Type.Optional(Type.Boolean()),
    selector: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
    clip: Type.Optional(
      Type.Object(
        {
          x: Type.Number({ minimum: 0 }),
          y: Type.Number({ minimum: 0 }),
          width: Type.Number({ exclusiveMinimum: 0, maximum: MAX_IMAGE_SIDE }),
          height: Type.Number({ exclusiveMinimum: 0, maximum: MAX_IMAGE_SIDE }),
        },
        { additionalProperties: false },
      ),
    ),
    quality: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    transparent: Type.Optional(Type.Boolean()),
    locale: Type.Optional(LocaleSchema),
  },
  { additionalProperties: false },
)

export type ImageOptions = Static<typeof ImageOptionsSchema>
export type ImageFormat = 'png' | 'jpeg' | 'webp'

export type CaptureTarget =
  | { kind: 'selector'; selector: string }
  | { kind: 'clip'; clip: { x: number; y: number; width: number; height: number } }
  | { kind: 'full_page' }
  | { kind: 'viewport' }

/** What one image render captures: selector before clip before full page before the viewport. */
export function captureTarget(
  options: ImageOptions,
  format: ImageFormat,
  warn: (code: RenderWarningCode, message: string) => void,
): CaptureTarget {
  if (options.quality !== undefined && format === 'png')
    warn('feature_unavailable', 'quality applies to jpeg and webp; PNG is lossless and ignores it')
  if (options.transparent && format === 'jpeg')
    warn('feature_unavailable', 'JPEG has no transparency; the background stays opaque white')
  const ignored = (what: string, winner: string) =>
    warn('feature_unavailable', `${what} is ignored when ${winner} is given`)
  if (options.selector) {
    if (options.clip) ignored('clip', 'selector')
    if (options.full_page) ignored('full_page', 'selector')
    return { kind: 'selector', selector: options.selector }
  }
  if (options.clip) {
    if (options.full_page) ignored('full_page', 'clip')
    return { kind: 'clip', clip: options.clip }
  }
  return options.full_page ? { kind: 'full_page' } : { kind: 'viewport' }
}
