import { definePlugin, type QueueBackendFactory } from '@docsvc/core/sdk'
import { type PgBossConfig, PgBossConfigSchema } from './pgboss-config.ts'
import { createPgBossQueue } from './pgboss-queue.ts'

export { PGBOSS_DEFAULTS, type PgBossConfig, PgBossConfigSchema } from './pgboss-config.ts'

export { createPgBossQueue, PgBossQueue, type PgBossQueueOptions } from './pgboss-queue.ts'

/** The cluster queue: pg-boss on the installation's PostgreSQL. */
export const queuePgBossPlugin = definePlugin<PgBossConfig>({
  id: 'queue-pgboss',
  apiVersion: '^1',
  provides: { queueBackends: ['pgboss'] },
  config: PgBossConfigSchema,
  register({ registries, log, config }) {
    const factory: QueueBackendFactory = {
      id: 'pgboss',
      accepts: (ctx) => /^postgres(ql)?:\/\//i.test(ctx.databaseUrl),
      create: (ctx) =>
        createPgBossQueue({
          databaseUrl: ctx.databaseUrl,
          // the operator's schema, else the one beside the installation's (ctx), else the default
          ...(config.schema || ctx.schema ? { schema: config.schema || ctx.schema } : {}),
          pollIntervalMs: config.pollIntervalMs,
          retryDelaySeconds: config.retryDelaySeconds,
          superviseIntervalSeconds: config.superviseIntervalSeconds,
          poolSize: config.poolSize,
          onError: (err) => log.error('pg-boss queue error', { err: String(err) }),
        }),
    }
    registries.queueBackends.add('pgboss', factory)
  },
})
