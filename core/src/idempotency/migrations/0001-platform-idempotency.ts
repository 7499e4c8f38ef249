import { type Kysely, sql } from 'kysely'
import { binaryType } from '../../db/dialect-types.ts'

/**
 * The idempotency store's part of `0001-platform` (core/src/db/migrations). Its `replay` column
 * came later, with the renders' `0007-renders-at-rest`, whose name and content cannot change.
 */
export async function createIdempotencyTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('headers', 'text')
    .addColumn('body', sql.raw(binaryType(db)))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['workspace_id', 'key'])
    .execute()
  await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').column('expires_at').execute()
}
