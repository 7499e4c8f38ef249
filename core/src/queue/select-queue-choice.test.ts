import { describe, expect, it } from 'vitest'
import { loadConfig } from '../kernel/config.ts'
import { ConfigError } from '../kernel/config-loader.ts'
import { createRegistries } from '../kernel/plugins/extension-points.ts'
import type { QueueBackend, QueueBackendFactory } from '../sdk/queue-contracts.ts'
import { chooseQueueBackend, selectQueue } from './select-queue.ts'

const PG = 'postgres://docsvc@db/docsvc'

/** A backend that says which factory made it and for which context. */
function fake(id: string, accepts: (databaseUrl: string) => boolean): QueueBackendFactory {
  return {
    id,
    accepts: (ctx) => accepts(ctx.databaseUrl),
    create: (ctx) => ({ made: id, ctx }) as unknown as QueueBackend,
  }
}

/** sqlite and pgboss as built in, and a third-party backend whose key sorts first and accepts all. */
function registries(keys = ['sqlite', 'pgboss', 'aardvark']) {
  const r = createRegistries()
  const all = {
    sqlite: fake('sqlite', (url) => url === ''),
    pgboss: fake('pgboss', (url) => url.startsWith('postgres')),
    aardvark: fake('aardvark', () => true),
  } as Record<string, QueueBackendFactory>
  for (const key of keys) r.queueBackends.add(key, all[key]!)
  return r
}

const made = (queue: QueueBackend) => (queue as unknown as { made: string }).made
const problemOf = (fn: () => unknown): string[] => {
  try {
    fn()
  } catch (err) {
    if (err instanceof ConfigError) return err.problems
    throw err
  }
  return []
}

describe('DOCSVC_QUEUE_BACKEND', () => {
  it('auto picks SQLite embedded and pg-boss in cluster mode, not the first key that accepts', () => {
    expect(made(selectQueue(registries(), loadConfig({})))).toBe('sqlite')
    expect(made(selectQueue(registries(), loadConfig({ DOCSVC_DATABASE_URL: PG })))).toBe('pgboss')
  })

  it('an explicit choice uses that backend, a third party’s too', () => {
    const config = loadConfig({ DOCSVC_DATABASE_URL: PG, DOCSVC_QUEUE_BACKEND: 'aardvark' })
    expect(made(selectQueue(registries(), config))).toBe('aardvark')
    expect(chooseQueueBackend(registries(), loadConfig({ DOCSVC_QUEUE_BACKEND: 'sqlite' }))?.id).toBe(
      'sqlite',
    )
  })

  it('refuses a backend no loaded plugin provides, naming the setting and what is loaded', () => {
    const config = loadConfig({ DOCSVC_QUEUE_BACKEND: 'redis' })
    expect(problemOf(() => selectQueue(registries(), config))).toEqual([
      'DOCSVC_QUEUE_BACKEND: no loaded plugin provides the queue backend "redis" (loaded: aardvark, pgboss, sqlite; or auto)',
    ])
    const pgboss = loadConfig({ DOCSVC_DATABASE_URL: PG, DOCSVC_QUEUE_BACKEND: 'pgboss' })
    expect(problemOf(() => selectQueue(registries(['sqlite']), pgboss))).toEqual([
      'DOCSVC_QUEUE_BACKEND: no loaded plugin provides the queue backend "pgboss" (loaded: sqlite; or auto)',
    ])
  })

  it('refuses a backend that cannot serve the installation: SQLite for a cluster, pg-boss without PostgreSQL', () => {
    expect(
      problemOf(() =>
        selectQueue(registries(), loadConfig({ DOCSVC_DATABASE_URL: PG, DOCSVC_QUEUE_BACKEND: 'sqlite' })),
      ),
    ).toEqual([
      'DOCSVC_QUEUE_BACKEND: the queue backend "sqlite" cannot serve an installation in cluster mode (DOCSVC_DATABASE_URL is set)',
    ])
    expect(
      problemOf(() => selectQueue(registries(), loadConfig({ DOCSVC_QUEUE_BACKEND: 'pgboss' }))),
    ).toEqual([
      'DOCSVC_QUEUE_BACKEND: the queue backend "pgboss" cannot serve an installation in embedded mode',
    ])
  })

  it('auto without the mode’s built-in refuses renders instead of starting another backend', async () => {
    const queue = selectQueue(registries(['aardvark']), loadConfig({}))
    expect(await queue.healthcheck()).toEqual({ ok: false, detail: 'no queue backend installed' })
  })
})
