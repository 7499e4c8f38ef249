import type { Plan } from '../plans/plan.ts'
import type { CycleWindow } from './billing-cycle.ts'
import type { BillingSettings, CountRule } from './billing-repository.ts'

/** A cycle's usage as every reader sees it: GET /v1/account, the admin view, the threshold event. */
export interface CycleUsage {
  cycle_start: string
  cycle_end: string
  /** billed renders of the cycle */
  renders: number
  included_renders: number
  /** renders beyond the included ones (paid through top-ups) */
  overage_renders: number
  /** auto top-ups the cycle took */
  top_ups: number
  /** renders one top-up adds (the plan's `top_up_renders`) */
  top_up_renders: number
  /** top-ups a cycle may take; null: no limit; 0: auto top-ups off */
  top_up_limit: number | null
  /** included renders not used yet */
  remaining_renders: number
  /**
   * live renders still possible this cycle, top-ups included, less those admitted and still
   * running (their units are reserved); null: no limit (overage without a top-up limit)
   */
  renders_until_limit: number | null
}

/** The plan and settings that decide how a billed render moves the counters. */
export function countRule(plan: Plan, settings: BillingSettings): CountRule {
  return {
    included: plan.limits.included_renders,
    topUpRenders: plan.limits.top_up_renders,
    topUps: plan.features.overage,
    topUpLimit: settings.top_up_limit,
  }
}

/**
 * What a cycle holds: included renders, the top-ups taken, and those the limit still allows
 * (SPEC 7.3: without overage the included renders are all; with it, auto top-ups add blocks
 * until the monthly top-up limit). null: no limit.
 */
export function rendersAllowed(plan: Plan, settings: BillingSettings, topUpsTaken: number): number | null {
  const included = plan.limits.included_renders
  if (!plan.features.overage) return included
  if (settings.top_up_limit === null) return null
  return included + Math.max(topUpsTaken, settings.top_up_limit) * plan.limits.top_up_renders
}

export function cycleUsage(
  cycle: CycleWindow,
  counters: { renders: number; top_ups: number; reserved: number },
  plan: Plan,
  settings: BillingSettings,
): CycleUsage {
  const included = plan.limits.included_renders
  const allowed = rendersAllowed(plan, settings, counters.top_ups)
  return {
    cycle_start: cycle.start,
    cycle_end: cycle.end,
    renders: counters.renders,
    included_renders: included,
    overage_renders: Math.max(0, counters.renders - included),
    top_ups: counters.top_ups,
    top_up_renders: plan.limits.top_up_renders,
    top_up_limit: settings.top_up_limit,
    remaining_renders: Math.max(0, included - counters.renders),
    renders_until_limit:
      allowed === null ? null : Math.max(0, allowed - Number(counters.renders) - Number(counters.reserved)),
  }
}
