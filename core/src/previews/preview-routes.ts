import type { AwilixContainer } from 'awilix'
import type { FastifyInstance } from 'fastify'
import { type Static, Type } from 'typebox'
import { problemResponse } from '../http/schemas/problem-schema.ts'
import type { Cradle } from '../kernel/container.ts'
import { validationProblem } from '../kernel/problem-error.ts'
import { respondToRender } from '../renders/render-responder.ts'
import { RenderRecord, renderResponses } from '../renders/render-responses.ts'
import { imageOptionsSlot, PdfOptionsSlot, TemplateVersionSchema } from '../renders/render-schemas.ts'
import type { TemplateType } from '../templates/template.ts'
import { documentBuilder, templateEngine } from '../templates/template-capabilities.ts'
import { renderTemplateHtml } from '../templates/template-document.ts'
import { TemplateTypeSchema } from '../templates/template-schemas.ts'
import type { RenderPreviewRequest } from './preview-renders.ts'
import type { PreviewRequest } from './preview-source.ts'

const Nullable = <T extends Parameters<typeof Type.Optional>[0]>(schema: T) =>
  Type.Optional(Type.Union([schema, Type.Null()]))

const Content = Nullable(
  Type.Record(Type.String(), Type.Unknown(), {
    description:
      "Template content to preview (the content fields of `template_type`); with `template_id`, its fields replace the template's.",
    examples: [{ html: '<h1>Invoice {{ number }}</h1>', css: 'h1 { color: navy }' }],
  }),
)
const Data = Nullable(
  Type.Record(Type.String(), Type.Unknown(), {
    description: "The data to render with (default: the template's default dataset or sample data).",
    examples: [{ number: '2026-0042', customer: { name: 'Ada Lovelace' } }],
  }),
)
const TemplateId = Type.Optional(
  Type.String({
    maxLength: 100,
    description: 'A stored template to preview (tpl_...); or send `template_type` and `content`.',
    examples: ['tpl_01hzy3k2m5x8q9r0s1t2u3v4w5'],
  }),
)

const HtmlPreviewBody = Type.Object(
  {
    content: Content,
    data: Data,
    head: Type.Optional(
      Type.String({
        maxLength: 200_000,
        description: "Markup added to the page's <head>.",
        examples: ['<link rel="stylesheet" href="https://example.com/brand.css">'],
      }),
    ),
    html: Type.Optional(
      Type.String({
        maxLength: 2_000_000,
        description: 'Liquid HTML, instead of `content.html`.',
        examples: ['<h1>Invoice {{ number }}</h1>'],
      }),
    ),
    markdown: Type.Optional(
      Type.String({
        maxLength: 2_000_000,
        description: 'Liquid Markdown, instead of `content.markdown`.',
        examples: ['# Hello {{ customer.name }}'],
      }),
    ),
    partials: Type.Optional(
      Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 2_000_000 }), {
        description: 'Named Liquid partials for `include` and `render`, by name.',
        examples: [{ address: '<address>{{ customer.address }}</address>' }],
      }),
    ),
    strict_undefined: Type.Optional(
      Type.Boolean({
        description: 'Fail on a variable the data does not have, instead of printing nothing.',
        examples: [true],
      }),
    ),
    template_id: TemplateId,
    template_type: Type.Optional(
      Type.Union([Type.Literal('pdf_code'), Type.Literal('pdf_markdown')], {
        description: 'The kind of content sent, without `template_id`.',
        examples: ['pdf_markdown'],
      }),
    ),
  },
  { additionalProperties: false },
)

const RenderPreviewBody = Type.Object(
  {
    content: Content,
    data: Data,
    engine: Nullable(
      Type.String({
        description: "The rendering engine to use (default: the installation's).",
        examples: ['chromium'],
      }),
    ),
    output: Nullable(
      Type.Object(
        {
          format: Type.Optional(
            Type.Union(
              ['pdf', 'png', 'jpeg', 'webp'].map((f) => Type.Literal(f)),
              {
                description:
                  'The format: pdf for a PDF preview, png (default), jpeg or webp for an image one.',
                examples: ['pdf'],
              },
            ),
          ),
          pdf: Nullable(PdfOptionsSlot),
          image: Nullable(imageOptionsSlot(['png', 'jpeg', 'webp'])),
        },
        { additionalProperties: false, description: 'The output format and its options.' },
      ),
    ),
    template_id: TemplateId,
    template_type: Type.Optional({
      ...TemplateTypeSchema,
      description: 'The kind of content sent, without `template_id`.',
    }),
    version: Type.Optional({
      ...TemplateVersionSchema,
      description: 'Which version of `template_id` (default `draft`).',
      examples: ['draft', 3],
    }),
  },
  { additionalProperties: false },
)

