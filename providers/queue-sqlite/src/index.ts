import { definePlugin, type QueueBackendFactory } from '@docsvc/core/sdk'
import { createSqliteQueue } from './sqlite-queue.ts'

export { createSqliteQueue, SqliteQueue, type SqliteQueueOptions } from './sqlite-queue.ts'

/** The embedded queue: a table in the installation's SQLite file. */
export const queueSqlitePlugin = definePlugin({
  id: 'queue-sqlite',
  apiVersion: '^1',
  provides: { queueBackends: ['sqlite'] },
  register({ registries, log }) {
    const factory: QueueBackendFactory = {
      id: 'sqlite',
      accepts: (ctx) => !ctx.databaseUrl,
      create: (ctx) =>
        createSqliteQueue({
          sqlitePath: ctx.sqlitePath,
          onError: (err) => log.error('SQLite queue error', { err: String(err) }),
        }),
    }
    registries.queueBackends.add('sqlite', factory)
  },
})
