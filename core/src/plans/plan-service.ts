import { ProblemError } from '../kernel/problem-error.ts'
import { PLAN_FEATURE_KEYS, type Plan } from './plan.ts'
import { applyPlanChanges, type PlanChanges } from './plan-changes.ts'
import type { PlanRepository } from './plan-repository.ts'

/**
 * The plans, for every other feature: the access guard and the renders read a workspace's limits
 * here, the workspaces check a plan exists, the operator (CLI, admin API) lists and edits them.
 * Only this folder touches the plans table.
 */
export class PlanService {
  readonly #plans: PlanRepository

  constructor(deps: { planRepository: PlanRepository }) {
    this.#plans = deps.planRepository
  }

  /** Inserts the default plans that are missing; operator edits of existing rows are kept. */
  seedDefaults(): Promise<void> {
    return this.#plans.seedDefaults()
  }

  /**
   * Writes a value for each declared feature into the plans whose data has none yet (a plugin
   * installed after the plans were seeded): true from `includedFrom` on by position, or on
   * every plan without it; false everywhere when `includedFrom` names no plan. Operator edits
   * are never overwritten.
   */
  async seedFeatures(features: readonly { key: string; includedFrom?: string | undefined }[]): Promise<void> {
    const plans = await this.#plans.list()
    for (const plan of plans) {
      const stored = plan.features as unknown as Record<string, boolean>
      const missing = features.filter((f) => !Object.hasOwn(stored, f.key))
      if (missing.length === 0) continue
      for (const { key, includedFrom } of missing) {
        const from = includedFrom === undefined ? plan : plans.find((p) => p.id === includedFrom)
        stored[key] = from !== undefined && plan.position >= from.position
      }
      await this.#plans.update(plan)
    }
  }

  list(): Promise<Plan[]> {
    return this.#plans.list()
  }

  get(id: string): Promise<Plan | undefined> {
    return this.#plans.get(id)
  }

  /** An operator's edit (CLI, admin API): checked against the known features and limits. */
  async change(id: string, changes: PlanChanges): Promise<Plan> {
    const plan = await this.#plans.get(id)
    if (!plan) {
      const ids = (await this.#plans.list()).map((p) => p.id)
      throw new ProblemError('not_found', `plan ${id} does not exist; plans: ${ids.join(', ')}`)
    }
    // the SPEC features and any a plugin declared (seeded into the plan data at start)
    const known = [...new Set([...PLAN_FEATURE_KEYS, ...Object.keys(plan.features)])]
    const next = applyPlanChanges(plan, changes, known)
    await this.#plans.update(next)
    return next
  }
}
