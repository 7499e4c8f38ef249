import type { Kysely } from 'kysely'

/** The rate limiter's part of `0001-platform` (core/src/db/migrations): cluster-mode counters. */
export async function createRateLimitTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limit_counters')
    .addColumn('bucket', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute()
}
