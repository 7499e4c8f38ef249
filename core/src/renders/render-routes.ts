import type { AwilixContainer } from 'awilix'
import type { FastifyInstance } from 'fastify'
import { type Static, Type } from 'typebox'
import type { EinvoiceSpecRequest } from '../einvoices/hybrid-einvoice.ts'
import { Cursor, Limit } from '../http/schemas/list-query.ts'
import { oneOfMessage } from '../http/validation-errors.ts'
import type { Cradle } from '../kernel/container.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import type { OutputFormat } from '../sdk/render-contracts.ts'
import { templateRefOf } from '../templates/template-input-ref.ts'
import type { RenderStatus } from './render.ts'
import { inputSchemasOf, optionsSchemaOf, renderFieldTree } from './render-field-tree.ts'
import { normaliseRender, optionsKeyOf } from './render-request.ts'
import { presentRender, respondToRender } from './render-responder.ts'
import { RENDER_SET, RenderRecord, renderResponses } from './render-responses.ts'
import { CreateRenderBody, RenderFileParams, RenderIdParams } from './render-schemas.ts'

const STATUSES: RenderStatus[] = ['queued', 'processing', 'succeeded', 'failed', 'canceled', 'expired']

const ListQuery = Type.Object(
  {
    cursor: Type.Optional(Cursor('rnd_01kaz3m8q4r7t9v2w5x6y8z0ab')),
    limit: Type.Optional(Limit),
    batch_id: Type.Optional(
      Type.String({
        maxLength: 100,
        description: 'Only renders of this batch.',
        examples: ['bat_01kaz3t6v8w0x2y4z6a8b0c2de'],
      }),
    ),
    'created[gte]': Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'Only renders created at or after this ISO 8601 time.',
        examples: ['2026-11-01T00:00:00Z'],
      }),
    ),
    'created[lte]': Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'Only renders created at or before this ISO 8601 time.',
        examples: ['2026-11-30T23:59:59Z'],
      }),
    ),
    input_type: Type.Optional(
      Type.String({
        maxLength: 40,
        description: 'Only renders of this input type (html, url, markdown, template...).',
        examples: ['template'],
      }),
    ),
    output_format: Type.Optional(
      Type.String({
        maxLength: 10,
        description: 'Only renders of this output format (pdf, png, jpeg, webp, html).',
        examples: ['pdf'],
      }),
    ),
    reference: Type.Optional(
      Type.String({
        maxLength: 500,
        description: 'Only renders with this `reference`.',
        examples: ['invoice-2026-0042'],
      }),
    ),
    source: Type.Optional(
      Type.String({
        maxLength: 40,
        description: 'Only renders made this way: `api` or `preview`.',
        examples: ['preview'],
      }),
    ),
    status: Type.Optional(
      Type.Union([Type.String(), Type.Array(Type.String())], {
        description: `Only renders in these states (${STATUSES.join(', ')}): repeat the parameter or separate with commas.`,
        examples: ['failed,canceled'],
      }),
    ),
    template_id: Type.Optional(
      Type.String({
        maxLength: 100,
        description: 'Only renders of this template.',
        examples: ['tpl_01hzy3k2m5x8q9r0s1t2u3v4w5'],
      }),
    ),
    test: Type.Optional(
      Type.Boolean({
        description: 'Only test renders (true) or live ones (false); a key sees only its own mode.',
        examples: [false],
      }),
    ),
  },
  { additionalProperties: true },
)

