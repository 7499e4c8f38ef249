import { Ajv, type ValidateFunction } from 'ajv'
import { type TObject, Type } from 'typebox'
import { documentedBy } from '../http/plugin-schema-slots.ts'
import { issuesToProblems } from '../http/validation-errors.ts'
import type { FieldProblem } from '../kernel/problem-error.ts'
import { PdfOptionsSlot } from '../renders/render-schemas.ts'
import { WaitOptionsSchema } from '../sdk/wait-options-schema.ts'
import type { TemplateContent, TemplateType } from './template.ts'

// The content fields of each template type (DESIGN.md §10). Options objects (`pdf`) are checked
// against the output plugin's schema when a render uses them, not here.

const Source = (description: string, example: string) =>
  Type.String({ maxLength: 2_000_000, description, examples: [example] })
const Partials = Type.Record(
  Type.String({ pattern: '^[A-Za-z0-9_./-]{1,100}$' }),
  Source("A partial's Liquid source.", '<address>{{ customer.address }}</address>'),
  {
    maxProperties: 100,
    description: 'Named Liquid partials for `include` and `render`, at most 100.',
    examples: [{ address: '<address>{{ customer.address }}</address>' }],
  },
)
const HeaderHtml = Source(
  'HTML printed at the top of every page, with Liquid; as `pdf.header_html`.',
  '<div style="font-size:10px; width:100%; text-align:right">Invoice {{ number }}</div>',
)
const FooterHtml = Source(
  'HTML printed at the bottom of every page, with Liquid; as `pdf.footer_html`.',
  '<div style="font-size:10px; width:100%; text-align:center"><span class="pageNumber"></span> / <span class="totalPages"></span></div>',
)
const Css = Source('CSS for the document.', 'body { font-family: sans-serif } h1 { color: navy }')

export const CONTENT_SCHEMAS: Record<TemplateType, TObject> = {
  pdf_code: Type.Object(
    {
      html: Type.Optional(
        Source(
          "The document as Liquid HTML, rendered with the render's data.",
          '<h1>Invoice {{ number }}</h1>{% for line in lines %}<p>{{ line.text }}</p>{% endfor %}',
        ),
      ),
      css: Type.Optional(Css),
      header_html: Type.Optional(HeaderHtml),
      footer_html: Type.Optional(FooterHtml),
      partials: Type.Optional(Partials),
      pdf: Type.Optional(PdfOptionsSlot),
      // when the printed page is ready: the same option as an inline document's input.wait
      wait: Type.Optional(WaitOptionsSchema),
    },
    { additionalProperties: false },
  ),
  pdf_markdown: Type.Object(
    {
      markdown: Type.Optional(
        Source(
          "The document as Liquid Markdown, rendered with the render's data.",
          '# Report for {{ customer.name }}\n\n{% for item in items %}- {{ item }}\n{% endfor %}',
        ),
      ),
      css: Type.Optional(Css),
      theme: Type.Optional(
        Type.Union(
          ['default', 'github', 'academic', 'minimal', 'none'].map((t) => Type.Literal(t)),
          {
            description: 'Built-in styles for the Markdown (default `default`; `none` adds no CSS).',
            examples: ['academic'],
          },
        ),
      ),
      header_html: Type.Optional(HeaderHtml),
      footer_html: Type.Optional(FooterHtml),
      partials: Type.Optional(Partials),
      pdf: Type.Optional(PdfOptionsSlot),
      // when the printed page is ready: the same option as an inline document's input.wait
      wait: Type.Optional(WaitOptionsSchema),
    },
    { additionalProperties: false },
  ),
  image_canvas: Type.Object(
    {
      width: Type.Optional(
        Type.Integer({ minimum: 1, description: 'Image width in pixels.', examples: [1200] }),
      ),
      height: Type.Optional(
        Type.Integer({ minimum: 1, description: 'Image height in pixels.', examples: [630] }),
      ),
      background: Type.Optional(
        Type.String({
          maxLength: 2048,
          description: 'Background: a CSS colour or an image URL.',
          examples: ['#ffffff'],
        }),
      ),
      // the scene renderer checks the layers and documents them (plugin-schema-slots.ts)
      layers: Type.Optional(
        documentedBy(
          { of: 'scene-field', renderer: 'image_canvas', field: 'layers' },
          Type.Array(Type.Object({}, { additionalProperties: true }), {
            maxItems: 500,
            description: 'What is drawn, bottom first.',
          }),
        ),
      ),
    },
    { additionalProperties: false },
  ),
}

/** Every content field of any type: a create request may send them flat instead of `content`. */
export const FLAT_CONTENT_FIELDS = [
  ...new Set(Object.values(CONTENT_SCHEMAS).flatMap((s) => Object.keys(s.properties))),
]

const ajv = new Ajv({ allErrors: true, strict: false })
const validators = new Map<TemplateType, ValidateFunction>()

/** Problems of `content` for `type`, with pointers under `at` (`/content` or `` for flat fields). */
export function contentProblems(type: TemplateType, content: unknown, at: string): FieldProblem[] {
  let validate = validators.get(type)
  if (!validate) {
    validate = ajv.compile(CONTENT_SCHEMAS[type])
    validators.set(type, validate)
  }
  if (validate(content)) return []
  return issuesToProblems(validate.errors ?? []).map((p) => ({ ...p, path: `${at}${p.path}` }))
}

/** The named partials `include` and `render` may use. */
export function partialsOf(content: TemplateContent): Record<string, string> {
  const partials = content.partials
  return partials && typeof partials === 'object' ? (partials as Record<string, string>) : {}
}
