import { type Kysely, sql } from 'kysely'
import { binaryType } from '../dialect-types.ts'

// Kernel tables: plans, workspaces, API keys and their usage, idempotency, rate-limit counters.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('plans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('features', 'text', (c) => c.notNull())
    .addColumn('limits', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'text', (c) => c.notNull().references('plans.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('ip_allowlist', 'text')
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('regions', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('ip_allowlist', 'text')
    .addColumn('template_allowlist', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('rolled_to', 'text')
    .addColumn('grace_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('last_ip', 'text')
    .execute()
  await db.schema.createIndex('api_keys_workspace').on('api_keys').columns(['workspace_id', 'id']).execute()

  await db.schema
    .createTable('api_key_usage')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('hour', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_key_usage_pk', ['key_id', 'hour'])
    .execute()

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

  await db.schema
    .createTable('rate_limit_counters')
    .addColumn('bucket', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute()
}
