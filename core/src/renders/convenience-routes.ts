import type { AwilixContainer } from 'awilix'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { type TProperties, Type } from 'typebox'
import type { Cradle } from '../kernel/container.ts'
import type { OutputFormat } from '../sdk/render-contracts.ts'
import { WaitOptionsSchema } from '../sdk/wait-options-schema.ts'
import { normaliseRender, type SharedBody } from './render-request.ts'
import { respondToRender } from './render-responder.ts'
import { RENDER_SET, RenderRecord, renderResponses } from './render-responses.ts'
import { ConvenienceFields, EinvoiceNotYet, SharedRenderFields } from './render-schemas.ts'

const Options = Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]))
const ImageFormat = Type.Optional(
  Type.Union([Type.Literal('png'), Type.Literal('jpeg'), Type.Literal('webp')]),
)
const Templating = Type.Optional(
  Type.Union([Type.Boolean(), Type.Null()], {
    description:
      "Run the document, filename, pdf.header_html and pdf.footer_html through Liquid with the render's data first.",
    examples: [true],
  }),
)
const Http = Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]))
// the same schema as input.wait of the general endpoint (url, html and markdown inputs alike)
const Wait = Type.Optional(Type.Union([WaitOptionsSchema, Type.Null()]))
const TemplateRef = {
  template_id: Type.String({ minLength: 1, maxLength: 100 }),
  version: Type.Optional(
    Type.Union([Type.Literal('live'), Type.Literal('draft'), Type.Integer({ minimum: 1 })]),
  ),
  overrides: Type.Optional(Type.Union([Type.Array(Type.Record(Type.String(), Type.Unknown())), Type.Null()])),
  dataset_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
}

type Fields = Record<string, unknown>

interface Convenience {
  path: string
  summary: string
  own: TProperties
  /** the input object the general endpoint would get */
  input(body: Fields): { type: string } & Fields
  format(body: Fields): OutputFormat
}

function defined(entries: Fields): Fields {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined && v !== null))
}

/** SPEC 2.16 template input; the templates feature resolves it before the render is created. */
const templateInput = (b: Fields) => ({
  type: 'template',
  ...defined({ template_id: b.template_id, version: b.version, dataset_id: b.dataset_id }),
})

/** The Markdown input's flat fields, the same for a PDF and an image. */
const MarkdownFields: TProperties = {
  markdown: Type.String({
    description: 'The document, in CommonMark with tables and strikethrough.',
    examples: ['# Quarterly report\n\nRevenue grew **12 %**.'],
  }),
  css: Type.Optional(
    Type.String({ description: "CSS added after the theme's.", examples: ['h1 { color: #0a4d8c }'] }),
  ),
  allow_raw_html: Type.Optional(
    Type.Union([Type.Boolean(), Type.Null()], {
      description: 'Keep HTML written in the Markdown; by default it is dropped.',
      examples: [false],
    }),
  ),
  theme: Type.Optional(
    Type.Union(
      ['default', 'github', 'academic', 'minimal', 'none'].map((t) => Type.Literal(t)),
      { description: 'The look of the page; none prints the bare HTML with your css.', examples: ['github'] },
    ),
  ),
  templating: Templating,
  wait: Wait,
}

const htmlInput = (b: Fields) => ({
  type: 'html',
  ...defined({ html: b.html, head: b.head, templating: b.templating, wait: b.wait }),
})

const markdownInput = (b: Fields) => ({
  type: 'markdown',
  ...defined({
    markdown: b.markdown,
    css: b.css,
    allow_raw_html: b.allow_raw_html,
    theme: b.theme,
    templating: b.templating,
    wait: b.wait,
  }),
})

