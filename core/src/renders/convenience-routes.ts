import type { AwilixContainer } from 'awilix'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { type TProperties, type TSchema, Type } from 'typebox'
import type { EinvoiceSpecRequest } from '../einvoices/hybrid-einvoice.ts'
import { documentedBy } from '../http/plugin-schema-slots.ts'
import type { ProblemShape } from '../http/problem-shaping.ts'
import type { Cradle } from '../kernel/container.ts'
import type { OutputFormat } from '../sdk/render-contracts.ts'
import { WaitOptionsSchema } from '../sdk/wait-options-schema.ts'
import { optionsSchemaOf, renderFieldTree } from './render-field-tree.ts'
import { normaliseRender, type SharedBody } from './render-request.ts'
import { respondToRender } from './render-responder.ts'
import { RENDER_SET, RenderRecord, renderResponses } from './render-responses.ts'
import {
  ConvenienceFields,
  EinvoiceSpecSchema,
  imageOptionsSlot,
  PdfOptionsSlot,
  SharedRenderFields,
  TemplateInputSchema,
  TemplateOverrides,
} from './render-schemas.ts'

const PdfOptions = Type.Optional(Type.Union([PdfOptionsSlot, Type.Null()]))
const ImageOptions = Type.Optional(Type.Union([imageOptionsSlot(['png', 'jpeg', 'webp']), Type.Null()]))
/** A field passed on to the `type` input as it is: the input plugin's schema documents it. */
const inputField = (type: string, field: string, schema: TSchema) =>
  documentedBy({ of: 'input-field', type, field }, schema)
const ImageFormat = Type.Optional(
  Type.Union([Type.Literal('png'), Type.Literal('jpeg'), Type.Literal('webp')], {
    description: 'The image format (default png).',
    examples: ['webp'],
  }),
)
const Templating = (type: string) =>
  Type.Optional(inputField(type, 'templating', Type.Union([Type.Boolean(), Type.Null()])))
// the same schema as input.wait of the general endpoint (url, html and markdown inputs alike)
const WaitField = (type: string) =>
  Type.Optional(inputField(type, 'wait', Type.Union([WaitOptionsSchema, Type.Null()])))
const OpenObject = Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()])
const Url = {
  url: inputField('url', 'url', Type.String()),
  http: Type.Optional(inputField('url', 'http', OpenObject)),
  wait: WaitField('url'),
}
const Html = {
  html: inputField('html', 'html', Type.String()),
  head: Type.Optional(inputField('html', 'head', Type.String())),
  templating: Templating('html'),
  wait: WaitField('html'),
}
const TemplateRef = {
  template_id: TemplateInputSchema.properties.template_id,
  version: TemplateInputSchema.properties.version,
  overrides: Type.Optional(TemplateOverrides),
  dataset_id: TemplateInputSchema.properties.dataset_id,
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

/** The Markdown input's flat fields, the same for a PDF and an image. */
const Markdown = {
  markdown: inputField('markdown', 'markdown', Type.String()),
  css: Type.Optional(inputField('markdown', 'css', Type.String())),
  allow_raw_html: Type.Optional(
    inputField('markdown', 'allow_raw_html', Type.Union([Type.Boolean(), Type.Null()])),
  ),
  theme: Type.Optional(
    inputField(
      'markdown',
      'theme',
      Type.Union(['default', 'github', 'academic', 'minimal', 'none'].map((t) => Type.Literal(t))),
    ),
  ),
  templating: Templating('markdown'),
  wait: WaitField('markdown'),
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

/** SPEC 2.16 template input; the templates feature resolves it before the render is created. */
const templateInput = (b: Fields) => ({
  type: 'template',
  ...defined({ template_id: b.template_id, version: b.version, dataset_id: b.dataset_id }),
})

const CONVENIENCE: Convenience[] = [
  {
    path: '/pdf/from-html',
    summary: 'HTML to PDF',
    own: { ...Html, pdf: PdfOptions, einvoice: EinvoiceSpecSchema },
    input: htmlInput,
    format: () => 'pdf',
  },
  {
    path: '/pdf/from-markdown',
    summary: 'Markdown to PDF',
    own: { ...Markdown, pdf: PdfOptions, einvoice: EinvoiceSpecSchema },
    input: markdownInput,
    format: () => 'pdf',
  },
  {
    path: '/pdf/from-url',
    summary: 'A web page to PDF',
    own: { ...Url, pdf: PdfOptions, einvoice: EinvoiceSpecSchema },
    input: (b) => ({ type: 'url', ...defined({ url: b.url, http: b.http, wait: b.wait }) }),
    format: () => 'pdf',
  },
  {
    path: '/pdf/from-template',
    summary: 'A template to PDF',
    own: { ...TemplateRef, pdf: PdfOptions, einvoice: EinvoiceSpecSchema },
    input: templateInput,
    format: () => 'pdf',
  },
  {
    path: '/images/from-html',
    summary: 'HTML to PNG, JPEG or WebP',
    own: { ...Html, format: ImageFormat, image: ImageOptions },
    input: htmlInput,
    format: (b) => (b.format as OutputFormat | undefined) ?? 'png',
  },
  {
    path: '/images/from-markdown',
    summary: 'Markdown to PNG, JPEG or WebP',
    own: { ...Markdown, format: ImageFormat, image: ImageOptions },
    input: markdownInput,
    format: (b) => (b.format as OutputFormat | undefined) ?? 'png',
  },
  {
    path: '/images/from-url',
    summary: 'A web page to PNG, JPEG or WebP',
    own: { ...Url, format: ImageFormat, image: ImageOptions },
    input: (b) => ({ type: 'url', ...defined({ url: b.url, http: b.http, wait: b.wait }) }),
    format: (b) => (b.format as OutputFormat | undefined) ?? 'png',
  },
  {
    path: '/images/from-template',
    summary: 'A template to PNG, JPEG or WebP',
    own: { ...TemplateRef, format: ImageFormat, image: ImageOptions },
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
  const { registries } = deps.plugins
  for (const c of CONVENIENCE) {
    const body = Type.Object(
      { ...SharedRenderFields, ...ConvenienceFields, ...c.own },
      { additionalProperties: false },
    )
    // PDF endpoints take `pdf` options; image endpoints `image` options, whatever their format
    const baseFormat = c.format({})
    const optionsKey = baseFormat === 'pdf' ? 'pdf' : 'image'
    const inputType = c.input({}).type
    // the body is rewritten into the general render; its problems point at the flat fields sent
    const problemShape: ProblemShape = {
      pointers: [
        ['/input', ''],
        ['/output/format', '/format'],
        [`/output/${optionsKey}`, `/${optionsKey}`],
        ['/output/einvoice', '/einvoice'],
      ],
      fields: () =>
        renderFieldTree(body, {
          '': registries.inputs.get(inputType)?.schema,
          [optionsKey]: optionsSchemaOf(registries, baseFormat),
        }),
    }
    app.post(
      c.path,
      {
        config: { scope: 'render:write', problemShape },
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
        const options = (fields[optionsKey] ?? undefined) as Fields | undefined
        const normalised = normaliseRender(
          request.auth!,
          fields as SharedBody,
          input,
          {
            format,
            ...(options ? { [optionsKey]: options } : {}),
            ...(fields.einvoice != null ? { einvoice: fields.einvoice as EinvoiceSpecRequest } : {}),
          },
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
