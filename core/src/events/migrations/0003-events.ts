import { type Kysely, sql } from 'kysely'

// The event outbox: events are written in the transaction of the change that causes them and
// delivered afterwards, so a crash between commit and send loses none.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('test', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('dispatched_at', 'text')
    .execute()
  // partial: the dispatcher scans only what is left to send, however long the history grows
  await db.schema
    .createIndex('events_pending')
    .on('events')
    .column('id')
    .where(sql.ref('dispatched_at'), 'is', null)
    .execute()
}
