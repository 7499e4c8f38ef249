import type { Kysely } from 'kysely'

// Workspace members (issue 16): email, role, verification.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workspace_members')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'text')
    .addColumn('verification_nonce', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('workspace_members_email')
    .on('workspace_members')
    .columns(['workspace_id', 'email'])
    .unique()
    .execute()
}
