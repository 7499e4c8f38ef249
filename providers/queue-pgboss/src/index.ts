import { definePlugin, type QueueBackendFactory } from '@docsvc/core/sdk'
import { createPgBossQueue } from './pgboss-queue.ts'

export { createPgBossQueue, PgBossQueue, type PgBossQueueOptions } from './pgboss-queue.ts'

/** The cluster queue: pg-boss on the installation's PostgreSQL. */
export const queuePgBossPlugin = definePlugin({
  id: 'queue-pgboss',
  apiVersion: '^1',
  provides: { queueBackends: ['pgboss'] },
  register({ registries, log }) {
    const factory: QueueBackendFactory = {
      id: 'pgboss',
      accepts: (ctx) => /^postgres(ql)?:\/\//i.test(ctx.databaseUrl),
      create: (ctx) =>
        createPgBossQueue({
          databaseUrl: ctx.databaseUrl,
          ...(ctx.schema ? { schema: ctx.schema } : {}),
          onError: (err) => log.error('pg-boss queue error', { err: String(err) }),
        }),
    }
    registries.queueBackends.add('pgboss', factory)
  },
})
