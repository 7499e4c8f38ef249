import { type FeatureModule, singletons } from '../kernel/feature-module.ts'
import { PlanGate } from './plan-gate.ts'
import { PlanRepository } from './plan-repository.ts'
import { PlanService } from './plan-service.ts'
import './plan-tables.ts'

declare module '../kernel/container.ts' {
  interface Cradle {
    /** the plans table, for this folder and tests; other features use planService */
    planRepository: PlanRepository
    planService: PlanService
    /** whether a workspace's plan has a feature: the one 402 plan_feature_unavailable */
    planGate: PlanGate
  }
}

/** Plans (SPEC 8): the limits and features a workspace's plan gives it. */
export const plansModule: FeatureModule = {
  id: 'plans',
  register({ container }) {
    container.register(
      singletons({ planRepository: PlanRepository, planService: PlanService, planGate: PlanGate }),
    )
  },
  // every process, the admin CLI's too: a fresh database has the default plans, and a value for
  // every feature a plugin declared, before any use (every register() ran before any start())
  async start({ cradle }) {
    await cradle.planService.seedDefaults()
    await cradle.planService.seedFeatures(
      cradle.planGate.declared().map(({ key, feature }) => ({ key, includedFrom: feature.includedFrom })),
    )
  },
}
