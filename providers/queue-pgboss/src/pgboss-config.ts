import { type Static, Type } from 'typebox'

/** What the queue does when a setting is not given (the plugin's config and direct callers alike). */
export const PGBOSS_DEFAULTS = {
  pollIntervalMs: 1000,
  retryDelaySeconds: 1,
  superviseIntervalSeconds: 10,
  poolSize: 10,
} as const

/**
 * The plugin's config; env names derive from it: DOCSVC_PLUGIN_QUEUE_PGBOSS_POLL_INTERVAL_MS, ...
 * A job's lease is not here: each job carries its own time limit (a render's is
 * DOCSVC_RENDER_TIMEOUT_SECONDS), which pg-boss keeps as the job's expiry.
 */
export const PgBossConfigSchema = Type.Object({
  schema: Type.String({
    default: '',
    // pg-boss's own limit is 50 bytes; a plain identifier, since the queue names it in SQL verbatim
    pattern: '^([a-z_][a-z0-9_]{0,49})?$',
    description:
      "PostgreSQL schema of the queue's tables; empty: <schema of DOCSVC_DATABASE_URL's search_path>_queue, else docsvc_queue",
  }),
  pollIntervalMs: Type.Integer({
    minimum: 100,
    maximum: 60_000,
    default: PGBOSS_DEFAULTS.pollIntervalMs,
    description: 'idle workers look for jobs this often (retries, a missed notification)',
  }),
  retryDelaySeconds: Type.Integer({
    minimum: 0,
    maximum: 3600,
    default: PGBOSS_DEFAULTS.retryDelaySeconds,
    description: 'wait before a failed or lost job runs again',
  }),
  superviseIntervalSeconds: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: PGBOSS_DEFAULTS.superviseIntervalSeconds,
    description: 'how often jobs whose worker died (their time limit passed) are put back',
  }),
  poolSize: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: PGBOSS_DEFAULTS.poolSize,
    description: 'PostgreSQL connections of the queue per process',
  }),
})

export type PgBossConfig = Static<typeof PgBossConfigSchema>
