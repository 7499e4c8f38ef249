import type { Kysely } from 'kysely'

// The free workspace limit (SPEC 7.3, docs/decisions/0099): ownerships that ended (an owner
// member removed), counted for 30 days, and one lock row per address (and workspace) that
// serializes the transactions which could give an address another Free workspace.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ended_ownerships')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('ended_ownerships_email')
    .on('ended_ownerships')
    .columns(['email', 'ended_at'])
    .execute()
  await db.schema
    .createTable('owner_limit_locks')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('locked_at', 'text', (c) => c.notNull())
    .execute()
}
