import { type Kysely, type RawBuilder, type Selectable, sql } from 'kysely'
import type { Db } from '../db/database.ts'
import type { Database } from '../db/schema.ts'
import { type CycleWindow, cycleByDay, DEFAULT_CYCLE_START_DAY, nextBoundaryAfter } from './billing-cycle.ts'
import type { BillingCycleTable } from './billing-tables.ts'

export interface BillingSettings {
  cycle_start_day: number
  /** top-ups a cycle may take; null: no limit, 0: auto top-ups off */
  top_up_limit: number | null
}

export const DEFAULT_BILLING_SETTINGS: BillingSettings = {
  cycle_start_day: DEFAULT_CYCLE_START_DAY,
  top_up_limit: null,
}

export type CycleRow = Selectable<BillingCycleTable>

/** How one billed render moves a cycle's counters: top-ups are taken only where these allow. */
export interface CountRule {
  included: number
  topUpRenders: number
  /** false: no top-ups at all (the plan has no overage) */
  topUps: boolean
  topUpLimit: number | null
}

/** The billing tables. `reader` / `trx` is the caller's transaction where the work is billed. */
export class BillingRepository {
  readonly #db: Db

  constructor({ db }: { db: Db }) {
    this.#db = db
  }

  async settings(workspaceId: string, reader: Kysely<Database> = this.#db.kysely): Promise<BillingSettings> {
    const row = await reader
      .selectFrom('billing_accounts')
      .select(['cycle_start_day', 'top_up_limit'])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst()
    if (!row) return { ...DEFAULT_BILLING_SETTINGS }
    return {
      cycle_start_day: Number(row.cycle_start_day),
      top_up_limit: row.top_up_limit === null ? null : Number(row.top_up_limit),
    }
  }

