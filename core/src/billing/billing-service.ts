import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import type { EventOutbox } from '../events/event-outbox.ts'
import { type FieldProblem, ProblemError, validationProblem } from '../kernel/problem-error.ts'
import type { Plan } from '../plans/plan.ts'
import { CYCLE_START_DAYS, type CycleWindow } from './billing-cycle.ts'
import type { BillingRepository, BillingSettings } from './billing-repository.ts'
import { type CycleUsage, countRule, cycleUsage } from './billing-usage.ts'
import { thresholdsReached, usageThresholdData } from './usage-thresholds.ts'

const EMPTY_COUNTERS = { renders: 0, top_ups: 0, reserved: 0 }

/** 402 render_limit_reached, saying which limit was reached and until when. */
function limitReached(plan: Plan, usage: CycleUsage): ProblemError {
  const why = !plan.features.overage
    ? `the ${plan.name} plan's ${usage.included_renders} included renders of this cycle are used up`
    : usage.top_up_limit === 0
      ? `the ${usage.included_renders} included renders of this cycle are used up and auto top-ups are off`
      : `the ${usage.included_renders} included renders and the ${usage.top_ups} top-ups the monthly top-up limit allows are used up`
  return new ProblemError(
    'render_limit_reached',
    `Live renders stop until the cycle ends at ${usage.cycle_end}: ${why}; test keys keep working. Live renders still queued or running count as used.`,
  )
}

/** An operator's change of a workspace's billing settings; values unchecked (CLI, JSON). */
export interface BillingSettingsChange {
  cycle_start_day?: unknown
  top_up_limit?: unknown
}

/**
 * Billing (SPEC 1.13, 7.3 402 render_limit_reached, 6.1 usage.threshold_reached): a workspace's
 * cycles, their counters and thresholds. Billable work reserves a unit when it is admitted
 * (`admission`, in the transaction that stores it) and is counted by `countBilled` inside the
 * transaction that finishes it, or gives the unit back by `release` in the one that ends it
 * otherwise; so the limit holds exactly and each unit is counted once or not at all. The renders
 * feature does this for every render kind (renders, PDF tools, and whatever later features bill
 * through a render). Only this folder touches the billing tables.
 */
export class BillingService {
  readonly #billing: BillingRepository
  readonly #outbox: EventOutbox

  constructor(deps: { billingRepository: BillingRepository; eventOutbox: EventOutbox }) {
    this.#billing = deps.billingRepository
    this.#outbox = deps.eventOutbox
  }

  settings(workspaceId: string): Promise<BillingSettings> {
    return this.#billing.settings(workspaceId)
  }

  /**
   * An operator's change (CLI, admin API), every bad value reported at once. A new start day
   * ends the current cycle at that day's next boundary (docs/decisions/0085).
   */
  async changeSettings(
    workspaceId: string,
    change: BillingSettingsChange,
    now = new Date(),
  ): Promise<BillingSettings> {
    const next = await this.checkSettings(workspaceId, change)
    await this.#billing.saveSettings(workspaceId, next, now)
    return next
  }

