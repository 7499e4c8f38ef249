import type { RenderWarningCode } from '@docsvc/core/sdk'
import { type Static, Type } from 'typebox'
import { LocaleSchema } from './page-locale.ts'
import { DEFAULT_VIEWPORT } from './pooled-page.ts'

/** Chromium cannot capture more than this many pixels per side (and SPEC 8 caps canvases there). */
export const MAX_IMAGE_SIDE = 16_384

/** ImageOptions (DESIGN.md §10). */
export const ImageOptionsSchema = Type.Object(
  {
    width: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_IMAGE_SIDE,
        description: `Width of the browser window in CSS pixels (default ${DEFAULT_VIEWPORT.width}).`,
        examples: [1200],
      }),
    ),
    height: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_IMAGE_SIDE,
        description: `Height of the browser window in CSS pixels (default ${DEFAULT_VIEWPORT.height}); the image's, unless \`full_page\`.`,
        examples: [630],
      }),
    ),
    device_scale_factor: Type.Optional(
      Type.Number({
        minimum: 0.1,
        maximum: 4,
        description:
          'Image pixels per CSS pixel (default 1): 2 gives a sharp image for high-density screens.',
        examples: [2],
      }),
    ),
    full_page: Type.Optional(
      Type.Boolean({
        description: 'Capture the whole page, not only the window (default false).',
        examples: [true],
      }),
    ),
    selector: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description: 'CSS selector of the one element to capture; wins over `clip` and `full_page`.',
        examples: ['#chart'],
      }),
    ),
    clip: Type.Optional(
      Type.Object(
        {
          x: Type.Number({
            minimum: 0,
            description: "Left edge, CSS pixels from the page's left.",
            examples: [0],
          }),
          y: Type.Number({
            minimum: 0,
            description: "Top edge, CSS pixels from the page's top.",
            examples: [120],
          }),
          width: Type.Number({
            exclusiveMinimum: 0,
            maximum: MAX_IMAGE_SIDE,
            description: 'Width in CSS pixels.',
            examples: [800],
          }),
          height: Type.Number({
            exclusiveMinimum: 0,
            maximum: MAX_IMAGE_SIDE,
            description: 'Height in CSS pixels.',
            examples: [400],
          }),
        },
        {
          additionalProperties: false,
          description: 'A rectangle of the page to capture; wins over `full_page`.',
        },
      ),
    ),
    quality: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 100,
        description: 'JPEG and WebP quality, 0 to 100 (PNG is lossless).',
        examples: [80],
      }),
    ),
    transparent: Type.Optional(
      Type.Boolean({
        description: 'A transparent background where the page has none, PNG and WebP (default false).',
        examples: [true],
      }),
    ),
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
