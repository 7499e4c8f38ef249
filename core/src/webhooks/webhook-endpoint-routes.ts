import type { AwilixContainer } from 'awilix'
import type { FastifyInstance } from 'fastify'
import { type Static, Type } from 'typebox'
import type { Cradle } from '../kernel/container.ts'
import { deliverySummaryView } from './webhook-delivery.ts'
import { endpointView } from './webhook-endpoint.ts'
import {
  CreateEndpointBody,
  DeliveryRecord,
  EndpointParams,
  EndpointRecord,
  EndpointWithSecret,
  ListOf,
  PatchEndpointBody,
  RollSecretBody,
  TestEventBody,
  webhookResponses,
} from './webhook-route-schemas.ts'

/** SPEC 4.11, endpoints. */
export async function webhookEndpointRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  const service = () => container.cradle.webhookEndpointService
  const tags = ['webhooks']

  app.get(
    '/webhook-endpoints',
    {
      config: { scope: 'webhooks:read' },
      schema: {
        tags,
        summary: 'Every webhook endpoint of the workspace, in one page',
        response: webhookResponses({ 200: ListOf('list of webhook endpoints') }),
      },
    },
    async (request) => ({
      object: 'list',
      data: (await service().list(request.auth!)).map(endpointView),
      has_more: false,
    }),
  )

  app.post<{ Body: Static<typeof CreateEndpointBody> }>(
    '/webhook-endpoints',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Create a webhook endpoint; its signing secret is returned this once',
        body: CreateEndpointBody,
        response: webhookResponses({ 201: EndpointWithSecret }),
      },
    },
    async (request, reply) => {
      const { endpoint, secret } = await service().create(request.auth!, request.body)
      return reply.code(201).send({ ...endpointView(endpoint), secret })
    },
  )

  app.get<{ Params: Static<typeof EndpointParams> }>(
    '/webhook-endpoints/:endpoint_id',
    {
      config: { scope: 'webhooks:read' },
      schema: {
        tags,
        summary: 'One webhook endpoint (never its secret)',
        params: EndpointParams,
        response: webhookResponses({ 200: EndpointRecord }, [404]),
      },
    },
    async (request) => endpointView(await service().get(request.auth!, request.params.endpoint_id)),
  )

  app.patch<{ Params: Static<typeof EndpointParams>; Body: Static<typeof PatchEndpointBody> }>(
    '/webhook-endpoints/:endpoint_id',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Change a webhook endpoint; the secret is changed only by roll-secret',
        params: EndpointParams,
        body: PatchEndpointBody,
        response: webhookResponses({ 200: EndpointRecord }, [404]),
      },
    },
    async (request) =>
      endpointView(await service().update(request.auth!, request.params.endpoint_id, request.body)),
  )

  app.delete<{ Params: Static<typeof EndpointParams> }>(
    '/webhook-endpoints/:endpoint_id',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Delete a webhook endpoint; its pending deliveries stop, the delivery log stays',
        params: EndpointParams,
        response: webhookResponses({ 204: Type.Null({ description: 'deleted' }) }, [404]),
      },
    },
    async (request, reply) => {
      await service().delete(request.auth!, request.params.endpoint_id)
      return reply.code(204).send()
    },
  )

  app.post<{ Params: Static<typeof EndpointParams>; Body: Static<typeof RollSecretBody> }>(
    '/webhook-endpoints/:endpoint_id/roll-secret',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Replace the signing secret; both sign deliveries until the previous one expires',
        params: EndpointParams,
        body: RollSecretBody,
        response: webhookResponses({ 200: EndpointWithSecret }, [404]),
      },
    },
    async (request) => {
      const { endpoint, secret } = await service().rollSecret(
        request.auth!,
        request.params.endpoint_id,
        request.body?.expire_previous_in ?? 86_400,
      )
      return { ...endpointView(endpoint), secret }
    },
  )

  app.post<{ Params: Static<typeof EndpointParams>; Body: Static<typeof TestEventBody> }>(
    '/webhook-endpoints/:endpoint_id/test',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Queue a test event with sample data to this endpoint',
        params: EndpointParams,
        body: TestEventBody,
        response: webhookResponses({ 202: DeliveryRecord }, [404]),
      },
    },
    async (request, reply) => {
      const delivery = await service().sendTest(request.auth!, request.params.endpoint_id, request.body.event)
      return reply.code(202).send(deliverySummaryView(delivery))
    },
  )
}