function statusesOf(value: string | string[] | undefined): RenderStatus[] | undefined {
  if (value === undefined) return undefined
  const list = (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')).map((s) => s.trim())
  const unknown = list.filter((s) => !STATUSES.includes(s as RenderStatus))
  if (unknown.length > 0) {
    throw new ProblemError('validation_error', `unknown status ${unknown.join(', ')}`, {
      errors: [{ path: '/status', in: 'query', code: 'enum', message: oneOfMessage(STATUSES) }],
    })
  }
  return list as RenderStatus[]
}

function metadataFilter(query: Record<string, unknown>): Record<string, string> | undefined {
  const entries = Object.entries(query)
    .map(([k, v]) => [/^metadata\[(.+)\]$/.exec(k)?.[1], v] as const)
    .filter((e): e is readonly [string, string] => e[0] !== undefined && typeof e[1] === 'string')
  return entries.length > 0 ? Object.fromEntries(entries) : undefined
}

export async function renderRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  const deps = container.cradle
  const tags = ['renders']

  app.post<{ Body: Static<typeof CreateRenderBody> }>(
    '/renders',
    {
      config: {
        scope: 'render:write',
        problemShape: {
          fields: () =>
            renderFieldTree(CreateRenderBody, {
              input: inputSchemasOf(deps.plugins.registries),
              'output.pdf': optionsSchemaOf(deps.plugins.registries, 'pdf'),
              'output.image': optionsSchemaOf(deps.plugins.registries, 'png'),
            }),
        },
      },
      schema: {
        tags,
        summary: 'Render a template, HTML, a URL or Markdown into PDF, PNG, JPEG, WebP or HTML',
        body: CreateRenderBody,
        response: renderResponses({ 200: RenderRecord, 202: RenderRecord }, RENDER_SET),
      },
    },
    async (request, reply) => {
      const { input, output, overrides, ...shared } = request.body
      const format = (output?.format ?? 'pdf') as OutputFormat
      const optionsKey = optionsKeyOf(format, output, '/output')
      const options = (output?.[optionsKey] ?? undefined) as Record<string, unknown> | undefined
      const normalised = normaliseRender(
        request.auth!,
        shared,
        input as { type: string } & Record<string, unknown>,
        {
          format,
          ...(options ? { [optionsKey]: options } : {}),
          ...(output?.einvoice != null ? { einvoice: output.einvoice as EinvoiceSpecRequest } : {}),
        },
        `/output/${optionsKey}`,
      )
      // a template input is resolved (template, version, data schema) before the render exists
      const prepared =
        input.type === 'template'
          ? await deps.templateRenders.prepare(request.auth!, normalised, templateRefOf(input, overrides))
          : normalised
      const render = await deps.renderService.create(request.auth!, request.plan!, prepared)
      return respondToRender(deps, request, reply, render, request.plan!.limits.sync_timeout_seconds)
    },
  )

  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/renders',
    {
      config: { scope: 'renders:read' },
      schema: {
        tags,
        querystring: ListQuery,
        response: renderResponses(
          {
            200: Type.Object(
              {},
              {
                additionalProperties: true,
                description:
                  'A page of renders: `data`, `has_more` and the `next_cursor` to pass as `cursor`.',
              },
            ),
          },
          [],
        ),
      },
    },
    async (request) => {
      const q = request.query
      const auth = request.auth!
      if (q.test !== undefined && q.test !== auth.test)
        return { object: 'list', data: [], has_more: false, next_cursor: null }
      const limit = q.limit ?? 50
      const page = await deps.renderRepository.list({
        workspaceId: auth.workspace.id,
        test: auth.test,
        limit,
        ...(statusesOf(q.status) ? { statuses: statusesOf(q.status)! } : {}),
        ...(q.input_type ? { inputType: q.input_type } : {}),
        ...(q.output_format ? { outputFormat: q.output_format } : {}),
        ...(q.reference !== undefined ? { reference: q.reference } : {}),
        ...(q.source ? { source: q.source } : {}),
        ...(q.template_id ? { templateId: q.template_id } : {}),
        ...(q.batch_id ? { batchId: q.batch_id } : {}),
        ...(q['created[gte]'] ? { createdGte: new Date(q['created[gte]']).toISOString() } : {}),
        ...(q['created[lte]'] ? { createdLte: new Date(q['created[lte]']).toISOString() } : {}),
        ...(metadataFilter(q) ? { metadata: metadataFilter(q)! } : {}),
        ...(q.cursor ? { before: q.cursor } : {}),
      })
      const hasMore = page.length > limit
      const items = page.slice(0, limit)
      return {
        object: 'list',
        data: await Promise.all(items.map((r) => presentRender(deps, r))),
        has_more: hasMore,
        next_cursor: hasMore ? (items.at(-1)?.id ?? null) : null,
      }
    },
  )

  app.get<{ Params: Static<typeof RenderIdParams> }>(
    '/renders/:render_id',
    {
      config: { scope: 'renders:read' },
      schema: {
        tags,
        params: RenderIdParams,
        response: renderResponses({ 200: RenderRecord }, [404]),
      },
    },
    async (request) =>
      presentRender(deps, await deps.renderService.get(request.auth!, request.params.render_id)),
  )

  app.post<{ Params: Static<typeof RenderIdParams> }>(
    '/renders/:render_id/cancel',
    {
      config: { scope: 'render:write' },
      schema: {
        tags,
        params: RenderIdParams,
        response: renderResponses({ 200: RenderRecord }, [404, 409]),
      },
    },
    async (request) =>
      presentRender(deps, await deps.renderService.cancel(request.auth!, request.params.render_id)),
  )

  app.delete<{ Params: Static<typeof RenderIdParams> }>(
    '/renders/:render_id/files',
    {
      config: { scope: 'renders:delete' },
      schema: {
        tags,
        params: RenderIdParams,
        response: renderResponses({ 200: RenderRecord }, [404, 409]),
      },
    },
    async (request) =>
      presentRender(deps, await deps.renderFiles.purge(request.auth!, request.params.render_id)),
  )

  app.get<{ Params: Static<typeof RenderFileParams>; Querystring: { download?: boolean; inline?: boolean } }>(
    '/renders/:render_id/files/:file_id',
    {
      config: { scope: 'renders:read' },
      schema: {
        tags,
        params: RenderFileParams,
        querystring: Type.Object({
          download: Type.Optional(
            Type.Boolean({
              description: 'Ask the browser to save the file (attachment) rather than show it.',
              examples: [true],
            }),
          ),
          inline: Type.Optional(
            Type.Boolean({
              description: 'Send the file in this response instead of redirecting to a signed URL.',
              examples: [true],
            }),
          ),
        }),
        response: renderResponses({}, [404, 410]),
      },
    },
    async (request, reply) => deps.renderFiles.serve(request, request.params, request.query, reply),
  )

  app.get<{ Params: Static<typeof RenderIdParams> }>(
    '/renders/:render_id/logs',
    {
      config: { scope: 'renders:read' },
      schema: {
        tags,
        params: RenderIdParams,
        response: renderResponses(
          {
            200: Type.Object(
              {},
              { additionalProperties: true, description: "The render's log lines, when logging is on." },
            ),
          },
          [404],
        ),
      },
    },
    async (request) => {
      const render = await deps.renderService.get(request.auth!, request.params.render_id)
      const lines = await deps.renderRepository.logs(render.id)
      if (lines.length === 0) throw new ProblemError('not_found', `No log for render ${render.id}.`)
      return { object: 'render_log', render_id: render.id, lines }
    },
  )
}