  /**
   * Stores the settings; a new start day reshapes the current cycle to end at the new day's next
   * boundary, so the cycle in progress keeps its counters and the new day applies from then on.
   */
  async saveSettings(workspaceId: string, next: BillingSettings, at: Date): Promise<void> {
    await this.#db.kysely.transaction().execute(async (trx) => {
      const before = await this.settings(workspaceId, trx)
      const now = at.toISOString()
      await trx
        .insertInto('billing_accounts')
        .values({ workspace_id: workspaceId, ...next, updated_at: now })
        .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ ...next, updated_at: now }))
        .execute()
      if (before.cycle_start_day === next.cycle_start_day) return
      await trx
        .updateTable('billing_cycles')
        .set({ cycle_end: nextBoundaryAfter(at, next.cycle_start_day).toISOString() })
        .where('workspace_id', '=', workspaceId)
        .where('cycle_start', '<=', now)
        .where('cycle_end', '>', now)
        .execute()
    })
  }

  /** The stored cycle holding `at`, if one was stored. */
  cycleRowAt(workspaceId: string, at: Date, reader: Kysely<Database> = this.#db.kysely) {
    const now = at.toISOString()
    return reader
      .selectFrom('billing_cycles')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('cycle_start', '<=', now)
      .where('cycle_end', '>', now)
      .orderBy('cycle_start', 'desc')
      .executeTakeFirst()
  }

  /**
   * The cycle holding `at`: the stored one, else the one the start day gives (never reaching back
   * before the end of the last stored cycle, which a change of day may have moved).
   */
  async cycleAt(
    workspaceId: string,
    at: Date,
    startDay: number,
    reader: Kysely<Database> = this.#db.kysely,
  ): Promise<CycleWindow & { row?: CycleRow }> {
    const row = await this.cycleRowAt(workspaceId, at, reader)
    if (row) return { start: row.cycle_start, end: row.cycle_end, row }
    const byDay = cycleByDay(at, startDay)
    const last = await reader
      .selectFrom('billing_cycles')
      .select('cycle_end')
      .where('workspace_id', '=', workspaceId)
      .where('cycle_end', '<=', at.toISOString())
      .orderBy('cycle_end', 'desc')
      .executeTakeFirst()
    const start = last && last.cycle_end > byDay.start ? last.cycle_end : byDay.start
    return { start, end: byDay.end }
  }

  /**
   * The key (`cycle_start`) of the cycle holding `at`, its row stored if it was not: idempotent,
   * so admission runs it before its transaction (whose first statement must be a write on SQLite).
   */
  async ensureCycle(
    workspaceId: string,
    at: Date,
    startDay: number,
    writer: Kysely<Database> = this.#db.kysely,
  ): Promise<string> {
    const cycle = await this.cycleAt(workspaceId, at, startDay, writer)
    if (!cycle.row) {
      await writer
        .insertInto('billing_cycles')
        .values({
          workspace_id: workspaceId,
          cycle_start: cycle.start,
          cycle_end: cycle.end,
          renders: 0,
          top_ups: 0,
          reserved: 0,
        })
        .onConflict((oc) => oc.columns(['workspace_id', 'cycle_start']).doNothing())
        .execute()
    }
    return cycle.start
  }

  /**
   * Counts one billed render that held no reservation (admitted before reservations existed) in
   * the cycle holding `at`, inside the caller's transaction: one UPDATE adds the render and, when
   * it runs past what the cycle has, a top-up the rule allows. The row lock makes concurrent
   * counts queue, so none is lost (PostgreSQL re-reads the row a waiting UPDATE lands on; SQLite
   * writes one at a time).
   */
  async count(
    trx: Kysely<Database>,
    workspaceId: string,
    at: Date,
    startDay: number,
    rule: CountRule,
  ): Promise<CycleRow> {
    const cycleStart = await this.ensureCycle(workspaceId, at, startDay, trx)
    const taking = takesTopUp(sql`${sql.ref('renders')} + 1`, rule)
    return trx
      .updateTable('billing_cycles')
      .set({
        renders: sql`${sql.ref('renders')} + 1`,
        top_ups: sql`case when ${taking.allowed} then ${sql.ref('top_ups')} + 1 else ${sql.ref('top_ups')} end`,
      })
      .where('workspace_id', '=', workspaceId)
      .where('cycle_start', '=', cycleStart)
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  /**
   * Reserves one unit of the cycle `cycleStart` for `unitId`, inside the caller's transaction, or
   * nothing when the cycle has none left: one conditional UPDATE (used + reserved below what the
   * cycle allows, or a top-up the rule allows taken in the same statement), so two processes
   * never both take the last unit (PostgreSQL re-checks the WHERE on the row version a waiting
   * UPDATE lands on; SQLite writes one at a time). The UPDATE comes first: it takes SQLite's
   * write lock before anything is read.
   */
  async reserve(
    trx: Kysely<Database>,
    unit: { unitId: string; workspaceId: string; cycleStart: string },
    rule: CountRule,
    at: Date,
  ): Promise<CycleRow | undefined> {
    const taking = takesTopUp(sql`${sql.ref('renders')} + ${sql.ref('reserved')} + 1`, rule)
    const row = await trx
      .updateTable('billing_cycles')
      .set({
        reserved: sql`${sql.ref('reserved')} + 1`,
        top_ups: sql`case when ${taking.needed} then ${sql.ref('top_ups')} + 1 else ${sql.ref('top_ups')} end`,
      })
      .where('workspace_id', '=', unit.workspaceId)
      .where('cycle_start', '=', unit.cycleStart)
      .where(sql<boolean>`not (${taking.needed}) or (${taking.allowed} and ${taking.enough})`)
      .returningAll()
      .executeTakeFirst()
    if (!row) return undefined
    await trx
      .insertInto('billing_reservations')
      .values({
        unit_id: unit.unitId,
        workspace_id: unit.workspaceId,
        cycle_start: unit.cycleStart,
        reserved_at: at.toISOString(),
      })
      .execute()
    return row
  }

  /**
   * Turns `unitId`'s reservation into a used unit of the cycle that granted it (its top-up, if
   * it needed one, was taken at reservation); undefined when the unit held none.
   */
  async settle(trx: Kysely<Database>, unitId: string): Promise<CycleRow | undefined> {
    return this.#endReservation(trx, unitId, { renders: sql<number>`${sql.ref('renders')} + 1` })
  }

  /** Gives `unitId`'s reservation back (the work failed, was canceled or lost); false when it held none. */
  async release(trx: Kysely<Database>, unitId: string): Promise<boolean> {
    return (await this.#endReservation(trx, unitId, {})) !== undefined
  }

  /** Open reservations of a workspace (all cycles): what its billable work in flight holds. */
  async reservations(workspaceId: string): Promise<string[]> {
    const rows = await this.#db.kysely
      .selectFrom('billing_reservations')
      .select('unit_id')
      .where('workspace_id', '=', workspaceId)
      .execute()
    return rows.map((r) => r.unit_id)
  }

  // deleting the reservation first makes ending it idempotent: a second settle or release of
  // the same unit (racing, or retried) finds no row and changes no counter
  async #endReservation(
    trx: Kysely<Database>,
    unitId: string,
    also: { renders?: RawBuilder<number> },
  ): Promise<CycleRow | undefined> {
    const held = await trx
      .deleteFrom('billing_reservations')
      .where('unit_id', '=', unitId)
      .returning(['workspace_id', 'cycle_start'])
      .executeTakeFirst()
    if (!held) return undefined
    return trx
      .updateTable('billing_cycles')
      .set({ reserved: sql`${sql.ref('reserved')} - 1`, ...also })
      .where('workspace_id', '=', held.workspace_id)
      .where('cycle_start', '=', held.cycle_start)
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  /** Records a reached threshold; false when this cycle had already reached it. */
  async markThreshold(
    trx: Kysely<Database>,
    workspaceId: string,
    cycleStart: string,
    threshold: string,
    at: Date,
  ): Promise<boolean> {
    const res = await trx
      .insertInto('billing_thresholds')
      .values({
        workspace_id: workspaceId,
        cycle_start: cycleStart,
        threshold,
        reached_at: at.toISOString(),
      })
      .onConflict((oc) => oc.columns(['workspace_id', 'cycle_start', 'threshold']).doNothing())
      .executeTakeFirst()
    return Number(res.numInsertedOrUpdatedRows ?? 0) > 0
  }

  async reachedThresholds(
    trx: Kysely<Database>,
    workspaceId: string,
    cycleStart: string,
  ): Promise<Set<string>> {
    const rows = await trx
      .selectFrom('billing_thresholds')
      .select('threshold')
      .where('workspace_id', '=', workspaceId)
      .where('cycle_start', '=', cycleStart)
      .execute()
    return new Set(rows.map((r) => r.threshold))
  }
}

/**
 * Whether the unit at position `unit` (1-based count of the cycle's units with it) runs past
 * what the cycle has (`needed`), whether the rule lets a top-up be taken (`allowed`), and whether
 * one top-up then covers it (`enough`). Without overage the included renders are all there is.
 */
function takesTopUp(unit: RawBuilder<unknown>, rule: CountRule) {
  const topUps = sql.ref('top_ups')
  const capacity = rule.topUps
    ? sql`${rule.included} + ${topUps} * ${rule.topUpRenders}`
    : sql`${rule.included}`
  const allowed = !rule.topUps
    ? sql<boolean>`1 = 0`
    : rule.topUpLimit === null
      ? sql<boolean>`1 = 1`
      : sql<boolean>`${topUps} < ${rule.topUpLimit}`
  return {
    needed: sql<boolean>`${unit} > ${capacity}`,
    allowed: sql<boolean>`${sql<boolean>`${unit} > ${capacity}`} and ${allowed}`,
    enough: sql<boolean>`${unit} <= ${rule.included} + (${topUps} + 1) * ${rule.topUpRenders}`,
  }
}
