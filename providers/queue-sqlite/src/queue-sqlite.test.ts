import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { runQueueContract } from '@docsvc/core/testing'
import { describe, expect, it } from 'vitest'
import { queueSqlitePlugin } from './index.ts'
import { createSqliteQueue, type SqliteQueueOptions } from './sqlite-queue.ts'

runQueueContract('sqlite', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-queue-'))
  const options: SqliteQueueOptions = {
    sqlitePath: path.join(dir, 'docsvc.sqlite'),
    pollIntervalMs: 200,
    retryDelaySeconds: 0,
  }
  return {
    makeBackend: () => createSqliteQueue(options),
    child: {
      module: fileURLToPath(new URL('./sqlite-queue.ts', import.meta.url)),
      exportName: 'createSqliteQueue',
      options: { ...options },
    },
    close: async () => rmSync(dir, { recursive: true, force: true }),
  }
})

describe('queue-sqlite plugin', () => {
  it('registers the sqlite backend, which serves installations without a database URL', () => {
    const added = new Map<string, unknown>()
    const registries = { queueBackends: { add: (key: string, value: unknown) => added.set(key, value) } }
    const log = { info() {}, warn() {}, error() {}, debug() {} }
    queueSqlitePlugin.register({ registries, log } as never)
    const factory = added.get('sqlite') as { accepts(ctx: object): boolean }
    expect([...added.keys()]).toEqual(queueSqlitePlugin.provides.queueBackends)
    expect(factory.accepts({ databaseUrl: '', sqlitePath: '/tmp/x.sqlite' })).toBe(true)
    expect(factory.accepts({ databaseUrl: 'postgres://h/db', sqlitePath: '/tmp/x.sqlite' })).toBe(false)
  })
})
