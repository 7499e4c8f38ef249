import type { Insertable, Kysely, Selectable } from 'kysely'
import type { Db } from '../db/database.ts'
import { toFlag } from '../db/json-columns.ts'
import type { Database } from '../db/schema.ts'
import { type DeliveryStatus, deliveryFromRow, type WebhookDelivery } from './webhook-delivery.ts'
import type { WebhookDeliveryAttemptTable, WebhookDeliveryTable } from './webhook-tables.ts'

export interface DeliveryListFilter {
  workspaceId: string
  test: boolean
  limit: number
  endpointId?: string
  renderId?: string
  status?: DeliveryStatus
  /** cursor: ids older than this one */
  before?: string
}

export interface AttemptOutcome {
  attempt: number
  url: string
  sentAt: Date
  requestHeaders: Record<string, string>
  responseStatus: number | null
  responseBody: string | null
  latencyMs: number
  error: string | null
  status: DeliveryStatus
  nextAttemptAt: Date | null
}

/** Deliveries and their attempts; the rows are also the durable retry schedule. */
export class WebhookDeliveryRepository {
  readonly #db: Db

  constructor({ db }: { db: Db }) {
    this.#db = db
  }

  async insertMany(rows: Insertable<WebhookDeliveryTable>[], writer: Kysely<Database> = this.#db.kysely) {
    // a few hundred rows per statement keeps under both dialects' bind-parameter limits
    for (let i = 0; i < rows.length; i += 200) {
      await writer
        .insertInto('webhook_deliveries')
        .values(rows.slice(i, i + 200))
        .execute()
    }
  }

  async get(workspaceId: string, test: boolean, id: string): Promise<WebhookDelivery | undefined> {
    const row = await this.#db.kysely
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('test', '=', toFlag(test))
      .where('id', '=', id)
      .executeTakeFirst()
    return row ? deliveryFromRow(row) : undefined
  }

  async getById(id: string): Promise<WebhookDelivery | undefined> {
    const row = await this.#db.kysely
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    return row ? deliveryFromRow(row) : undefined
  }

  /** Newest first; one row more than `limit` tells the caller there is another page. */
  async list(f: DeliveryListFilter): Promise<WebhookDelivery[]> {
    let q = this.#db.kysely
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('workspace_id', '=', f.workspaceId)
      .where('test', '=', toFlag(f.test))
    if (f.endpointId) q = q.where('endpoint_id', '=', f.endpointId)
    if (f.renderId) q = q.where('render_id', '=', f.renderId)
    if (f.status) q = q.where('status', '=', f.status)
    if (f.before) q = q.where('id', '<', f.before)
    const rows = await q
      .orderBy('id', 'desc')
      .limit(f.limit + 1)
      .execute()
    return rows.map(deliveryFromRow)
  }

  async attempts(deliveryId: string): Promise<Selectable<WebhookDeliveryAttemptTable>[]> {
    return this.#db.kysely
      .selectFrom('webhook_delivery_attempts')
      .selectAll()
      .where('delivery_id', '=', deliveryId)
      .orderBy('attempt')
      .execute()
  }

  /**
   * Takes up to `limit` deliveries whose next attempt is due and that no job is carrying
   * (never sent after a crash, or due for a retry), leasing them until `leaseUntil`. Deliveries
   * to a disabled endpoint wait, unless sent on request.
   */
  async leaseDue(now: Date, leaseUntil: Date, limit: number): Promise<{ id: string; attempt: number }[]> {
    const at = now.toISOString()
    const candidates = await this.#db.kysely
      .selectFrom('webhook_deliveries as d')
      .leftJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select('d.id')
      .where('d.due_at', '<=', at)
      .where((eb) =>
        eb.or([eb('d.endpoint_id', 'is', null), eb('d.manual', '=', 1), eb('e.enabled', '=', 1)]),
      )
      .orderBy('d.due_at')
      .limit(limit)
      .execute()
    if (candidates.length === 0) return []
    // the lease is taken again under the same conditions: of two schedulers, one wins each row
    return this.#db.kysely
      .updateTable('webhook_deliveries')
      .set({ due_at: leaseUntil.toISOString() })
      .where(
        'id',
        'in',
        candidates.map((c) => c.id),
      )
      .where('due_at', '<=', at)
      .returning(['id', 'attempt'])
      .execute()
  }

  /** Stretches the hold of deliveries still leased until `from` (their job is queued) to `until`. */
  async extendLease(ids: readonly string[], from: Date, until: Date): Promise<void> {
    if (ids.length === 0) return
    await this.#db.kysely
      .updateTable('webhook_deliveries')
      .set({ due_at: until.toISOString() })
      .where('id', 'in', [...ids])
      .where('due_at', '=', from.toISOString())
      .execute()
  }

  /** Deliveries whose attempt is due and that a job holds (waiting on the queue or running). */
  async countHeld(now: Date): Promise<number> {
    const at = now.toISOString()
    const row = await this.#db.kysely
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('due_at', '>', at)
      .where('next_attempt_at', '<=', at)
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  /**
   * Counts the attempt as started (pending until it ends) and returns the delivery; undefined
   * when that attempt already ran or the delivery is settled.
   */
  async startAttempt(
    id: string,
    attemptsBefore: number,
    leaseUntil: Date,
  ): Promise<WebhookDelivery | undefined> {
    const row = await this.#db.kysely
      .updateTable('webhook_deliveries')
      .set({ attempt: attemptsBefore + 1, status: 'pending', due_at: leaseUntil.toISOString() })
      .where('id', '=', id)
      .where('attempt', '=', attemptsBefore)
      .where('next_attempt_at', 'is not', null)
      .returningAll()
      .executeTakeFirst()
    return row ? deliveryFromRow(row) : undefined
  }

  /** Logs the attempt and settles the delivery or schedules its next attempt, in one transaction. */
  async finishAttempt(id: string, o: AttemptOutcome): Promise<void> {
    const sentAt = o.sentAt.toISOString()
    await this.#db.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhook_delivery_attempts')
        .values({
          delivery_id: id,
          attempt: o.attempt,
          url: o.url,
          sent_at: sentAt,
          request_headers: JSON.stringify(o.requestHeaders),
          response_status: o.responseStatus,
          response_body: o.responseBody,
          latency_ms: o.latencyMs,
          error: o.error,
        })
        .execute()
      await trx
        .updateTable('webhook_deliveries')
        .set({
          status: o.status,
          next_attempt_at: o.nextAttemptAt?.toISOString() ?? null,
          due_at: o.nextAttemptAt?.toISOString() ?? null,
          last_attempt_at: sentAt,
          response_status: o.responseStatus,
          response_body: o.responseBody,
          latency_ms: o.latencyMs,
          error: o.error,
          updated_at: new Date(o.sentAt.getTime() + o.latencyMs).toISOString(),
        })
        .where('id', '=', id)
        .where('attempt', '=', o.attempt)
        .execute()
    })
  }

  /** Deletes deliveries created before `before`, with their attempts (SPEC: kept 30 days). */
  async deleteOlderThan(before: Date): Promise<number> {
    const at = before.toISOString()
    return this.#db.kysely.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('webhook_delivery_attempts')
        .where('delivery_id', 'in', (eb) =>
          eb.selectFrom('webhook_deliveries').select('id').where('created_at', '<', at),
        )
        .execute()
      const res = await trx.deleteFrom('webhook_deliveries').where('created_at', '<', at).executeTakeFirst()
      return Number(res.numDeletedRows)
    })
  }
}
