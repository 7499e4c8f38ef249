import { Type } from 'typebox'
import { problemResponse, stdResponses } from '../http/schemas/problem-schema.ts'
import { TEMPLATE_TYPES } from './template.ts'
import { CONTENT_SCHEMAS } from './template-content.ts'

// Request and response schemas of the templates API (SPEC 4.9; our field choices: decision 0011).

export const TemplateTypeSchema = Type.Union(TEMPLATE_TYPES.map((t) => Type.Literal(t)))
const JsonObject = Type.Record(Type.String(), Type.Unknown())
const NullableObject = Type.Optional(Type.Union([JsonObject, Type.Null()]))

export const CreateTemplateBody = Type.Object(
  {
    type: TemplateTypeSchema,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    content: Type.Optional(JsonObject),
    data_schema: NullableObject,
    sample_data: NullableObject,
    // flat content fields of every type; the template's type decides which are allowed
    ...Object.assign({}, ...Object.values(CONTENT_SCHEMAS).map((s) => s.properties)),
  },
  { additionalProperties: false },
)

export const DraftBody = Type.Object(
  {
    revision: Type.Integer({ minimum: 1, description: 'the draft revision this replacement is based on' }),
    content: JsonObject,
    data_schema: NullableObject,
    sample_data: NullableObject,
  },
  { additionalProperties: false },
)

export const PublishBody = Type.Union([
  Type.Object(
    {
      notes: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
      revision: Type.Optional(
        Type.Integer({ minimum: 1, description: 'publish only if the draft is still at it' }),
      ),
    },
    { additionalProperties: false },
  ),
  Type.Null(),
])

export const VersionRefSchema = Type.Union([
  Type.Integer({ minimum: 1 }),
  Type.String({ pattern: '^tv_[0-9a-z]{20,40}$' }),
])

export const RollbackBody = Type.Object({ version: VersionRefSchema }, { additionalProperties: false })

export const ListTemplatesQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ maxLength: 100 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    q: Type.Optional(Type.String({ maxLength: 200 })),
    type: Type.Optional(TemplateTypeSchema),
  },
  { additionalProperties: false },
)

export const ListVersionsQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ pattern: '^\\d+$' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  },
  { additionalProperties: false },
)

export const SchemaQuery = Type.Object(
  {
    version: Type.Optional(
      Type.Union([
        Type.Literal('live'),
        Type.Literal('draft'),
        Type.String({ pattern: '^(\\d+|tv_[0-9a-z]{20,40})$' }),
      ]),
    ),
  },
  { additionalProperties: false },
)

// unknown ids of any shape answer 404, so path parameters carry no pattern
export const TemplateParams = Type.Object({ template_id: Type.String({ maxLength: 100 }) })
export const VersionParams = Type.Object({
  template_id: Type.String({ maxLength: 100 }),
  number: Type.String({ maxLength: 100, description: 'version number or tv_ id' }),
})
export const DatasetParams = Type.Object({
  template_id: Type.String({ maxLength: 100 }),
  dataset_id: Type.String({ maxLength: 100 }),
})

export const DatasetBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    data: JsonObject,
    is_default: Type.Optional(Type.Boolean()),
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
