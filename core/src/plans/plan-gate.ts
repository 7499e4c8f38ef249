import type { PluginSet } from '../kernel/plugins/plugin-loader.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import type { PlanFeature } from '../sdk/plan-feature-contracts.ts'
import type { RenderWarning } from '../sdk/render-contracts.ts'
import type { RenderRequest } from '../sdk/render-records.ts'
import { PLAN_FEATURE_TITLES, type Plan } from './plan.ts'
import type { PlanService } from './plan-service.ts'

/** The members a 402 `plan_feature_unavailable` carries beside SPEC 7.1's (decision 0080). */
export interface PlanFeatureProblem {
  /** the feature's key in the plans' `features` */
  feature: string
  /** the lowest plan (by position) that has it; null when no plan of this installation does */
  required_plan: string | null
}

/**
 * The one place that decides whether a workspace's plan has a feature (SPEC 7.3, 7.4). Features
 * declare what a plan may lack in `registries.planFeatures` when they register, core's and a
 * plugin's alike; the gate reads the plan data for the answer and for the lowest plan that
 * would have it, so an operator's `docsvc plan set` changes both at once.
 */
export class PlanGate {
  readonly #declared: PluginSet['registries']['planFeatures']
  readonly #plans: PlanService

  constructor(deps: { plugins: Pick<PluginSet, 'registries'>; planService: PlanService }) {
    this.#declared = deps.plugins.registries.planFeatures
    this.#plans = deps.planService
  }

  /** Whether the plan has the feature; a key the plan data lacks is not in the plan. */
  has(plan: Plan, feature: string): boolean {
    return (plan.features as unknown as Record<string, unknown>)[feature] === true
  }

  /**
   * Throws 402 `plan_feature_unavailable` naming the feature and the lowest plan that has it
   * when `plan` lacks it. `usedAt` says what in the request asked for it, for the detail.
   */
  async require(plan: Plan, feature: string, usedAt?: string): Promise<void> {
    if (this.has(plan, feature)) return
    const lowest = await this.lowestPlanWith(feature)
    const title = this.#title(feature)
    const asked = usedAt ? ` (${usedAt})` : ''
    const where = lowest
      ? `it is included from the ${lowest.name} plan (${lowest.id}) up`
      : 'no plan of this installation includes it'
    const extras: PlanFeatureProblem = { feature, required_plan: lowest?.id ?? null }
    throw new ProblemError(
      'plan_feature_unavailable',
      `${title}${asked} is not in the ${plan.name} plan; ${where}.`,
      { ...extras },
    )
  }

  /**
   * Every declared feature a render request uses must be in the plan: the first one missing,
   * in key order, answers 402. Called once the request is valid, so a field this installation
   * cannot honour yet is a 400 before any plan is asked (decision 0080).
   */
  async requireForRender(plan: Plan, request: RenderRequest): Promise<void> {
    for (const feature of this.#declared.keys()) {
      const usedAt = this.#declared.get(feature)?.usedBy?.(request)
      if (usedAt !== undefined) await this.require(plan, feature, usedAt)
    }
  }

  /**
   * SPEC's skip mode: where a default (a template's e-invoice, a default storage destination)
   * would use a feature the plan lacks, the render goes on without it and carries the feature's
   * warning. Returns that warning, or null when the plan has the feature.
   */
  async skipped(plan: Plan, feature: string): Promise<RenderWarning | null> {
    if (this.has(plan, feature)) return null
    const code = this.#declared.get(feature)?.skipWarning
    if (!code)
      throw new Error(`plan feature ${feature} declares no skipWarning; refuse with require() instead`)
    const lowest = await this.lowestPlanWith(feature)
    const from = lowest ? `; the ${lowest.name} plan and up include it` : ''
    return {
      code,
      message: `${this.#title(feature)} is not in the ${plan.name} plan and was skipped${from}.`,
    }
  }

  /** The first plan by position whose data has the feature on. */
  async lowestPlanWith(feature: string): Promise<Plan | undefined> {
    return (await this.#plans.list()).find((p) => this.has(p, feature))
  }

  /** Declared features by key (sorted): the plan tables and the operator's edits read them. */
  declared(): { key: string; feature: PlanFeature; owner: string | undefined }[] {
    return this.#declared.keys().map((key) => ({
      key,
      feature: this.#declared.get(key) as PlanFeature,
      owner: this.#declared.ownerOf(key),
    }))
  }

  #title(feature: string): string {
    const titles: Record<string, string> = PLAN_FEATURE_TITLES
    return this.#declared.get(feature)?.title ?? titles[feature] ?? feature
  }
}
