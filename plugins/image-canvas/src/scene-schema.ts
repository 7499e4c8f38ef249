import { type Static, type TSchema, Type } from 'typebox'

/** SPEC 8: a canvas output is at most this many pixels per side. */
export const MAX_CANVAS_SIDE = 16_384
export const MAX_LAYERS = 200

export const COLOR_PATTERN =
  '^(#[0-9a-fA-F]{3,4}|#[0-9a-fA-F]{6}|#[0-9a-fA-F]{8}|rgba?\\(\\s*\\d{1,3}\\s*,\\s*\\d{1,3}\\s*,\\s*\\d{1,3}\\s*(,\\s*(0|1|0?\\.\\d+)\\s*)?\\)|transparent)$'

const Color = (description: string, example: string) =>
  Type.String({
    pattern: COLOR_PATTERN,
    maxLength: 64,
    description: `${description}: #rgb, #rrggbb, #rrggbbaa, rgb(), rgba() or transparent`,
    examples: [example],
  })

const Coordinate = (description: string, example: number) =>
  Type.Number({ minimum: -MAX_CANVAS_SIDE, maximum: 2 * MAX_CANVAS_SIDE, description, examples: [example] })
const Extent = (description: string, example: number) =>
  Type.Number({ minimum: 0, maximum: 2 * MAX_CANVAS_SIDE, description, examples: [example] })

export const NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_-]{0,63}$'

/** Fields every layer has. */
const common = {
  name: Type.String({
    pattern: NAME_PATTERN,
    description: 'unique in the scene; data addresses its properties as `name.property`',
    examples: ['title'],
  }),
  x: Type.Optional(Coordinate('left edge in canvas pixels (default 0)', 80)),
  y: Type.Optional(Coordinate('top edge in canvas pixels (default 0)', 120)),
  rotation: Type.Optional(
    Type.Number({
      minimum: -360,
      maximum: 360,
      description: 'degrees clockwise about the centre of the box',
      examples: [-8],
    }),
  ),
  opacity: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'default 1', examples: [0.8] })),
  visible: Type.Optional(
    Type.Boolean({ description: 'false leaves the layer out (default true)', examples: [false] }),
  ),
  required: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      maxItems: 32,
      uniqueItems: true,
      description: 'properties the render data must set (else 422 data_invalid)',
      examples: [['text']],
    }),
  ),
}

const box = {
  width: Extent('box width in canvas pixels', 1040),
  height: Extent('box height in canvas pixels', 200),
}

const outline = {
  stroke: Type.Optional(Color('outline colour (none by default)', '#1e293b')),
  stroke_width: Type.Optional(
    Type.Number({ minimum: 0, maximum: 1000, description: 'default 1 when stroke is set', examples: [4] }),
  ),
}

const CornerRadius = Type.Number({
  minimum: 0,
  maximum: MAX_CANVAS_SIDE,
  description: 'corner radius',
  examples: [24],
})

