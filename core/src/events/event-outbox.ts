import type { Kysely, Selectable } from 'kysely'
import type { Db } from '../db/database.ts'
import { fromJson, nowIso, toFlag, toJson } from '../db/json-columns.ts'
import type { Database } from '../db/schema.ts'
import type { Config } from '../kernel/config.ts'
import { newId } from '../kernel/ids.ts'
import type { EventTable } from './event-tables.ts'
import type { EventEnvelope, EventType } from './event-types.ts'

export interface NewEvent<D extends Record<string, unknown> = Record<string, unknown>> {
  workspaceId: string
  type: EventType
  /** caused by a test-mode object: the envelope then carries `test: true` */
  test: boolean
  data: D
}

/** A Kysely Transaction (itself a Kysely) or the Db, when the change needs no transaction. */
export type EventWriter = Kysely<Database> | Db

/**
 * The transactional outbox of events. `emit` writes the event with the caller's own connection:
 * inside a transaction it commits or rolls back with the change that caused it, so a crash
 * after the commit loses no event and a rolled-back change sends none. The webhook dispatcher
 * reads `pending()` and calls `markDispatched()` once it has handed the events on.
 */
export class EventOutbox {
  readonly #db: Db
  readonly #region: string

  constructor({ db, config }: { db: Db; config: Pick<Config, 'region'> }) {
    this.#db = db
    this.#region = config.region
  }

  async emit<D extends Record<string, unknown>>(
    writer: EventWriter,
    event: NewEvent<D>,
  ): Promise<EventEnvelope<D>> {
    const row: Selectable<EventTable> = {
      id: newId('event'),
      workspace_id: event.workspaceId,
      type: event.type,
      test: toFlag(event.test),
      created_at: nowIso(),
      data: toJson(event.data),
      dispatched_at: null,
    }
    await kyselyOf(writer).insertInto('events').values(row).execute()
    return this.#envelope(row) as EventEnvelope<D>
  }

  /** Undispatched events, oldest first (ids are time-ordered). */
  async pending(limit = 100): Promise<EventEnvelope[]> {
    const rows = await this.#db.kysely
      .selectFrom('events')
      .selectAll()
      .where('dispatched_at', 'is', null)
      .orderBy('id')
      .limit(limit)
      .execute()
    return rows.map((row) => this.#envelope(row))
  }

  /** Marks events as handed on; ids already marked keep their first time. */
  async markDispatched(ids: readonly string[], at: Date = new Date()): Promise<number> {
    if (ids.length === 0) return 0
    const result = await this.#db.kysely
      .updateTable('events')
      .set({ dispatched_at: nowIso(at) })
      .where('id', 'in', [...ids])
      .where('dispatched_at', 'is', null)
      .executeTakeFirst()
    return Number(result.numUpdatedRows)
  }

  /**
   * Takes up to `limit` undispatched events, oldest first, and marks them dispatched inside the
   * caller's transaction: what the caller writes for them commits together with the mark, and of
   * two processes each event goes to one (PostgreSQL skips rows another transaction holds).
   */
  async claimPending(trx: Kysely<Database>, limit: number, at: Date = new Date()): Promise<EventEnvelope[]> {
    let q = trx.selectFrom('events').selectAll().where('dispatched_at', 'is', null).orderBy('id').limit(limit)
    if (this.#db.dialect === 'postgres') q = q.forUpdate().skipLocked()
    const rows = await q.execute()
    if (rows.length === 0) return []
    const claimed = await trx
      .updateTable('events')
      .set({ dispatched_at: nowIso(at) })
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .where('dispatched_at', 'is', null)
      .returning('id')
      .execute()
    const ids = new Set(claimed.map((c) => c.id))
    return rows.filter((r) => ids.has(r.id)).map((row) => this.#envelope(row))
  }

  /** Deletes dispatched events older than `before`; deliveries keep their own copy. */
  async pruneDispatched(before: Date): Promise<number> {
    const res = await this.#db.kysely
      .deleteFrom('events')
      .where('dispatched_at', 'is not', null)
      .where('created_at', '<', nowIso(before))
      .executeTakeFirst()
    return Number(res.numDeletedRows)
  }

  #envelope(row: Selectable<EventTable>): EventEnvelope {
    return {
      id: row.id,
      type: row.type as EventType,
      created_at: row.created_at,
      workspace_id: row.workspace_id,
      region: this.#region,
      data: fromJson<Record<string, unknown>>(row.data, {}),
      ...(row.test === 1 ? { test: true as const } : {}),
    }
  }
}

function kyselyOf(writer: EventWriter): Kysely<Database> {
  return 'kysely' in writer && 'dialect' in writer ? writer.kysely : (writer as Kysely<Database>)
}
