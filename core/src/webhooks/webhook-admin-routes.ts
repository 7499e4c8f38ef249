import type { AwilixContainer } from 'awilix'
import type { FastifyInstance } from 'fastify'
import type { Cradle } from '../kernel/container.ts'
import { endpointView } from './webhook-endpoint.ts'

/** The operator's list of endpoints the service switched off after 5 days of failures. */
export async function webhookAdminRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  app.get(
    '/admin/v1/webhook-endpoints/disabled',
    { schema: { hide: true, tags: ['admin'] }, config: { access: 'operator' } },
    async () => {
      const endpoints = await container.cradle.webhookEndpointRepository.autoDisabled()
      return {
        data: endpoints.map((e) => ({
          ...endpointView(e),
          workspace_id: e.workspace_id,
          failing_since: e.failing_since,
        })),
      }
    },
  )
}
