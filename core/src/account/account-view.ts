import type { AuthContext } from '../api-keys/api-key-service.ts'
import type { Plan } from '../plans/plan.ts'

/** The billing cycle is the calendar month in UTC. */
export function currentCycle(now = new Date()): { start: string; end: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))
  return { start: start.toISOString(), end: end.toISOString() }
}

export function accountView(input: {
  auth: AuthContext
  plan: Plan
  rendersThisCycle: number
  capabilities: Record<string, string[]>
}) {
  const { auth, plan } = input
  const cycle = currentCycle()
  const included = plan.limits.included_renders
  return {
    object: 'account' as const,
    workspace: {
      id: auth.workspace.id,
      name: auth.workspace.name,
      status: auth.workspace.status,
      regions: auth.workspace.regions,
    },
    key: { id: auth.key.id, mode: auth.key.mode, scopes: auth.key.scopes },
    plan: { id: plan.id, name: plan.name, features: { ...plan.features } },
    limits: { ...plan.limits },
    usage: {
      cycle_start: cycle.start,
      cycle_end: cycle.end,
      renders: input.rendersThisCycle,
      included_renders: included,
      remaining_renders: Math.max(0, included - input.rendersThisCycle),
    },
    capabilities: input.capabilities,
  }
}
