import type { AwilixContainer } from 'awilix'
import type { FastifyInstance } from 'fastify'
import { requireOperator } from '../admin/operator-auth.ts'
import type { Cradle } from '../kernel/container.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import { endpointView } from './webhook-endpoint.ts'

/** The operator's list of endpoints the service switched off after 5 days of failures. */
export async function webhookAdminRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  const { config } = container.cradle
  app.get(
    '/admin/v1/webhook-endpoints/disabled',
    { schema: { hide: true, tags: ['admin'] } },
    async (request) => {
      if (!config.operatorToken)
        throw new ProblemError('not_found', 'The admin API is off; set DOCSVC_OPERATOR_TOKEN.')
      requireOperator(request, config.operatorToken)
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
