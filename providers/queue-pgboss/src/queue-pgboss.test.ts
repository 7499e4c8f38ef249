import { fileURLToPath } from 'node:url'
import { createPgSchema, runQueueContract, TEST_DATABASE_URL } from '@docsvc/core/testing'
import { describe, expect, it } from 'vitest'
import { queuePgBossPlugin } from './index.ts'
import { createPgBossQueue, type PgBossQueueOptions } from './pgboss-queue.ts'

runQueueContract('pgboss', async () => {
  const pg = await createPgSchema()
  const options: PgBossQueueOptions = {
    databaseUrl: TEST_DATABASE_URL,
    schema: pg.schema,
    // short intervals keep the lease tests quick; production polls every second and supervises every 10 s
    pollIntervalMs: 250,
    superviseIntervalSeconds: 1,
    retryDelaySeconds: 0,
    poolSize: 4,
  }
  return {
    makeBackend: () => createPgBossQueue(options),
    child: {
      module: fileURLToPath(new URL('./pgboss-queue.ts', import.meta.url)),
      exportName: 'createPgBossQueue',
      options: { ...options },
    },
    close: () => pg.drop(),
  }
})

describe('queue-pgboss plugin', () => {
  it('registers the pgboss backend, which serves installations on PostgreSQL', () => {
    const added = new Map<string, unknown>()
    const registries = { queueBackends: { add: (key: string, value: unknown) => added.set(key, value) } }
    const log = { info() {}, warn() {}, error() {}, debug() {} }
    queuePgBossPlugin.register({ registries, log } as never)
    const factory = added.get('pgboss') as { accepts(ctx: object): boolean }
    expect([...added.keys()]).toEqual(queuePgBossPlugin.provides.queueBackends)
    expect(factory.accepts({ databaseUrl: 'postgres://h/db', sqlitePath: '' })).toBe(true)
    expect(factory.accepts({ databaseUrl: 'postgresql://h/db', sqlitePath: '' })).toBe(true)
    expect(factory.accepts({ databaseUrl: '', sqlitePath: '/tmp/x.sqlite' })).toBe(false)
  })

  it('reports its health, and an unreachable database as not ok', async () => {
    const pg = await createPgSchema()
    const queue = createPgBossQueue({ databaseUrl: TEST_DATABASE_URL, schema: pg.schema })
    try {
      expect(await queue.healthcheck()).toMatchObject({ ok: true })
    } finally {
      await queue.stop()
      await pg.drop()
    }
    const down = createPgBossQueue({ databaseUrl: 'postgres://postgres@127.0.0.1:1/test' })
    expect(await down.healthcheck()).toMatchObject({ ok: false })
    await down.stop()
  })
})
