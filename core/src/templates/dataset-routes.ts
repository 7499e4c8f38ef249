import type { AwilixContainer } from 'awilix'
import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { AuthContext } from '../api-keys/api-key-service.ts'
import type { Cradle } from '../kernel/container.ts'
import { newId } from '../kernel/ids.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import type { TemplateDataset } from './template.ts'
import {
  DatasetBody,
  DatasetParams,
  DatasetPatch,
  DatasetRecord,
  ListRecord,
  TemplateParams,
  templateResponses,
} from './template-schemas.ts'
import { datasetView } from './template-view.ts'

/** Datasets of a template (DESIGN.md §10): named data for previews and renders; one may be the default. */
export async function datasetRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  const { templateService: templates, datasetRepository: datasets } = container.cradle
  const tags = ['templates']
  const read = { scope: 'templates:read' as const }
  const write = { scope: 'templates:write' as const }

  async function find(auth: AuthContext, templateId: string, id: string): Promise<TemplateDataset> {
    const template = await templates.get(auth, templateId)
    const dataset = await datasets.get(template.id, id)
    if (!dataset) throw new ProblemError('not_found', `Template ${template.id} has no dataset ${id}.`)
    return dataset
  }

  app.get<{ Params: Static<typeof TemplateParams> }>(
    '/templates/:template_id/datasets',
    {
      config: read,
      schema: {
        tags,
        summary: "List a template's datasets",
        params: TemplateParams,
        response: templateResponses({ 200: ListRecord }, [403, 404, 410]),
      },
    },
    async (request) => {
      const template = await templates.get(request.auth!, request.params.template_id)
      const data = (await datasets.list(template.id)).map(datasetView)
      return { object: 'list', data, has_more: false, next_cursor: null }
    },
  )

  app.post<{ Params: Static<typeof TemplateParams>; Body: Static<typeof DatasetBody> }>(
    '/templates/:template_id/datasets',
    {
      config: write,
      schema: {
        tags,
        summary: 'Add a dataset',
        params: TemplateParams,
        body: DatasetBody,
        response: templateResponses({ 201: DatasetRecord }, [403, 404, 410, 503]),
      },
    },
    async (request, reply) => {
      const template = await templates.get(request.auth!, request.params.template_id)
      const at = new Date().toISOString()
      const dataset: TemplateDataset = {
        id: newId('dataset'),
        template_id: template.id,
        workspace_id: template.workspace_id,
        name: request.body.name,
        data: request.body.data,
        is_default: request.body.is_default ?? false,
        created_at: at,
        updated_at: at,
      }
      await datasets.save(dataset, true)
      return reply.code(201).send(datasetView(dataset))
    },
  )

  app.get<{ Params: Static<typeof DatasetParams> }>(
    '/templates/:template_id/datasets/:dataset_id',
    {
      config: read,
      schema: {
        tags,
        summary: 'Retrieve a dataset',
        params: DatasetParams,
        response: templateResponses({ 200: DatasetRecord }, [403, 404, 410]),
      },
    },
    async (request) =>
      datasetView(await find(request.auth!, request.params.template_id, request.params.dataset_id)),
  )

  app.patch<{ Params: Static<typeof DatasetParams>; Body: Static<typeof DatasetPatch> }>(
    '/templates/:template_id/datasets/:dataset_id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change a dataset (name, data, is_default)',
        params: DatasetParams,
        body: DatasetPatch,
        response: templateResponses({ 200: DatasetRecord }, [403, 404, 410, 503]),
      },
    },
    async (request) => {
      const current = await find(request.auth!, request.params.template_id, request.params.dataset_id)
      const { name, data, is_default } = request.body
      const next: TemplateDataset = {
        ...current,
        ...(name !== undefined ? { name } : {}),
        ...(data !== undefined ? { data } : {}),
        ...(is_default !== undefined ? { is_default } : {}),
        updated_at: new Date().toISOString(),
      }
      await datasets.save(next, false)
      return datasetView(next)
    },
  )

  app.delete<{ Params: Static<typeof DatasetParams> }>(
    '/templates/:template_id/datasets/:dataset_id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Delete a dataset',
        params: DatasetParams,
        response: templateResponses({ 204: { type: 'null', description: 'deleted' } }, [403, 404, 410, 503]),
      },
    },
    async (request, reply) => {
      const dataset = await find(request.auth!, request.params.template_id, request.params.dataset_id)
      await datasets.delete(dataset.template_id, dataset.id)
      return reply.code(204).send()
    },
  )
}