export const TextLayerSchema = Type.Object(
  {
    type: Type.Literal('text', { description: 'a text layer' }),
    ...common,
    ...box,
    text: Type.Optional(
      Type.String({
        maxLength: 10_000,
        description: 'the text; \\n breaks a line',
        examples: ['Summer sale\\nup to 40% off'],
      }),
    ),
    font_family: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'a family list like CSS ("Inter, sans-serif"); not installed: DejaVu Sans + font_fallback_used',
        examples: ['Inter, sans-serif'],
      }),
    ),
    font_size: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: 2000, description: 'pixels (default 32)', examples: [64] }),
    ),
    font_weight: Type.Optional(
      Type.Integer({ minimum: 100, maximum: 900, description: '100 to 900 (default 400)', examples: [700] }),
    ),
    font_style: Type.Optional(
      Type.Union([Type.Literal('normal'), Type.Literal('italic')], {
        description: 'default normal',
        examples: ['italic'],
      }),
    ),
    color: Type.Optional(Color('text colour (default #000000)', '#0f172a')),
    align: Type.Optional(
      Type.Union([Type.Literal('left'), Type.Literal('center'), Type.Literal('right')], {
        description: 'horizontal alignment in the box (default left)',
        examples: ['center'],
      }),
    ),
    vertical_align: Type.Optional(
      Type.Union([Type.Literal('top'), Type.Literal('middle'), Type.Literal('bottom')], {
        description: 'vertical alignment in the box (default top)',
        examples: ['middle'],
      }),
    ),
    line_height: Type.Optional(
      Type.Number({
        minimum: 0.5,
        maximum: 5,
        description: 'multiple of the font size (default 1.2)',
        examples: [1.4],
      }),
    ),
    max_lines: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, description: 'default: as many as fit', examples: [2] }),
    ),
    overflow: Type.Optional(
      Type.Union([Type.Literal('shrink'), Type.Literal('ellipsis'), Type.Literal('clip')], {
        description:
          'text that does not fit: shrink down to min_font_size (then ellipsis), end with an ellipsis (default), or cut',
        examples: ['shrink'],
      }),
    ),
    min_font_size: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: 2000, description: 'default 8', examples: [24] }),
    ),
    letter_spacing: Type.Optional(
      Type.Number({
        minimum: -100,
        maximum: 1000,
        description: 'pixels added after each character (default 0)',
        examples: [1.5],
      }),
    ),
    text_transform: Type.Optional(
      Type.Union([Type.Literal('none'), Type.Literal('uppercase'), Type.Literal('lowercase')], {
        description: 'change the letter case (default none)',
        examples: ['uppercase'],
      }),
    ),
  },
  { additionalProperties: false },
)

export const ImageLayerSchema = Type.Object(
  {
    type: Type.Literal('image', { description: 'a image layer' }),
    ...common,
    ...box,
    src: Type.Optional(
      Type.String({
        maxLength: 15_000_000,
        description: 'data: URI or http(s) URL of a PNG, JPEG, WebP, GIF or AVIF picture',
        examples: ['https://example.com/images/product.jpg'],
      }),
    ),
    fit: Type.Optional(
      Type.Union([Type.Literal('cover'), Type.Literal('contain'), Type.Literal('fill')], {
        description: 'default cover',
        examples: ['contain'],
      }),
    ),
    radius: Type.Optional(CornerRadius),
  },
  { additionalProperties: false },
)

export const RectangleLayerSchema = Type.Object(
  {
    type: Type.Literal('rectangle', { description: 'a rectangle layer' }),
    ...common,
    ...box,
    fill: Type.Optional(Color('fill colour (default #000000)', '#f97316')),
    ...outline,
    radius: Type.Optional(CornerRadius),
  },
  { additionalProperties: false },
)

export const EllipseLayerSchema = Type.Object(
  {
    type: Type.Literal('ellipse', { description: 'a ellipse layer' }),
    ...common,
    ...box,
    fill: Type.Optional(Color('fill colour (default #000000)', '#fde047')),
    ...outline,
  },
  { additionalProperties: false },
)

export const LineLayerSchema = Type.Object(
  {
    type: Type.Literal('line', { description: 'a line layer' }),
    ...common,
    x2: Coordinate('end point x', 1120),
    y2: Coordinate('end point y', 120),
    stroke: Type.Optional(Color('line colour (default #000000)', '#94a3b8')),
    stroke_width: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: 1000, description: 'default 2', examples: [3] }),
    ),
    line_cap: Type.Optional(
      Type.Union([Type.Literal('butt'), Type.Literal('round'), Type.Literal('square')], {
        description: 'shape of the line ends (default butt)',
        examples: ['round'],
      }),
    ),
  },
  { additionalProperties: false },
)

