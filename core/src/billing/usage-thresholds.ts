import { Type } from 'typebox'
import type { Plan } from '../plans/plan.ts'
import type { BillingSettings } from './billing-repository.ts'
import { type CycleUsage, rendersAllowed } from './billing-usage.ts'

/**
 * The thresholds of `usage.threshold_reached` (SPEC 6.1): 50 %, 80 % and 100 % of the included
 * renders, and the moment the monthly top-up limit stops further top-ups. Each is sent once per
 * cycle (the billing_thresholds key).
 */
export const USAGE_THRESHOLDS = [
  'included_renders_50',
  'included_renders_80',
  'included_renders_100',
  'top_up_limit',
] as const

export type UsageThreshold = (typeof USAGE_THRESHOLDS)[number]

const PERCENTS: Partial<Record<UsageThreshold, number>> = {
  included_renders_50: 50,
  included_renders_80: 80,
  included_renders_100: 100,
}

/** The thresholds a cycle's counters have reached (already sent ones included). */
export function thresholdsReached(
  counters: { renders: number; top_ups: number },
  plan: Plan,
  settings: BillingSettings,
): UsageThreshold[] {
  const included = plan.limits.included_renders
  const reached: UsageThreshold[] = []
  for (const threshold of USAGE_THRESHOLDS) {
    const percent = PERCENTS[threshold]
    // a plan of 0 included renders reaches every mark with its first render
    if (percent !== undefined && counters.renders >= Math.max(1, Math.ceil((included * percent) / 100)))
      reached.push(threshold)
  }
  // top-ups exist only with overage; the limit stops them once what it allowed is used up
  const allowed = rendersAllowed(plan, settings, counters.top_ups)
  if (plan.features.overage && allowed !== null && counters.renders >= allowed) reached.push('top_up_limit')
  return reached
}

/** `data` of a `usage.threshold_reached` event. */
export function usageThresholdData(threshold: UsageThreshold, usage: CycleUsage) {
  return { object: { object: 'usage_threshold' as const, threshold, ...usage } }
}

const Count = (description: string) => Type.Integer({ minimum: 0, description })

/** The schema of that `data`, for the documentation of the events. */
export const UsageThresholdEventData = Type.Object(
  {
    object: Type.Object(
      {
        object: Type.Literal('usage_threshold'),
        threshold: Type.Enum([...USAGE_THRESHOLDS], {
          description:
            'included_renders_50 / _80 / _100: that share of the included renders is used; top_up_limit: the monthly top-up limit allows no further top-up, so live renders stop (402 render_limit_reached) until the next cycle',
        }),
        cycle_start: Type.String({
          format: 'date-time',
          description: 'Start of the billing cycle (inclusive)',
        }),
        cycle_end: Type.String({ format: 'date-time', description: 'End of the billing cycle (exclusive)' }),
        renders: Count('Billed renders of the cycle so far'),
        included_renders: Count('Renders the plan includes per cycle'),
        overage_renders: Count('Renders beyond the included ones'),
        top_ups: Count('Auto top-ups taken this cycle'),
        top_up_renders: Count('Renders one top-up adds'),
        top_up_limit: Type.Union([Count('Top-ups a cycle may take (0: auto top-ups off)'), Type.Null()]),
        remaining_renders: Count('Included renders not used yet'),
        renders_until_limit: Type.Union(
          [
            Count(
              'Live renders still possible this cycle, top-ups included, less the live renders still queued or running (each holds one)',
            ),
            Type.Null(),
          ],
          {
            description: 'null: no limit (overage without a top-up limit)',
          },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
)
