import { type Kysely, sql, type Updateable } from 'kysely'
import type { Db } from '../db/database.ts'
import { toFlag, toJson } from '../db/json-columns.ts'
import type { Database } from '../db/schema.ts'
import { destinationFromRow, type StorageDestination } from './storage-destination.ts'
import type { StorageDestinationTable } from './storage-tables.ts'

export type DestinationChanges = Partial<
  Pick<
    StorageDestination,
    'name' | 'config' | 'credentials' | 'is_default' | 'keep_hosted_copy' | 'path_template' | 'last_test'
  >
>

function changesToRow(changes: DestinationChanges): Updateable<StorageDestinationTable> {
  const row: Updateable<StorageDestinationTable> = {}
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue
    if (key === 'config' || key === 'last_test') row[key] = toJson(value)
    else if (key === 'is_default' || key === 'keep_hosted_copy') row[key] = toFlag(value as boolean)
    else (row as Record<string, unknown>)[key] = value
  }
  return row
}

/** Storage destinations, always scoped by workspace (DESIGN.md §5). */
export class StorageDestinationRepository {
  readonly #db: Db

  constructor({ db }: { db: Db }) {
    this.#db = db
  }

  /**
   * Inserts the destination unless the workspace already has `limit`; a new default takes the
   * place of the previous one. Both in one transaction, so two creates at once cannot pass the
   * limit or leave two defaults. False when the limit was reached.
   */
  async insert(destination: StorageDestination, limit: number): Promise<boolean> {
    return this.#db.kysely.transaction().execute(async (trx) => {
      await lockWorkspace(this.#db, trx, destination.workspace_id)
      const { count } = await trx
        .selectFrom('storage_destinations')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('workspace_id', '=', destination.workspace_id)
        .executeTakeFirstOrThrow()
      if (Number(count) >= limit) return false
      if (destination.is_default) await clearDefault(trx, destination.workspace_id, destination.id)
      await trx
        .insertInto('storage_destinations')
        .values({
          ...destination,
          config: toJson(destination.config),
          is_default: toFlag(destination.is_default),
          keep_hosted_copy: toFlag(destination.keep_hosted_copy),
          last_test: destination.last_test === null ? null : toJson(destination.last_test),
        })
        .execute()
      return true
    })
  }

  async get(workspaceId: string, id: string): Promise<StorageDestination | undefined> {
    const row = await this.#db.kysely
      .selectFrom('storage_destinations')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst()
    return row ? destinationFromRow(row) : undefined
  }

  /** Every destination of the workspace, oldest first (SPEC 2.2: one page). */
  async list(workspaceId: string): Promise<StorageDestination[]> {
    const rows = await this.#db.kysely
      .selectFrom('storage_destinations')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('id')
      .execute()
    return rows.map(destinationFromRow)
  }

  async update(destination: StorageDestination, changes: DestinationChanges, now: string): Promise<void> {
    await this.#db.kysely.transaction().execute(async (trx) => {
      if (changes.is_default === true) {
        await lockWorkspace(this.#db, trx, destination.workspace_id)
        await clearDefault(trx, destination.workspace_id, destination.id)
      }
      await trx
        .updateTable('storage_destinations')
        .set({ ...changesToRow(changes), updated_at: now })
        .where('id', '=', destination.id)
        .execute()
    })
  }

  async delete(destination: StorageDestination): Promise<void> {
    await this.#db.kysely.deleteFrom('storage_destinations').where('id', '=', destination.id).execute()
  }
}

/**
 * Serialises one workspace's destination writes (the count before an insert, the one default).
 * PostgreSQL: a transaction-scoped advisory lock on the workspace. SQLite: the write transaction
 * already runs alone (a second writer with an older snapshot is refused, not interleaved).
 */
async function lockWorkspace(db: Db, trx: Kysely<Database>, workspaceId: string) {
  if (db.dialect !== 'postgres') return
  await sql`select pg_advisory_xact_lock(hashtext(${`storage_destinations:${workspaceId}`}))`.execute(trx)
}

async function clearDefault(trx: Kysely<Database>, workspaceId: string, exceptId: string) {
  await trx
    .updateTable('storage_destinations')
    .set({ is_default: 0 })
    .where('workspace_id', '=', workspaceId)
    .where('is_default', '=', 1)
    .where('id', '!=', exceptId)
    .execute()
}
