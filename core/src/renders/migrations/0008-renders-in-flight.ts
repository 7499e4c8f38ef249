import { type Kysely, sql } from 'kysely'

// A workspace's renders still queued or running, by mode: what admission counts against the plan's
// `sync_concurrency` (a partial index stays as small as the renders in flight). And the renders
// whose job was never recorded, which the sweeper sends again.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('renders_in_flight')
    .on('renders')
    .columns(['workspace_id', 'mode'])
    .where(sql<boolean>`status IN ('queued', 'processing')`)
    .execute()
  await db.schema
    .createIndex('renders_without_job')
    .on('renders')
    .columns(['created_at'])
    .where(sql<boolean>`status = 'queued' AND job_id IS NULL`)
    .execute()
}