const HtmlPreview = Type.Object(
  {
    object: Type.Literal('html_preview'),
    template_id: Type.Union([Type.String(), Type.Null()]),
    html: Type.String(),
  },
  { additionalProperties: false },
)

const PREVIEW_ERRORS = {
  422: problemResponse('Template syntax or runtime error, fuel exhausted, or the render failed'),
  503: problemResponse('Preview engine unavailable; Retry-After says when to try again'),
}

/** SPEC 4.10 previews: free, never billed; image and PDF previews are watermarked test renders. */
export async function previewRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  const deps = container.cradle
  const tags = ['previews']
  // DESIGN.md §10: previews need templates:read
  const config = { scope: 'templates:read' as const }

  app.post<{ Body: Static<typeof HtmlPreviewBody> }>(
    '/previews/html',
    {
      config,
      schema: {
        tags,
        summary: 'The HTML a pdf_code or pdf_markdown template makes with data (no browser)',
        body: HtmlPreviewBody,
        response: {
          ...renderResponses(
            { 200: { ...HtmlPreview, description: 'The template rendered to HTML with the data.' } },
            [404, 410],
          ),
          ...PREVIEW_ERRORS,
        },
      },
    },
    async (request) => {
      const b = request.body
      const inline = {
        ...b.content,
        ...(b.html !== undefined ? { html: b.html } : {}),
        ...(b.markdown !== undefined ? { markdown: b.markdown } : {}),
      }
      const implied: TemplateType | undefined =
        b.template_type ??
        (b.html !== undefined ? 'pdf_code' : b.markdown !== undefined ? 'pdf_markdown' : undefined)
      const source = await deps.previewSources.resolve(request.auth!, {
        template_id: b.template_id,
        template_type: implied,
        content: Object.keys(inline).length > 0 ? inline : undefined,
        data: b.data,
      })
      if (source.type === 'image_canvas') {
        throw validationProblem([
          {
            path: '/template_id',
            code: 'type',
            message: 'an image_canvas template has no HTML; use /v1/previews/image',
          },
        ])
      }
      const run = {
        strictVariables: b.strict_undefined === true,
        ...(b.partials ? { partials: b.partials } : {}),
      }
      const { registries } = deps.plugins
      const page = await renderTemplateHtml(registries, source.type, source.content, source.data, run)
      const html = b.head
        ? documentBuilder(registries, 'html').build({
            content: page.html,
            head: (
              await templateEngine(registries).render(b.head, source.data, {
                label: 'head',
                strictVariables: run.strictVariables,
              })
            ).output,
          })
        : page.html
      return { object: 'html_preview' as const, template_id: source.templateId, html }
    },
  )

  for (const kind of ['image', 'pdf'] as const) {
    app.post<{ Body: Static<typeof RenderPreviewBody> }>(
      `/previews/${kind}`,
      {
        config,
        schema: {
          tags,
          summary:
            kind === 'pdf'
              ? 'A watermarked, unbilled PDF of a template or inline content'
              : 'A watermarked, unbilled PNG, JPEG or WebP of a template or inline content',
          body: RenderPreviewBody,
          response: {
            ...renderResponses({ 200: RenderRecord, 202: RenderRecord }, [402, 404, 410]),
            ...PREVIEW_ERRORS,
          },
        },
      },
      async (request, reply) => {
        const b = request.body
        const render = await deps.previewRenders.create(request.auth!, request.plan!, kind, {
          ...(b as PreviewRequest),
          output: (b.output ?? null) as RenderPreviewRequest['output'],
        })
        // the preview is a test render: the answer reads it back as the test side of the key
        const asTest = Object.create(request, { auth: { value: { ...request.auth!, test: true } } })
        return respondToRender(deps, asTest, reply, render, request.plan!.limits.sync_timeout_seconds)
      },
    )
  }
}
