import type { Kysely } from 'kysely'

// Reservations (docs/decisions/0097): a billable render takes one unit of its cycle when it is
// admitted and turns it into a used one when it finishes, so the limit holds exactly however many
// renders are in flight. `reserved` counts a cycle's open reservations (the admission's one
// conditional UPDATE reads it); billing_reservations says which work holds one, so releasing is
// idempotent and a reservation is settled in the cycle that granted it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('billing_cycles')
    .addColumn('reserved', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()

  await db.schema
    .createTable('billing_reservations')
    .addColumn('unit_id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('cycle_start', 'text', (c) => c.notNull())
    .addColumn('reserved_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('billing_reservations_workspace')
    .on('billing_reservations')
    .columns(['workspace_id', 'cycle_start'])
    .execute()
}
