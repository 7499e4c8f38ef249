import type { FastifyPluginAsync } from 'fastify'

/** A promise a test resolves by hand, to hold a request in the middle of its handler. */
export interface Gate {
  entered: Promise<void>
  open(): void
}

export interface ProbeRoutes {
  routes: FastifyPluginAsync
  /** handler runs per route, so a test can tell a replay from a second run */
  calls: { echo: number; slow: number; flaky: number }
  /** the next POST /v1/test-slow waits until the test opens this gate */
  holdNextSlow(): Gate
  /** the next n POST /v1/test-flaky calls throw (500) */
  failNextFlaky(n: number): void
}

const ItemSchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: { type: 'string', minLength: 1 }, qty: { type: 'integer', minimum: 1 } },
} as const

export const EchoBodySchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1 },
    count: { type: 'integer', minimum: 0 },
    items: { type: 'array', items: ItemSchema },
  },
} as const

/**
 * Routes under /v1 that stand in for real endpoints: cross-cutting behaviour (idempotency,
 * limits, parsing, validation) is proven through HTTP without depending on any render code.
 */
export function probeRoutes(): ProbeRoutes {
  const calls = { echo: 0, slow: 0, flaky: 0 }
  let held: { release: Promise<void>; entered: () => void } | undefined
  let failures = 0

  const routes: FastifyPluginAsync = async (v1) => {
    v1.post(
      '/test-echo',
      {
        config: { scope: 'render:write' },
        schema: {
          body: EchoBodySchema,
          querystring: {
            type: 'object',
            additionalProperties: false,
            properties: { limit: { type: 'integer', minimum: 1, maximum: 100 } },
          },
        },
      },
      async (request, reply) => {
        calls.echo += 1
        const id = `echo_${calls.echo}`
        return reply
          .code(201)
          .header('Location', `/v1/test-echo/${id}`)
          .send({ object: 'echo', id, call: calls.echo, body: request.body, query: request.query })
      },
    )
    v1.get('/test-echo', { config: { scope: 'render:write' } }, async () => ({ object: 'echo' }))

    v1.post('/test-slow', { config: { scope: 'render:write' } }, async (_request, reply) => {
      calls.slow += 1
      const gate = held
      held = undefined
      if (gate) {
        gate.entered()
        await gate.release
      }
      return reply.code(202).header('Location', `/v1/test-slow/slow_${calls.slow}`).send({ call: calls.slow })
    })

    v1.post('/test-flaky', { config: { scope: 'render:write' } }, async () => {
      calls.flaky += 1
      if (failures > 0) {
        failures -= 1
        throw new Error('flaky handler failed')
      }
      return { call: calls.flaky }
    })
  }

  return {
    routes,
    calls,
    holdNextSlow() {
      let open!: () => void
      let entered!: () => void
      const release = new Promise<void>((resolve) => {
        open = resolve
      })
      const enteredPromise = new Promise<void>((resolve) => {
        entered = resolve
      })
      held = { release, entered }
      return { entered: enteredPromise, open }
    },
    failNextFlaky(n) {
      failures = n
    },
  }
}
