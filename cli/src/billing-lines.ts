import type { WorkspaceBilling } from '@docsvc/core'

/** A workspace's billing as `docsvc workspace billing` and `set-billing` print it. */
export function billingLines(b: WorkspaceBilling): string[] {
  const u = b.usage
  const limit =
    b.top_up_limit === null
      ? 'no limit'
      : b.top_up_limit === 0
        ? '0 (auto top-ups off)'
        : String(b.top_up_limit)
  return [
    `workspace        ${b.workspace_id}`,
    `plan             ${b.plan}`,
    `cycle start day  ${b.cycle_start_day}`,
    `top-up limit     ${limit}`,
    `cycle            ${u.cycle_start} to ${u.cycle_end}`,
    `renders          ${u.renders} of ${u.included_renders} included (${u.overage_renders} overage)`,
    `top-ups          ${u.top_ups} of ${u.top_up_renders} renders each`,
    `included left    ${u.remaining_renders}`,
    `until the limit  ${u.renders_until_limit === null ? 'no limit' : u.renders_until_limit}`,
  ]
}
