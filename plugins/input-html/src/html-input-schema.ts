import { WaitOptionsSchema } from '@docsvc/core/sdk'
import { type Static, type TSchema, Type } from 'typebox'

// null is accepted wherever a field is optional and means "absent" (the convenience endpoints
// pass `head`, `templating` through as given, and SPEC lets clients send null)
const nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]))

/** `input` of type `html` (without `type`, which core handles). */
export const HtmlInputSchema = Type.Object(
  {
    html: Type.String({
      minLength: 1,
      description: 'the document or a fragment of one',
      examples: ['<h1>Invoice {{ number }}</h1>'],
    }),
    head: nullable(
      Type.String({
        description: 'markup added to <head> (styles, fonts, meta)',
        examples: ['<style>body { font-family: sans-serif }</style>'],
      }),
    ),
    templating: nullable(
      Type.Boolean({ description: 'render `html` and `head` as Liquid with `data`', examples: [true] }),
    ),
    base_url: nullable(
      Type.String({
        maxLength: 2048,
        pattern: '^[Hh][Tt][Tt][Pp][Ss]?://\\S+$',
        description: 'absolute http(s) URL that relative links resolve against',
        examples: ['https://example.com/assets/'],
      }),
    ),
    wait: nullable(WaitOptionsSchema),
  },
  { additionalProperties: false },
)

export type HtmlInputFields = Static<typeof HtmlInputSchema>
