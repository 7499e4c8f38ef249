import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { inputPlugin } from '../kernel/plugins/plugin-test-fixtures.ts'
import { standardPlugin, startTestKernel, type TestKernel } from '../testing/index.ts'

// /readyz is public: what failed may show, why it failed may not (issue 13 item 10). The reasons
// below are the kind a driver really gives: addresses, users, paths.
const SECRET_REASONS = [
  'connect ECONNREFUSED 10.9.8.7:5432',
  'user "admin" denied',
  '/var/lib/docsvc/k',
] as const

describe('GET /readyz when parts fail', () => {
  let t: TestKernel

  beforeAll(async () => {
    t = await startTestKernel({
      builtins: [
        standardPlugin('queue-sqlite'),
        inputPlugin('throws', ['throws'], {
          healthcheck: () => {
            throw new Error(SECRET_REASONS[1])
          },
        }),
        inputPlugin('unhealthy', ['unhealthy'], {
          healthcheck: () => ({ ok: false, detail: SECRET_REASONS[2] }),
        }),
        // a healthcheck finds what its plugin registered through its context, not a module-global
        inputPlugin('contextual', ['contextual'], {
          healthcheck: ({ registries }) => ({ ok: registries.inputs.ownerOf('contextual') === 'contextual' }),
        }),
      ],
    })
  })
  afterAll(() => t?.close())

  it('answers 503 naming the failed parts, without their reasons', async () => {
    const { db } = t.kernel.container.cradle
    const ping = vi.spyOn(db, 'ping').mockRejectedValue(new Error(SECRET_REASONS[0]))
    try {
      const res = await t.inject({ method: 'GET', url: '/readyz' })
      expect(res.statusCode).toBe(503)
      expect(res.json()).toEqual({
        status: 'unavailable',
        checks: {
          database: 'failed',
          queue: 'ok',
          throws: 'failed',
          unhealthy: 'failed',
          contextual: 'ok',
        },
      })
      for (const reason of SECRET_REASONS) expect(res.body).not.toContain(reason)
    } finally {
      ping.mockRestore()
    }
  })
})
