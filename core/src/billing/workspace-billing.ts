import type { PlanService } from '../plans/plan-service.ts'
import type { WorkspaceService } from '../workspaces/workspace-service.ts'
import type { BillingService, BillingSettingsChange } from './billing-service.ts'
import type { CycleUsage } from './billing-usage.ts'

export interface WorkspaceBillingDeps {
  workspaceService: Pick<WorkspaceService, 'get' | 'setPlan'>
  planService: Pick<PlanService, 'get'>
  billingService: Pick<BillingService, 'settings' | 'checkSettings' | 'changeSettings' | 'usageOf'>
}

/** What an operator sees of a workspace's billing (admin API, `docsvc workspace billing`). */
export interface WorkspaceBilling {
  object: 'workspace_billing'
  workspace_id: string
  plan: string
  cycle_start_day: number
  top_up_limit: number | null
  usage: CycleUsage
}

export async function showWorkspaceBilling(
  deps: WorkspaceBillingDeps,
  workspaceId: string,
): Promise<WorkspaceBilling> {
  const ws = await deps.workspaceService.get(workspaceId)
  const plan = await deps.planService.get(ws.plan_id)
  if (!plan) throw new Error(`plan ${ws.plan_id} of workspace ${ws.id} is missing`)
  const settings = await deps.billingService.settings(ws.id)
  return {
    object: 'workspace_billing',
    workspace_id: ws.id,
    plan: plan.id,
    ...settings,
    usage: await deps.billingService.usageOf(ws.id, plan),
  }
}

/**
 * Sets a workspace's plan, cycle start day and top-up limit together: every value is checked
 * before anything is stored (an unknown plan, then the billing settings).
 */
export async function changeWorkspaceBilling(
  deps: WorkspaceBillingDeps,
  workspaceId: string,
  change: BillingSettingsChange & { plan?: string },
): Promise<WorkspaceBilling> {
  const { plan, ...settings } = change
  await deps.workspaceService.get(workspaceId)
  const billing = Object.keys(settings).length > 0
  // the settings are checked first, then the plan (setPlan refuses an unknown one), so a
  // refusal stores nothing
  if (billing) await deps.billingService.checkSettings(workspaceId, settings)
  if (plan !== undefined) await deps.workspaceService.setPlan(workspaceId, plan)
  if (billing) await deps.billingService.changeSettings(workspaceId, settings)
  return showWorkspaceBilling(deps, workspaceId)
}
