import type { AuthContext } from '../api-keys/api-key-service.ts'
import type { CycleUsage } from '../billing/billing-usage.ts'
import type { Plan } from '../plans/plan.ts'

export function accountView(input: {
  auth: AuthContext
  plan: Plan
  /** the current cycle's usage (the billing feature's counters) */
  usage: CycleUsage
  capabilities: Record<string, string[]>
}) {
  const { auth, plan } = input
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
    usage: input.usage,
    capabilities: input.capabilities,
  }
}
