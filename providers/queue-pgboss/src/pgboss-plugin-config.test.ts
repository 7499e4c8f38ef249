import { describe, expect, it, vi } from 'vitest'

const made: unknown[] = []
vi.mock('./pgboss-queue.ts', () => ({
  createPgBossQueue: (options: unknown) => {
    made.push(options)
    return {}
  },
}))

const { queuePgBossPlugin } = await import('./index.ts')

function factoryWith(config: object) {
  let factory: { create(ctx: object): unknown } | undefined
  const registries = { queueBackends: { add: (_key: string, value: typeof factory) => (factory = value) } }
  const log = { info() {}, warn() {}, error() {}, debug() {} }
  queuePgBossPlugin.register({ registries, log, config } as never)
  return factory!
}

const SETTINGS = { pollIntervalMs: 250, retryDelaySeconds: 30, superviseIntervalSeconds: 5, poolSize: 3 }

describe('the queue-pgboss plugin hands its settings to the queue', () => {
  it('every one of them, and the operator’s schema before the installation’s', () => {
    made.length = 0
    factoryWith({ ...SETTINGS, schema: 'ops_queue' }).create({
      databaseUrl: 'postgres://h/db',
      sqlitePath: '',
      schema: 'tenant_queue',
    })
    expect(made[0]).toMatchObject({ ...SETTINGS, schema: 'ops_queue', databaseUrl: 'postgres://h/db' })
  })

  it('without a schema of its own: the installation’s, else pg-boss’s default schema', () => {
    made.length = 0
    const factory = factoryWith({ ...SETTINGS, schema: '' })
    factory.create({ databaseUrl: 'postgres://h/db', sqlitePath: '', schema: 'tenant_queue' })
    factory.create({ databaseUrl: 'postgres://h/db', sqlitePath: '' })
    expect(made[0]).toMatchObject({ schema: 'tenant_queue' })
    expect(made[1]).not.toHaveProperty('schema')
  })
})
