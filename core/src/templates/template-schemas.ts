import { Type } from 'typebox'
import { documentedBy } from '../http/plugin-schema-slots.ts'
import { Cursor, Limit } from '../http/schemas/list-query.ts'
import { problemResponse, stdResponses } from '../http/schemas/problem-schema.ts'
import { TEMPLATE_TYPES } from './template.ts'
import { CONTENT_SCHEMAS } from './template-content.ts'

// Request and response schemas of the templates API (SPEC 4.9; our field choices: decision 0011).

export const TemplateTypeSchema = Type.Union(
  TEMPLATE_TYPES.map((t) => Type.Literal(t)),
  {
    description:
      '`pdf_code`: HTML and CSS with Liquid; `pdf_markdown`: Markdown with Liquid; `image_canvas`: layers drawn into an image.',
    examples: ['pdf_code'],
  },
)
const JsonObject = Type.Record(Type.String(), Type.Unknown())
/** The content fields of the template's type (checked by type in template-content.ts). */
const Content = (description: string) =>
  documentedBy(
    { of: 'schema', schema: Type.Union(Object.values(CONTENT_SCHEMAS), { description }) },
    Type.Record(Type.String(), Type.Unknown(), { description }),
  )
const DataSchema = Type.Optional(
  Type.Union([JsonObject, Type.Null()], {
    description: 'A JSON Schema the render data must match (422 data_schema_mismatch otherwise); null: none.',
    examples: [{ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }],
  }),
)
const SampleData = Type.Optional(
  Type.Union([JsonObject, Type.Null()], {
    description: 'Example data for previews and for checking the template when it is published.',
    examples: [{ name: 'Ada' }],
  }),
)
/** A template id in a path. Unknown ids of any shape answer 404, so no pattern. */
const TemplateId = Type.String({
  maxLength: 100,
  description: 'The template (tpl_...).',
  examples: ['tpl_01hzy3k2m5x8q9r0s1t2u3v4w5'],
})

export const CreateTemplateBody = Type.Object(
  {
    type: TemplateTypeSchema,
    name: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'A name for people.',
      examples: ['Invoice'],
    }),
    description: Type.Optional(
      Type.Union([Type.String({ maxLength: 2000 }), Type.Null()], {
        description: 'What the template is for.',
        examples: ['Monthly invoice sent to customers'],
      }),
    ),
    content: Type.Optional(
      Content("The template's content fields, by its type; they may also be sent flat, beside `type`."),
    ),
    data_schema: DataSchema,
    sample_data: SampleData,
    // flat content fields of every type; the template's type decides which are allowed
    ...Object.assign({}, ...Object.values(CONTENT_SCHEMAS).map((s) => s.properties)),
  },
  { additionalProperties: false },
)

export const DraftBody = Type.Object(
  {
    revision: Type.Integer({
      minimum: 1,
      description: 'the draft revision this replacement is based on',
      examples: [4],
    }),
    content: Content("The whole new content of the draft, by the template's type."),
    data_schema: DataSchema,
    sample_data: SampleData,
  },
  { additionalProperties: false },
)

export const PublishBody = Type.Union([
  Type.Object(
    {
      notes: Type.Optional(
        Type.Union([Type.String({ maxLength: 2000 }), Type.Null()], {
          description: 'What changed, kept with the version.',
          examples: ['New logo in the header'],
        }),
      ),
      revision: Type.Optional(
        Type.Integer({ minimum: 1, description: 'publish only if the draft is still at it', examples: [4] }),
      ),
    },
    { additionalProperties: false },
  ),
  Type.Null(),
])

export const VersionRefSchema = Type.Union(
  [Type.Integer({ minimum: 1 }), Type.String({ pattern: '^tv_[0-9a-z]{20,40}$' })],
  { description: 'A version number or a version id (tv_...).', examples: [2] },
)

export const RollbackBody = Type.Object({ version: VersionRefSchema }, { additionalProperties: false })

export const ListTemplatesQuery = Type.Object(
  {
    cursor: Type.Optional(Cursor('tpl_01kaz3r6s8t0v2w4x6y8z0a2bc')),
    limit: Type.Optional(Limit),
    q: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Only templates whose name contains this text.',
        examples: ['invoice'],
      }),
    ),
    type: Type.Optional(TemplateTypeSchema),
  },
  { additionalProperties: false },
)

export const ListVersionsQuery = Type.Object(
  {
    cursor: Type.Optional({ ...Cursor('3'), pattern: '^\\d+$' }),
    limit: Type.Optional(Limit),
  },
  { additionalProperties: false },
)

export const SchemaQuery = Type.Object(
  {
    version: Type.Optional(
      Type.Union(
        [
          Type.Literal('live'),
          Type.Literal('draft'),
          Type.String({ pattern: '^(\\d+|tv_[0-9a-z]{20,40})$' }),
        ],
        {
          description: '`live` (default), `draft`, a version number or a version id (tv_...).',
          examples: ['draft', '3'],
        },
      ),
    ),
  },
  { additionalProperties: false },
)

// unknown ids of any shape answer 404, so path parameters carry no pattern
export const TemplateParams = Type.Object({ template_id: TemplateId })
export const VersionParams = Type.Object({
  template_id: TemplateId,
  number: Type.String({
    maxLength: 100,
    description: 'A version number or a version id (tv_...).',
    examples: ['3', 'tv_01kaz3q8r2s4t6v8w0x2y4z6ab'],
  }),
})
export const DatasetParams = Type.Object({
  template_id: TemplateId,
  dataset_id: Type.String({
    maxLength: 100,
    description: 'The dataset (ds_...).',
    examples: ['ds_01kaz3n2b7c9d4f6g8h1j3k5m7'],
  }),
})

export const DatasetBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'A name for people.',
      examples: ['Sample customer'],
    }),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description: "The data, as a render's `data`.",
      examples: [{ name: 'Ada' }],
    }),
    is_default: Type.Optional(
      Type.Boolean({
        description: "Make it the template's default dataset (default false).",
        examples: [true],
      }),
    ),
  },
  { additionalProperties: false },
)
export const DatasetPatch = Type.Partial(DatasetBody, { additionalProperties: false })

const Record_ = (description: string) => Type.Object({}, { additionalProperties: true, description })
export const TemplateRecord = Record_('template record')
export const DraftRecord = Record_('template draft with its revision')
export const VersionRecord = Record_('template version')
export const DatasetRecord = Record_('template dataset')
export const ListRecord = Record_('a page of objects')

const PROBLEMS: Record<number, string> = {
  403: 'Insufficient scope, or template not allowed for this key',
  404: 'Template, version or dataset not found',
  409: 'The draft changed since it was read (draft_revision_conflict)',
  410: 'Template deleted (in the trash)',
  422: 'Publishing validation failed; publish_run lists the failing steps',
  423: 'Template locked',
  503: 'Control plane unavailable; Retry-After says when to try again',
}

/** A templates route's responses: successes, STD, and the listed problem statuses. */
export function templateResponses(success: Record<number, unknown>, problems: number[]) {
  return {
    ...success,
    ...stdResponses(),
    ...Object.fromEntries(problems.map((s) => [s, problemResponse(PROBLEMS[s] ?? 'Problem')])),
  }
}
