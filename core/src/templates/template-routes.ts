import type { AwilixContainer } from 'awilix'
import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { Cradle } from '../kernel/container.ts'
import type { TemplateType } from './template.ts'
import {
  CreateTemplateBody,
  DraftBody,
  DraftRecord,
  ListRecord,
  ListTemplatesQuery,
  ListVersionsQuery,
  PublishBody,
  RollbackBody,
  SchemaQuery,
  TemplateParams,
  TemplateRecord,
  templateResponses,
  VersionParams,
  VersionRecord,
} from './template-schemas.ts'
import type { CreateTemplateInput } from './template-service.ts'
import { draftView, templateView, versionView } from './template-view.ts'

type Params = { Params: Static<typeof TemplateParams> }

/** SPEC 4.9 templates, with the publish, draft and lock operations of DESIGN.md §10 and decision 0011. */
export async function templateRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  const { templateService: templates, templatePublisher } = container.cradle
  const tags = ['templates']
  const read = { scope: 'templates:read' as const }
  const write = { scope: 'templates:write' as const }

  app.post<{ Body: Static<typeof CreateTemplateBody> }>(
    '/templates',
    {
      config: write,
      schema: {
        tags,
        summary: 'Create a template; its content lands in the draft',
        body: CreateTemplateBody,
        response: templateResponses({ 201: TemplateRecord }, [403, 503]),
      },
    },
    async (request, reply) => {
      const template = await templates.create(request.auth!, request.body as unknown as CreateTemplateInput)
      return reply.code(201).send(templateView(template))
    },
  )

  app.get<{ Querystring: Static<typeof ListTemplatesQuery> }>(
    '/templates',
    {
      config: read,
      schema: {
        tags,
        summary: 'List templates, newest first',
        querystring: ListTemplatesQuery,
        response: templateResponses({ 200: ListRecord }, []),
      },
    },
    async (request) => {
      const q = request.query
      const { items, hasMore } = await templates.list(request.auth!, {
        limit: q.limit ?? 50,
        ...(q.q ? { q: q.q } : {}),
        ...(q.type ? { type: q.type as TemplateType } : {}),
        ...(q.cursor ? { cursor: q.cursor } : {}),
      })
      return {
        object: 'list',
        data: items.map(templateView),
        has_more: hasMore,
        next_cursor: hasMore ? (items.at(-1)?.id ?? null) : null,
      }
    },
  )

  app.get<Params>(
    '/templates/:template_id',
    {
      config: read,
      schema: {
        tags,
        summary: 'Retrieve a template',
        params: TemplateParams,
        response: templateResponses({ 200: TemplateRecord }, [403, 404, 410]),
      },
    },
    async (request) => templateView(await templates.get(request.auth!, request.params.template_id)),
  )

  app.delete<Params>(
    '/templates/:template_id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Move a template to the trash (purged after 30 days)',
        params: TemplateParams,
        response: templateResponses({ 200: TemplateRecord }, [403, 404, 410, 423, 503]),
      },
    },
    async (request) => templateView(await templates.delete(request.auth!, request.params.template_id)),
  )

  app.get<Params>(
    '/templates/:template_id/draft',
    {
      config: read,
      schema: {
        tags,
        summary: 'Read the draft and its revision',
        params: TemplateParams,
        response: templateResponses({ 200: DraftRecord }, [403, 404, 410]),
      },
    },
    async (request) => draftView(await templates.get(request.auth!, request.params.template_id)),
  )

  app.put<Params & { Body: Static<typeof DraftBody> }>(
    '/templates/:template_id/draft',
    {
      config: write,
      schema: {
        tags,
        summary: 'Replace the draft (send the revision you read)',
        params: TemplateParams,
        body: DraftBody,
        response: templateResponses({ 200: DraftRecord }, [403, 404, 409, 410, 423, 503]),
      },
    },
    async (request) => {
      const { revision, content, data_schema, sample_data } = request.body
      const template = await templates.replaceDraft(request.auth!, request.params.template_id, {
        revision,
        content,
        ...(data_schema !== undefined ? { data_schema } : {}),
        ...(sample_data !== undefined ? { sample_data } : {}),
      })
      return draftView(template)
    },
  )

  app.post<Params & { Body: Static<typeof PublishBody> }>(
    '/templates/:template_id/publish',
    {
      config: write,
      schema: {
        tags,
        summary: 'Validate the draft and publish it as the next numbered, live version',
        params: TemplateParams,
        body: PublishBody,
        response: templateResponses({ 201: VersionRecord }, [403, 404, 409, 410, 422, 503]),
      },
    },
    async (request, reply) => {
      const body = request.body ?? {}
      const { template, version, run } = await templatePublisher.publish(
        request.auth!,
        request.params.template_id,
        {
          ...(body.notes !== undefined ? { notes: body.notes } : {}),
          ...(body.revision !== undefined ? { revision: body.revision } : {}),
        },
      )
      return reply.code(201).send({ ...versionView(version, template.live_version), publish_run: run })
    },
  )

  app.post<Params & { Body: Static<typeof RollbackBody> }>(
    '/templates/:template_id/rollback',
    {
      config: write,
      schema: {
        tags,
        summary: 'Point live_version at an existing version (no new version, no re-render)',
        params: TemplateParams,
        body: RollbackBody,
        response: templateResponses({ 200: TemplateRecord }, [403, 404, 410, 503]),
      },
    },
    async (request) =>
      templateView(await templates.rollback(request.auth!, request.params.template_id, request.body.version)),
  )

  for (const [path, locked] of [
    ['lock', true],
    ['unlock', false],
  ] as const) {
    app.post<Params>(
      `/templates/:template_id/${path}`,
      {
        config: write,
        schema: {
          tags,
          summary: locked
            ? 'Lock a template: draft replacement and deletion are refused (423)'
            : 'Unlock a template',
          params: TemplateParams,
          response: templateResponses({ 200: TemplateRecord }, [403, 404, 410, 503]),
        },
      },
      async (request) =>
        templateView(await templates.setLocked(request.auth!, request.params.template_id, locked)),
    )
  }

  app.get<Params & { Querystring: Static<typeof SchemaQuery> }>(
    '/templates/:template_id/schema',
    {
      config: read,
      schema: {
        tags,
        summary:
          "The data JSON Schema of the live version (or of `version`; the draft's before a first publish)",
        params: TemplateParams,
        querystring: SchemaQuery,
        response: templateResponses(
          { 200: { type: 'object', additionalProperties: true, description: 'a JSON Schema' } },
          [403, 404, 410],
        ),
      },
    },
    async (request) => {
      const template = await templates.get(request.auth!, request.params.template_id)
      const asked = request.query.version ?? (template.live_version === null ? 'draft' : 'live')
      if (asked === 'draft') return template.draft.data_schema ?? {}
      const version = await templates.version(
        template,
        asked === 'live' ? (template.live_version ?? 0) : asked,
      )
      // no schema: any object is accepted, which the empty schema says
      return version.data_schema ?? {}
    },
  )

  app.get<Params & { Querystring: Static<typeof ListVersionsQuery> }>(
    '/templates/:template_id/versions',
    {
      config: read,
      schema: {
        tags,
        summary: 'List published versions, newest first',
        params: TemplateParams,
        querystring: ListVersionsQuery,
        response: templateResponses({ 200: ListRecord }, [403, 404, 410]),
      },
    },
    async (request) => {
      const template = await templates.get(request.auth!, request.params.template_id)
      const limit = request.query.limit ?? 50
      const cursor = request.query.cursor ? Number(request.query.cursor) : undefined
      const { items, hasMore } = await templates.versions(template, limit, cursor)
      return {
        object: 'list',
        data: items.map((v) => versionView(v, template.live_version)),
        has_more: hasMore,
        next_cursor: hasMore ? String(items.at(-1)?.number) : null,
      }
    },
  )

  app.get<{ Params: Static<typeof VersionParams> }>(
    '/templates/:template_id/versions/:number',
    {
      config: read,
      schema: {
        tags,
        summary: 'Retrieve a version by number or tv_ id',
        params: VersionParams,
        response: templateResponses({ 200: VersionRecord }, [403, 404, 410]),
      },
    },
    async (request) => {
      const template = await templates.get(request.auth!, request.params.template_id)
      return versionView(await templates.version(template, request.params.number), template.live_version)
    },
  )
}
