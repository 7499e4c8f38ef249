import type { AwilixContainer } from 'awilix'
import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { Cradle } from '../kernel/container.ts'
import { deliveryDetailView, deliverySummaryView } from './webhook-delivery.ts'
import {
  DeliveryListQuery,
  DeliveryParams,
  DeliveryRecord,
  ListOf,
  webhookResponses,
} from './webhook-route-schemas.ts'

/** SPEC 4.11, deliveries. */
export async function webhookDeliveryRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  const service = () => container.cradle.webhookDeliveryService
  const tags = ['webhooks']

  app.get<{ Querystring: Static<typeof DeliveryListQuery> }>(
    '/webhook-deliveries',
    {
      config: { scope: 'webhooks:read' },
      schema: {
        tags,
        summary: 'Webhook deliveries of the last 30 days, newest first',
        querystring: DeliveryListQuery,
        response: webhookResponses({ 200: ListOf('page of webhook deliveries') }),
      },
    },
    async (request) => {
      const q = request.query
      const limit = q.limit ?? 50
      const page = await service().list(request.auth!, {
        limit,
        ...(q.endpoint_id ? { endpointId: q.endpoint_id } : {}),
        ...(q.render_id ? { renderId: q.render_id } : {}),
        ...(q.status ? { status: q.status } : {}),
        ...(q.cursor ? { before: q.cursor } : {}),
      })
      const items = page.slice(0, limit)
      const hasMore = page.length > limit
      return {
        object: 'list',
        data: items.map(deliverySummaryView),
        has_more: hasMore,
        next_cursor: hasMore ? (items.at(-1)?.id ?? null) : null,
      }
    },
  )

  app.get<{ Params: Static<typeof DeliveryParams> }>(
    '/webhook-deliveries/:delivery_id',
    {
      config: { scope: 'webhooks:read' },
      schema: {
        tags,
        summary: 'One delivery with the request it sent and every attempt’s response',
        params: DeliveryParams,
        response: webhookResponses({ 200: DeliveryRecord }, [404]),
      },
    },
    async (request) => {
      const { delivery, attempts } = await service().get(request.auth!, request.params.delivery_id)
      return deliveryDetailView(delivery, attempts)
    },
  )

  app.post<{ Params: Static<typeof DeliveryParams> }>(
    '/webhook-deliveries/:delivery_id/replay',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Send the stored event again as a new delivery with the same event id',
        params: DeliveryParams,
        response: webhookResponses({ 202: DeliveryRecord }, [404, 409]),
      },
    },
    async (request, reply) => {
      const delivery = await service().replay(request.auth!, request.params.delivery_id)
      return reply.code(202).send(deliverySummaryView(delivery))
    },
  )
}
