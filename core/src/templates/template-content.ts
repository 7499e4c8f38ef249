import { Ajv, type ValidateFunction } from 'ajv'
import { type TObject, Type } from 'typebox'
import { issuesToProblems } from '../http/validation-errors.ts'
import type { FieldProblem } from '../kernel/problem-error.ts'
import { WaitOptionsSchema } from '../sdk/wait-options-schema.ts'
import type { TemplateContent, TemplateType } from './template.ts'

// The content fields of each template type (DESIGN.md §10). Options objects (`pdf`) are checked
// against the output plugin's schema when a render uses them, not here.

const Source = Type.String({ maxLength: 2_000_000 })
const Options = Type.Object({}, { additionalProperties: true })
const Partials = Type.Record(Type.String({ pattern: '^[A-Za-z0-9_./-]{1,100}$' }), Source, {
  maxProperties: 100,
})

export const CONTENT_SCHEMAS: Record<TemplateType, TObject> = {
  pdf_code: Type.Object(
    {
      html: Type.Optional(Source),
      css: Type.Optional(Source),
      header_html: Type.Optional(Source),
      footer_html: Type.Optional(Source),
      partials: Type.Optional(Partials),
      pdf: Type.Optional(Options),
      // when the printed page is ready: the same option as an inline document's input.wait
      wait: Type.Optional(WaitOptionsSchema),
    },
    { additionalProperties: false },
  ),
  pdf_markdown: Type.Object(
    {
      markdown: Type.Optional(Source),
      css: Type.Optional(Source),
      theme: Type.Optional(
        Type.Union(['default', 'github', 'academic', 'minimal', 'none'].map((t) => Type.Literal(t))),
      ),
      header_html: Type.Optional(Source),
      footer_html: Type.Optional(Source),
      partials: Type.Optional(Partials),
      pdf: Type.Optional(Options),
      // when the printed page is ready: the same option as an inline document's input.wait
      wait: Type.Optional(WaitOptionsSchema),
    },
    { additionalProperties: false },
  ),
  image_canvas: Type.Object(
    {
      width: Type.Optional(Type.Integer({ minimum: 1 })),
      height: Type.Optional(Type.Integer({ minimum: 1 })),
      background: Type.Optional(Type.String({ maxLength: 2048 })),
      layers: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 500 })),
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