  /** The settings a change would give, or a validation_error naming every bad value. */
  async checkSettings(workspaceId: string, change: BillingSettingsChange): Promise<BillingSettings> {
    const next = { ...(await this.#billing.settings(workspaceId)) }
    const problems: FieldProblem[] = []
    if (change.cycle_start_day !== undefined) {
      const day = change.cycle_start_day
      const { minimum, maximum } = CYCLE_START_DAYS
      if (typeof day !== 'number' || !Number.isInteger(day) || day < minimum || day > maximum)
        problems.push({
          path: '/cycle_start_day',
          code: 'range',
          message: `cycle_start_day must be a whole number from ${minimum} to ${maximum} (a day every month has), not ${String(day)}`,
        })
      else next.cycle_start_day = day
    }
    if (change.top_up_limit !== undefined) {
      const limit = change.top_up_limit
      if (limit !== null && (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0))
        problems.push({
          path: '/top_up_limit',
          code: 'range',
          message: `top_up_limit must be a whole number of at least 0 (0: auto top-ups off) or null (no limit), not ${String(limit)}`,
        })
      else next.top_up_limit = limit as number | null
    }
    if (problems.length > 0) throw validationProblem(problems, problems.map((p) => p.message).join('; '))
    return next
  }

  /** The cycle holding `now` (GET /v1/usage's default window). */
  async cycleOf(workspaceId: string, now = new Date()): Promise<CycleWindow> {
    const settings = await this.#billing.settings(workspaceId)
    const { start, end } = await this.#billing.cycleAt(workspaceId, now, settings.cycle_start_day)
    return { start, end }
  }

  /** The current cycle's usage; a cycle nothing was billed in yet starts at zero. */
  async usageOf(workspaceId: string, plan: Plan, now = new Date()): Promise<CycleUsage> {
    const settings = await this.#billing.settings(workspaceId)
    const cycle = await this.#billing.cycleAt(workspaceId, now, settings.cycle_start_day)
    return cycleUsage(cycle, cycle.row ?? EMPTY_COUNTERS, plan, settings)
  }

  /**
   * SPEC 7.3: billable live work (a render, a billed PDF tool run) is admitted only with a unit of
   * the cycle reserved for it (docs/decisions/0097); none left and no top-up possible (no overage
   * on the plan, or the monthly top-up limit reached) is 402 render_limit_reached. The settings
   * are read and the cycle's row stored now; the returned step reserves inside the caller's
   * transaction that stores the work, so the work exists exactly when its reservation does (a
   * refusal rolls both back). Test renders never come here: they are free.
   */
  async admission(
    workspaceId: string,
    plan: Plan,
    now = new Date(),
  ): Promise<(trx: Kysely<Database>, unitId: string) => Promise<void>> {
    const settings = await this.#billing.settings(workspaceId)
    const cycleStart = await this.#billing.ensureCycle(workspaceId, now, settings.cycle_start_day)
    const rule = countRule(plan, settings)
    return async (trx, unitId) => {
      if (await this.#billing.reserve(trx, { unitId, workspaceId, cycleStart }, rule, now)) return
      const row = await this.#billing.cycleRowAt(workspaceId, now, trx)
      const usage = cycleUsage(
        { start: row?.cycle_start ?? cycleStart, end: row?.cycle_end ?? cycleStart },
        row ?? EMPTY_COUNTERS,
        plan,
        settings,
      )
      throw limitReached(plan, usage)
    }
  }

  /**
   * Gives back the unit `unitId` reserved, in `trx`, the transaction that ends the work without
   * billing it (failed, canceled, lost, not billed after all); nothing when it held none.
   */
  async release(trx: Kysely<Database>, unitId: string): Promise<void> {
    await this.#billing.release(trx, unitId)
  }

  /**
   * Counts one billed unit of work in `trx`, the transaction that finishes it: its reservation
   * becomes a used unit of the cycle that granted it (work admitted before reservations existed
   * is counted in the cycle holding `at`). Writes the `usage.threshold_reached` events the used
   * units cross into the outbox (once per cycle and threshold, however many renders race past
   * it): thresholds follow use, what GET /v1/usage shows, not reservations.
   */
  async countBilled(
    trx: Kysely<Database>,
    input: { unitId: string; workspaceId: string; plan: Plan; at: Date },
  ): Promise<void> {
    const { unitId, workspaceId, plan, at } = input
    const settings = await this.#billing.settings(workspaceId, trx)
    const row =
      (await this.#billing.settle(trx, unitId)) ??
      (await this.#billing.count(trx, workspaceId, at, settings.cycle_start_day, countRule(plan, settings)))
    const counters = {
      renders: Number(row.renders),
      top_ups: Number(row.top_ups),
      reserved: Number(row.reserved),
    }
    const reached = thresholdsReached(counters, plan, settings)
    if (reached.length === 0) return
    const sent = await this.#billing.reachedThresholds(trx, workspaceId, row.cycle_start)
    const usage = cycleUsage({ start: row.cycle_start, end: row.cycle_end }, counters, plan, settings)
    for (const threshold of reached) {
      if (sent.has(threshold)) continue
      if (!(await this.#billing.markThreshold(trx, workspaceId, row.cycle_start, threshold, at))) continue
      await this.#outbox.emit(trx, {
        workspaceId,
        type: 'usage.threshold_reached',
        test: false,
        data: usageThresholdData(threshold, usage),
      })
    }
  }
}
