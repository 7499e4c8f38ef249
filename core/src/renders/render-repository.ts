import { type Kysely, sql } from 'kysely'
import type { BillingService } from '../billing/billing-service.ts'
import type { Db } from '../db/database.ts'
import { fromJson, toFlag, toJson } from '../db/json-columns.ts'
import type { Database } from '../db/schema.ts'
import type { FileFormat, RenderWarning } from '../sdk/render-contracts.ts'
import type { Render, RenderError, RenderFile, RenderRequest, RenderStatus } from './render.ts'
import { endedRequest } from './render-ended-request.ts'
import type { RenderFileTable, RenderTable } from './render-tables.ts'

function toRender(row: RenderTable): Render {
  return {
    ...row,
    test: row.test === 1,
    output_format: row.output_format as FileFormat,
    metadata: fromJson<Record<string, unknown> | null>(row.metadata, null),
    request: fromJson<RenderRequest>(row.request, {} as RenderRequest),
    result: fromJson<Record<string, unknown> | null>(row.result, null),
    warnings: fromJson<RenderWarning[]>(row.warnings, []),
    error: fromJson<RenderError | null>(row.error, null),
  }
}

function toRow(r: Render): RenderTable {
  return {
    ...r,
    test: toFlag(r.test),
    metadata: r.metadata ? toJson(r.metadata) : null,
    request: toJson(r.request),
    result: r.result ? toJson(r.result) : null,
    warnings: toJson(r.warnings),
    error: r.error ? toJson(r.error) : null,
  }
}

function toFile(row: RenderFileTable): RenderFile {
  return { ...row, format: row.format as FileFormat }
}

/** One line of a render's log, with when it was written. */
export interface LogLine {
  at: string
  message: string
}

export interface RenderListFilter {
  workspaceId: string
  test: boolean
  statuses?: RenderStatus[]
  inputType?: string
  outputFormat?: string
  reference?: string
  source?: string
  templateId?: string
  batchId?: string
  createdGte?: string
  createdLte?: string
  metadata?: Record<string, string>
  /** id of the last render of the previous page (lists are newest first) */
  before?: string
  limit: number
}

/** A render's own webhook, as its request names it. */
export type InlineRenderWebhook = NonNullable<RenderRequest['webhook']>

export interface FinishPatch {
  status: 'succeeded' | 'failed'
  result?: Record<string, unknown> | null
  warnings: RenderWarning[]
  error?: RenderError | null
  files_expire_at?: string | null
}

/**
 * A step run first in the transaction that stores a render (billing's reservation of a unit,
 * docs/decisions/0097): when it throws, the render is not stored.
 */
export type Admit = (trx: Kysely<Database>, renderId: string) => Promise<void>

/** A sync render over its limit: thrown inside the insert's transaction so it rolls back. */
const REFUSED = Symbol('sync limit reached')

export class RenderRepository {
  readonly #db: Db
  readonly #billing: Pick<BillingService, 'release'>

  constructor({ db, billingService }: { db: Db; billingService: Pick<BillingService, 'release'> }) {
    this.#db = db
    this.#billing = billingService
  }

