import type { Kysely } from 'kysely'

// Storage destinations (SPEC 2.8). One row per destination of a workspace; deliveries of files
// to them come with their own table when delivery is built.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('storage_destinations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('credentials', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull())
    .addColumn('keep_hosted_copy', 'integer', (c) => c.notNull())
    .addColumn('path_template', 'text', (c) => c.notNull())
    .addColumn('last_test', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('storage_destinations_workspace')
    .on('storage_destinations')
    .columns(['workspace_id', 'id'])
    .execute()
}
