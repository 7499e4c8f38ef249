import type { Kysely } from 'kysely'

// Billing: per-workspace cycle settings, the counters of each cycle, and the thresholds a cycle
// reached (the primary key sends each threshold's event once, however many renders race past it).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('billing_accounts')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey())
    .addColumn('cycle_start_day', 'integer', (c) => c.notNull())
    .addColumn('top_up_limit', 'integer')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('billing_cycles')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('cycle_start', 'text', (c) => c.notNull())
    .addColumn('cycle_end', 'text', (c) => c.notNull())
    .addColumn('renders', 'integer', (c) => c.notNull())
    .addColumn('top_ups', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('billing_cycles_pk', ['workspace_id', 'cycle_start'])
    .execute()

  await db.schema
    .createTable('billing_thresholds')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('cycle_start', 'text', (c) => c.notNull())
    .addColumn('threshold', 'text', (c) => c.notNull())
    .addColumn('reached_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('billing_thresholds_pk', ['workspace_id', 'cycle_start', 'threshold'])
    .execute()
}
