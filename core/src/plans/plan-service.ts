import { ProblemError } from '../kernel/problem-error.ts'
import type { Plan } from './plan.ts'
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
    const next = applyPlanChanges(plan, changes)
    await this.#plans.update(next)
    return next
  }
}
