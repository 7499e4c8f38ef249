import { WaitOptionsSchema } from '@docsvc/core/sdk'
import { type Static, type TSchema, Type } from 'typebox'
import { HttpOptionsSchema } from './http-options-schema.ts'

const nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]))

/**
 * `input` of type `url` (without `type`). The schema only asks for an absolute URL: the scheme,
 * port and address are the guard's to judge, so `file:` or `ftp:` answer url_not_allowed
 * (SPEC 7.3: "unsupported scheme") rather than validation_error.
 */
export const UrlInputSchema = Type.Object(
  {
    url: Type.String({
      maxLength: 8192,
      pattern: '^[A-Za-z][A-Za-z0-9+.-]*:\\S+$',
      description: "The page to render: an absolute http(s) URL the installation's network policy allows.",
      examples: ['https://example.com/report'],
    }),
    wait: nullable(WaitOptionsSchema),
    http: nullable(HttpOptionsSchema),
  },
  { additionalProperties: false },
)

export type UrlInputFields = Static<typeof UrlInputSchema>
