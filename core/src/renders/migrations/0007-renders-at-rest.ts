import type { Kysely } from 'kysely'

// Secrets and bytes at rest (docs/decisions/0027-renders-at-rest.md): a render's credentials live
// sealed in their own column until it ends; an idempotent response whose body is a render's file
// keeps a pointer to the render instead of the bytes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('renders').addColumn('secrets', 'text').execute()
  await db.schema.alterTable('idempotency_keys').addColumn('replay', 'text').execute()
}