const CONVENIENCE: Convenience[] = [
  {
    path: '/pdf/from-html',
    summary: 'HTML to PDF',
    own: {
      html: Type.String(),
      head: Type.Optional(Type.String()),
      wait: Wait,
      pdf: Options,
      einvoice: EinvoiceNotYet,
      templating: Templating,
    },
    input: htmlInput,
    format: () => 'pdf',
  },
  {
    path: '/pdf/from-markdown',
    summary: 'Markdown to PDF',
    own: { ...MarkdownFields, pdf: Options, einvoice: EinvoiceNotYet },
    input: markdownInput,
    format: () => 'pdf',
  },
  {
    path: '/pdf/from-url',
    summary: 'A web page to PDF',
    own: {
      url: Type.String(),
      http: Http,
      wait: Wait,
      pdf: Options,
      einvoice: EinvoiceNotYet,
    },
    input: (b) => ({ type: 'url', ...defined({ url: b.url, http: b.http, wait: b.wait }) }),
    format: () => 'pdf',
  },
  {
    path: '/pdf/from-template',
    summary: 'A template to PDF',
    own: { ...TemplateRef, pdf: Options, einvoice: EinvoiceNotYet },
    input: templateInput,
    format: () => 'pdf',
  },
  {
    path: '/images/from-html',
    summary: 'HTML to PNG, JPEG or WebP',
    own: {
      html: Type.String(),
      head: Type.Optional(Type.String()),
      wait: Wait,
      format: ImageFormat,
      image: Options,
      templating: Templating,
    },
    input: htmlInput,
    format: (b) => (b.format as OutputFormat | undefined) ?? 'png',
  },
  {
    path: '/images/from-markdown',
    summary: 'Markdown to PNG, JPEG or WebP',
    own: { ...MarkdownFields, format: ImageFormat, image: Options },
    input: markdownInput,
    format: (b) => (b.format as OutputFormat | undefined) ?? 'png',
  },
  {
    path: '/images/from-url',
    summary: 'A web page to PNG, JPEG or WebP',
    own: { url: Type.String(), http: Http, wait: Wait, format: ImageFormat, image: Options },
    input: (b) => ({ type: 'url', ...defined({ url: b.url, http: b.http, wait: b.wait }) }),
    format: (b) => (b.format as OutputFormat | undefined) ?? 'png',
  },
  {
    path: '/images/from-template',
    summary: 'A template to PNG, JPEG or WebP',
    own: { ...TemplateRef, format: ImageFormat, image: Options },
    input: templateInput,
    format: (b) => (b.format as OutputFormat | undefined) ?? 'png',
  },
]

/** The convenience endpoints: SPEC 4.2's seven plus Markdown to an image, flat fields over the general render. */
export async function convenienceRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  const deps = container.cradle
  for (const c of CONVENIENCE) {
    const body = Type.Object(
      { ...SharedRenderFields, ...ConvenienceFields, ...c.own },
      { additionalProperties: false },
    )
    app.post(
      c.path,
      {
        config: { scope: 'render:write' },
        schema: {
          tags: ['renders'],
          summary: c.summary,
          body,
          response: renderResponses({ 200: RenderRecord, 202: RenderRecord }, RENDER_SET),
        },
      },
      async (request: FastifyRequest, reply: FastifyReply) => {
        const fields = request.body as Fields
        const input = c.input(fields)
        const format = c.format(fields)
        const optionsKey = format === 'pdf' ? 'pdf' : 'image'
        const options = (fields[optionsKey] ?? undefined) as Fields | undefined
        const normalised = normaliseRender(
          request.auth!,
          fields as SharedBody,
          input,
          { format, ...(options ? { [optionsKey]: options } : {}) },
          `/${optionsKey}`,
        )
        // a template is resolved (template, version, data schema) before the render exists
        const prepared =
          input.type === 'template'
            ? await deps.templateRenders.prepare(request.auth!, normalised, {
                template_id: String(fields.template_id),
                version: fields.version as 'live' | 'draft' | number | undefined,
                dataset_id: fields.dataset_id as string | undefined,
                overrides: fields.overrides as Fields[] | null | undefined,
              })
            : normalised
        const render = await deps.renderService.create(request.auth!, request.plan!, prepared)
        return respondToRender(deps, request, reply, render, request.plan!.limits.sync_timeout_seconds)
      },
    )
  }
}
