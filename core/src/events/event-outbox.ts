import type { Kysely, Selectable } from 'kysely'
import type { Db } from '../db/database.ts'
import { fromJson, nowIso, toFlag, toJson } from '../db/json-columns.ts'
import type { Database, EventTable } from '../db/schema.ts'
import type { Config } from '../kernel/config.ts'
import { newId } from '../kernel/ids.ts'
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
