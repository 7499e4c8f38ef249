import { WaitOptionsSchema } from '@docsvc/core/sdk'
import { type Static, type TSchema, Type } from 'typebox'
import { MARKDOWN_THEMES } from './themes/index.ts'

const nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]))

/** `input` of type `markdown` (without `type`); null means absent. */
export const MarkdownInputSchema = Type.Object(
  {
    markdown: Type.String({
      minLength: 1,
      description: 'The Markdown text: CommonMark with tables and strikethrough.',
      examples: ['# Report\n\nAll *good*.'],
    }),
    css: nullable(
      Type.String({ description: 'extra CSS, applied after the theme', examples: ['h1 { color: navy }'] }),
    ),
    theme: nullable(
      Type.Enum([...MARKDOWN_THEMES], {
        description: 'default `default`; `none` adds no CSS',
        examples: ['github'],
      }),
    ),
    allow_raw_html: nullable(
      Type.Boolean({
        description: 'keep raw HTML in the Markdown (default false: it is dropped)',
        examples: [true],
      }),
    ),
    templating: nullable(
      Type.Boolean({ description: 'render the Markdown as Liquid with `data` first', examples: [true] }),
    ),
    wait: nullable(WaitOptionsSchema),
  },
  { additionalProperties: false },
)

export type MarkdownInputFields = Static<typeof MarkdownInputSchema>
