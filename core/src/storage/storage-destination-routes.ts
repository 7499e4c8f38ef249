import type { AwilixContainer } from 'awilix'
import type { FastifyInstance } from 'fastify'
import { type Static, Type } from 'typebox'
import type { Cradle } from '../kernel/container.ts'
import { destinationView } from './storage-destination.ts'
import {
  CreateDestinationBody,
  DestinationList,
  DestinationParams,
  DestinationRecord,
  PatchDestinationBody,
  storageResponses,
  TestResult,
} from './storage-route-schemas.ts'

/** SPEC 4.7. */
export async function storageDestinationRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  const service = () => container.cradle.storageDestinationService
  const tags = ['storage']
  type Params = { Params: Static<typeof DestinationParams> }

  app.get(
    '/storage-destinations',
    {
      config: { scope: 'storage:read' },
      schema: {
        tags,
        summary: 'Every storage destination of the workspace, in one page',
        response: storageResponses({ 200: DestinationList }),
      },
    },
    async (request) => ({
      object: 'list',
      data: (await service().list(request.auth!)).map(destinationView),
      has_more: false,
    }),
  )

  app.post<{ Body: Static<typeof CreateDestinationBody> }>(
    '/storage-destinations',
    {
      config: { scope: 'storage:write' },
      schema: {
        tags,
        summary: 'Create a storage destination',
        body: CreateDestinationBody,
        response: storageResponses({ 201: DestinationRecord }, [402]),
      },
    },
    async (request, reply) =>
      reply.code(201).send(destinationView(await service().create(request.auth!, request.body))),
  )

  app.get<Params>(
    '/storage-destinations/:destination_id',
    {
      config: { scope: 'storage:read' },
      schema: {
        tags,
        summary: 'One storage destination (never its credentials)',
        params: DestinationParams,
        response: storageResponses({ 200: DestinationRecord }, [404]),
      },
    },
    async (request) => destinationView(await service().get(request.auth!, request.params.destination_id)),
  )

  app.patch<Params & { Body: Static<typeof PatchDestinationBody> }>(
    '/storage-destinations/:destination_id',
    {
      config: { scope: 'storage:write' },
      schema: {
        tags,
        summary: 'Change a storage destination; its provider cannot change',
        params: DestinationParams,
        body: PatchDestinationBody,
        response: storageResponses({ 200: DestinationRecord }, [402, 404, 409]),
      },
    },
    async (request) =>
      destinationView(await service().update(request.auth!, request.params.destination_id, request.body)),
  )

  app.delete<Params>(
    '/storage-destinations/:destination_id',
    {
      config: { scope: 'storage:write' },
      schema: {
        tags,
        summary: 'Delete a storage destination; files already uploaded stay where they are',
        params: DestinationParams,
        response: storageResponses({ 204: Type.Null({ description: 'deleted' }) }, [404]),
      },
    },
    async (request, reply) => {
      await service().delete(request.auth!, request.params.destination_id)
      return reply.code(204).send()
    },
  )

  app.post<Params>(
    '/storage-destinations/:destination_id/test',
    {
      config: { scope: 'storage:write' },
      schema: {
        tags,
        summary: 'Write, read back and delete a small object; the result becomes last_test',
        params: DestinationParams,
        response: storageResponses({ 200: TestResult }, [402, 404, 409]),
      },
    },
    async (request) => service().test(request.auth!, request.params.destination_id),
  )
}