  async insert(render: Render, admit?: Admit): Promise<void> {
    if (!admit) {
      await this.#db.kysely.insertInto('renders').values(toRow(render)).execute()
      return
    }
    await this.#db.kysely.transaction().execute(async (trx) => {
      await admit(trx, render.id)
      await trx.insertInto('renders').values(toRow(render)).execute()
    })
  }

  /**
   * Inserts a sync render unless its workspace already has `limit` sync renders queued or running;
   * false when it has. Counted in the database, so every API process of a cluster agrees, and count
   * and insert are one step (two requests cannot both take the last free slot). SQLite: one
   * INSERT ... SELECT ... WHERE, a single statement, so no other connection of this file (the
   * queue's) can write between a read and the write of a longer transaction. PostgreSQL: a
   * per-workspace advisory lock held by the transaction around count and insert. `admit` runs
   * first in the same transaction (on SQLite its write takes the lock, so the INSERT ... SELECT
   * stays one step); a render refused for concurrency rolls its admission back.
   */
  async insertWithinSyncLimit(render: Render, limit: number, admit?: Admit): Promise<boolean> {
    const inFlight = (db: Kysely<Database>) =>
      db
        .selectFrom('renders')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('workspace_id', '=', render.workspace_id)
        .where('mode', '=', 'sync')
        .where('status', 'in', ['queued', 'processing'])
    if (this.#db.dialect === 'sqlite') {
      const row = toRow(render) as unknown as Record<string, unknown>
      const columns = Object.keys(row)
      const insert = async (db: Kysely<Database>) => {
        const result = await sql`INSERT INTO renders (${sql.join(columns.map((column) => sql.ref(column)))})
          SELECT ${sql.join(columns.map((column) => row[column] ?? null))}
          WHERE (${inFlight(db)}) < ${limit}`.execute(db)
        return Number(result.numAffectedRows ?? 0) > 0
      }
      if (!admit) return insert(this.#db.kysely)
      return this.#db.kysely
        .transaction()
        .execute(async (trx) => {
          await admit(trx, render.id)
          if (!(await insert(trx))) throw REFUSED
          return true
        })
        .catch((err: unknown) => (err === REFUSED ? false : Promise.reject(err)))
    }
    return this.#db.kysely
      .transaction()
      .execute(async (trx) => {
        const lockKey = `sync-renders:${render.workspace_id}`
        await sql`SELECT pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))`.execute(trx)
        // admitted first on both databases, so a render both over its limit and its
        // concurrency is told 402 either way
        await admit?.(trx, render.id)
        const { n } = await inFlight(trx).executeTakeFirstOrThrow()
        // thrown, not returned: the admission (billing's reservation) must roll back with it
        if (Number(n) >= limit) throw REFUSED
        await trx.insertInto('renders').values(toRow(render)).execute()
        return true
      })
      .catch((err: unknown) => (err === REFUSED ? false : Promise.reject(err)))
  }

  /** Queued renders whose job was never recorded (the process stopped between insert and send). */
  async withoutJob(createdBefore: string, limit: number): Promise<Render[]> {
    const rows = await this.#db.kysely
      .selectFrom('renders')
      .selectAll()
      .where('status', '=', 'queued')
      .where('job_id', 'is', null)
      .where('created_at', '<', createdBefore)
      .orderBy('created_at')
      .limit(limit)
      .execute()
    return rows.map(toRender)
  }

  /** Scoped by workspace and mode: a test key never sees live renders, and vice versa. */
  async get(workspaceId: string, test: boolean, id: string): Promise<Render | undefined> {
    const row = await this.#db.kysely
      .selectFrom('renders')
      .selectAll()
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .where('test', '=', toFlag(test))
      .executeTakeFirst()
    return row ? toRender(row) : undefined
  }

  async getById(id: string): Promise<Render | undefined> {
    const row = await this.#db.kysely
      .selectFrom('renders')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    return row ? toRender(row) : undefined
  }

  async list(f: RenderListFilter): Promise<Render[]> {
    let q = this.#db.kysely
      .selectFrom('renders')
      .selectAll()
      .where('workspace_id', '=', f.workspaceId)
      .where('test', '=', toFlag(f.test))
    if (f.statuses && f.statuses.length > 0) q = q.where('status', 'in', f.statuses)
    if (f.inputType) q = q.where('input_type', '=', f.inputType)
    if (f.outputFormat) q = q.where('output_format', '=', f.outputFormat)
    if (f.reference !== undefined) q = q.where('reference', '=', f.reference)
    if (f.source) q = q.where('source', '=', f.source)
    if (f.templateId) q = q.where('template_id', '=', f.templateId)
    if (f.batchId) q = q.where('batch_id', '=', f.batchId)
    if (f.createdGte) q = q.where('created_at', '>=', f.createdGte)
    if (f.createdLte) q = q.where('created_at', '<=', f.createdLte)
    if (f.before) q = q.where('id', '<', f.before)
    const rows = await q
      .orderBy('id', 'desc')
      .limit(f.metadata ? 1000 : f.limit + 1)
      .execute()
    let renders = rows.map(toRender)
    // metadata is free-form JSON text in both dialects; its filter runs here
    if (f.metadata) {
      const wanted = Object.entries(f.metadata)
      renders = renders.filter((r) =>
        wanted.every(([k, v]) => r.metadata !== null && String(r.metadata[k]) === v),
      )
    }
    return renders.slice(0, f.limit + 1)
  }

  /** queued -> processing, only from queued (a canceled render is left alone); false when it was not queued. */
  async claim(id: string, now: string): Promise<boolean> {
    const res = await this.#db.kysely
      .updateTable('renders')
      .set((eb) => ({
        status: 'processing',
        started_at: now,
        updated_at: now,
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'processing'])
      .executeTakeFirst()
    return Number(res.numUpdatedRows) > 0
  }

  async setJob(id: string, jobId: string): Promise<void> {
    await this.#db.kysely.updateTable('renders').set({ job_id: jobId }).where('id', '=', id).execute()
  }

  /** Finishes a processing render with its files; billing is recorded in the same transaction, once. */
  async finish(
    render: Render,
    patch: FinishPatch,
    files: RenderFile[],
    /**
     * the billing row, and `count` (the billing feature's counters) run when it is new; without
     * it (a failed, test or unbilled render) the render's reserved unit, if any, is given back
     */
    bill: { kind: string; count: (trx: Kysely<Database>) => Promise<void> } | undefined,
    now: string,
    /** writes the finish's events in the same transaction (the outbox) */
    emit: (trx: Kysely<Database>) => Promise<unknown> = async () => {},
  ): Promise<boolean> {
    return this.#db.kysely.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('renders')
        .set({
          status: patch.status,
          result: patch.result ? toJson(patch.result) : null,
          warnings: toJson(patch.warnings),
          error: patch.error ? toJson(patch.error) : null,
          files_expire_at: patch.files_expire_at ?? null,
          finished_at: now,
          updated_at: now,
          // the run is over: its credentials go, and a zero-retention render keeps no request
          secrets: null,
          request: toJson(endedRequest(render.request, render.retention_days)),
        })
        .where('id', '=', render.id)
        .where('status', '=', 'processing')
        .executeTakeFirst()
      if (Number(res.numUpdatedRows) === 0) return false
      // one statement per 500 rows keeps PostgreSQL's parameter count far under its limit
      for (let i = 0; i < files.length; i += 500) {
        await trx
          .insertInto('render_files')
          .values(files.slice(i, i + 500))
          .execute()
      }
      if (bill) {
        const billed = await trx
          .insertInto('billed_renders')
          .values({
            render_id: render.id,
            workspace_id: render.workspace_id,
            kind: bill.kind,
            billed_at: now,
          })
          .onConflict((oc) => oc.column('render_id').doNothing())
          .executeTakeFirst()
        // counted once: a row already there was counted when it was written
        if (Number(billed.numInsertedOrUpdatedRows ?? 0) > 0) await bill.count(trx)
        else await this.#billing.release(trx, render.id)
      } else await this.#billing.release(trx, render.id)
      await emit(trx)
      return true
    })
  }

  /** Moves a render from one of `from` to `to` (cancel, lost, expired); false when it was elsewhere. */
  async transition(
    id: string,
    from: RenderStatus[],
    to: RenderStatus,
    now: string,
    error?: RenderError,
    emit: (trx: Kysely<Database>) => Promise<unknown> = async () => {},
  ): Promise<boolean> {
    return this.#db.kysely.transaction().execute(async (trx) => {
      const moved = await this.#move(trx, id, from, to, now, error)
      if (moved) await emit(trx)
      return moved
    })
  }

  async #move(
    trx: Kysely<Database>,
    id: string,
    from: RenderStatus[],
    to: RenderStatus,
    now: string,
    error?: RenderError,
  ): Promise<boolean> {
    const ends = to === 'canceled' || to === 'failed'
    const res = await trx
      .updateTable('renders')
      .set({
        status: to,
        updated_at: now,
        ...(ends ? { finished_at: now } : {}),
        ...(error ? { error: toJson(error) } : {}),
        // every move goes to a finished state: the render will not run again
        secrets: null,
      })
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst()
    const moved = Number(res.numUpdatedRows) > 0
    // the render will not run: the unit billing reserved for it goes back (no-op if none)
    if (moved && ends) await this.#billing.release(trx, id)
    if (moved && ends) {
      const row = await trx
        .selectFrom('renders')
        .select(['request', 'retention_days'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      if (row.retention_days === 0) {
        const request = fromJson<RenderRequest>(row.request, {} as RenderRequest)
        await trx
          .updateTable('renders')
          .set({ request: toJson(endedRequest(request, 0)) })
          .where('id', '=', id)
          .execute()
      }
    }
    return moved
  }

  async files(renderId: string): Promise<RenderFile[]> {
    const rows = await this.#db.kysely
      .selectFrom('render_files')
      .selectAll()
      .where('render_id', '=', renderId)
      .orderBy('position')
      .execute()
    return rows.map(toFile)
  }

  async markFilesDeleted(renderId: string, now: string): Promise<void> {
    await this.#db.kysely
      .updateTable('render_files')
      .set({ deleted_at: now })
      .where('render_id', '=', renderId)
      .where('deleted_at', 'is', null)
      .execute()
  }

  /** The files of a render that keeps no hosted copy are gone: nothing left to expire. */
  async markTransientFilesGone(renderId: string, now: string): Promise<void> {
    await this.#db.kysely.transaction().execute(async (trx) => {
      await trx
        .updateTable('render_files')
        .set({ deleted_at: now })
        .where('render_id', '=', renderId)
        .where('deleted_at', 'is', null)
        .execute()
      await trx.updateTable('renders').set({ files_expire_at: null }).where('id', '=', renderId).execute()
    })
  }

  async appendLog(renderId: string, lines: LogLine[]): Promise<void> {
    if (lines.length === 0) return
    const last = await this.#db.kysely
      .selectFrom('render_logs')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('render_id', '=', renderId)
      .executeTakeFirst()
    let seq = Number(last?.seq ?? 0)
    await this.#db.kysely
      .insertInto('render_logs')
      .values(lines.map(({ at, message }) => ({ render_id: renderId, seq: ++seq, at, message })))
      .execute()
  }

  async logs(renderId: string): Promise<LogLine[]> {
    return this.#db.kysely
      .selectFrom('render_logs')
      .select(['at', 'message'])
      .where('render_id', '=', renderId)
      .orderBy('seq')
      .execute()
  }

  /** Renders stuck past `olderThan` in queued/processing: their job was lost. */
  async stale(olderThan: string, limit: number): Promise<Render[]> {
    const rows = await this.#db.kysely
      .selectFrom('renders')
      .selectAll()
      .where('status', 'in', ['queued', 'processing'])
      .where('updated_at', '<', olderThan)
      .limit(limit)
      .execute()
    return rows.map(toRender)
  }

  /** Succeeded renders whose hosted files reached the end of their retention. */
  async expiring(now: string, limit: number): Promise<Render[]> {
    const rows = await this.#db.kysely
      .selectFrom('renders')
      .selectAll()
      .where('status', '=', 'succeeded')
      .where('files_expire_at', '<=', now)
      .limit(limit)
      .execute()
    return rows.map(toRender)
  }

  /**
   * Finished renders whose record outlived its retention: last changed before `cutoff`, and with
   * no hosted files left (a succeeded render with hosted files first expires, which changes it).
   */
  async pastRecordRetention(cutoff: string, limit: number): Promise<Render[]> {
    const rows = await this.#db.kysely
      .selectFrom('renders')
      .selectAll()
      .where('updated_at', '<', cutoff)
      .where((eb) =>
        eb.or([
          eb('status', 'in', ['failed', 'canceled', 'expired']),
          eb.and([eb('status', '=', 'succeeded'), eb('files_expire_at', 'is', null)]),
        ]),
      )
      .limit(limit)
      .execute()
    return rows.map(toRender)
  }

  /** Deletes a render's record, file rows and log; the billing ledger keeps its line. */
  async deleteRecord(id: string): Promise<void> {
    await this.#db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('render_files').where('render_id', '=', id).execute()
      await trx.deleteFrom('render_logs').where('render_id', '=', id).execute()
      await trx.deleteFrom('renders').where('id', '=', id).execute()
    })
  }

  /**
   * The renders' own `webhook` (SPEC 2.16) by render id, for those that have one; `reader` is the
   * caller's transaction when it reads inside one.
   */
  async webhooksOf(
    renderIds: readonly string[],
    reader: Kysely<Database> = this.#db.kysely,
  ): Promise<Map<string, InlineRenderWebhook>> {
    const found = new Map<string, InlineRenderWebhook>()
    if (renderIds.length === 0) return found
    const rows = await reader
      .selectFrom('renders')
      .select(['id', 'request'])
      .where('id', 'in', [...renderIds])
      .execute()
    for (const row of rows) {
      const webhook = fromJson<Partial<RenderRequest>>(row.request, {}).webhook
      if (webhook) found.set(row.id, webhook)
    }
    return found
  }
}
