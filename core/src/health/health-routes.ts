import type { AwilixContainer } from 'awilix'
import type { FastifyInstance } from 'fastify'
import type { Cradle } from '../kernel/container.ts'
import type { BoundHealthcheck } from '../kernel/plugins/plugin-loader.ts'

const HealthBody = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ok', 'unavailable'] },
    checks: { type: 'object', additionalProperties: { type: 'string' } },
  },
  required: ['status'],
} as const

/**
 * Outside /v1: /healthz says the process is up; /readyz that its database, queue, plugins and
 * features answer.
 */
export async function healthRoutes(
  app: FastifyInstance,
  { container, healthchecks }: { container: AwilixContainer<Cradle>; healthchecks: BoundHealthcheck[] },
) {
  // probes carry no API key: `security: []` overrides the document-wide key requirement
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['health'],
        security: [],
        response: { 200: { ...HealthBody, description: 'The process is up.' } },
      },
      config: { access: 'public' },
    },
    async () => ({ status: 'ok' }),
  )

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        security: [],
        response: {
          200: { ...HealthBody, description: 'Ready: the database, the queue and every plugin answer.' },
          503: { ...HealthBody, description: 'Not ready: `checks` names the part that failed.' },
        },
      },
      config: { access: 'public' },
    },
    async (request, reply) => {
      const { db, queue } = container.cradle
      // the reasons go to the log: a public probe must not tell addresses, users or versions
      const failed = (part: string, reason: unknown) => {
        request.log.warn({ part, reason: reason instanceof Error ? reason.message : reason }, 'not ready')
        return 'failed'
      }
      const checks: Record<string, string> = {}
      try {
        await db.ping()
        checks.database = 'ok'
      } catch (err) {
        checks.database = failed('database', err)
      }
      try {
        const report = await queue.healthcheck()
        checks.queue = report.ok ? 'ok' : failed('queue', report.detail ?? 'unavailable')
      } catch (err) {
        checks.queue = failed('queue', err)
      }
      for (const { id, check } of healthchecks) {
        try {
          const result = await check()
          checks[id] = result.ok ? 'ok' : failed(id, result.detail ?? 'unhealthy')
        } catch (err) {
          checks[id] = failed(id, err)
        }
      }
      const ok = Object.values(checks).every((c) => c === 'ok')
      return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', checks })
    },
  )
}