export const QrLayerSchema = Type.Object(
  {
    type: Type.Literal('qr', { description: 'a qr layer' }),
    ...common,
    ...box,
    value: Type.Optional(
      Type.String({
        maxLength: 4000,
        description: 'what the code encodes',
        examples: ['https://example.com/tickets/A-1042'],
      }),
    ),
    color: Type.Optional(Color('module colour (default #000000)', '#111827')),
    background: Type.Optional(Color('background (default #ffffff)', '#ffffff')),
    error_level: Type.Optional(
      Type.Union([Type.Literal('L'), Type.Literal('M'), Type.Literal('Q'), Type.Literal('H')], {
        description: 'error correction (default M)',
        examples: ['Q'],
      }),
    ),
    margin: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 16,
        description: 'quiet zone in modules (default 2)',
        examples: [4],
      }),
    ),
  },
  { additionalProperties: false },
)

export const BARCODE_SYMBOLOGIES = [
  'code128',
  'code39',
  'ean13',
  'ean8',
  'upca',
  'upce',
  'itf14',
  'interleaved2of5',
  'datamatrix',
  'pdf417',
  'azteccode',
] as const

export const BarcodeLayerSchema = Type.Object(
  {
    type: Type.Literal('barcode', { description: 'a barcode layer' }),
    ...common,
    ...box,
    value: Type.Optional(
      Type.String({ maxLength: 2000, description: 'what the code encodes', examples: ['4006381333931'] }),
    ),
    symbology: Type.Union(
      BARCODE_SYMBOLOGIES.map((s) => Type.Literal(s)),
      { description: 'barcode type (bwip-js name)', examples: ['ean13'] },
    ),
    color: Type.Optional(Color('bar colour (default #000000)', '#000000')),
    background: Type.Optional(Color('background (default transparent)', '#ffffff')),
    show_text: Type.Optional(
      Type.Boolean({
        description: 'human-readable text under linear codes (default true)',
        examples: [false],
      }),
    ),
  },
  { additionalProperties: false },
)

/** Each layer type's schema; one place that lists the types. */
export const LAYER_SCHEMAS = {
  text: TextLayerSchema,
  image: ImageLayerSchema,
  rectangle: RectangleLayerSchema,
  ellipse: EllipseLayerSchema,
  line: LineLayerSchema,
  qr: QrLayerSchema,
  barcode: BarcodeLayerSchema,
} satisfies Record<string, TSchema>

export type LayerType = keyof typeof LAYER_SCHEMAS
export const LAYER_TYPES = Object.keys(LAYER_SCHEMAS) as LayerType[]

export const LayerSchema = Type.Union([
  TextLayerSchema,
  ImageLayerSchema,
  RectangleLayerSchema,
  EllipseLayerSchema,
  LineLayerSchema,
  QrLayerSchema,
  BarcodeLayerSchema,
])

export const SceneSchema = Type.Object(
  {
    width: Type.Integer({
      minimum: 1,
      maximum: MAX_CANVAS_SIDE,
      description: 'canvas width in pixels',
      examples: [1200],
    }),
    height: Type.Integer({
      minimum: 1,
      maximum: MAX_CANVAS_SIDE,
      description: 'canvas height in pixels',
      examples: [630],
    }),
    background: Type.Optional(Color('canvas colour (default #ffffff)', '#f8fafc')),
    layers: Type.Array(LayerSchema, {
      maxItems: MAX_LAYERS,
      description: 'drawn in order: the first is at the bottom',
    }),
  },
  {
    additionalProperties: false,
    description: 'An image canvas scene (docs/decisions/0014-image-canvas-scene.md)',
  },
)

export type TextLayer = Static<typeof TextLayerSchema>
export type ImageLayer = Static<typeof ImageLayerSchema>
export type RectangleLayer = Static<typeof RectangleLayerSchema>
export type EllipseLayer = Static<typeof EllipseLayerSchema>
export type LineLayer = Static<typeof LineLayerSchema>
export type QrLayer = Static<typeof QrLayerSchema>
export type BarcodeLayer = Static<typeof BarcodeLayerSchema>
export type Layer = Static<typeof LayerSchema>
export type Scene = Static<typeof SceneSchema>
