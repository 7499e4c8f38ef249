import { type FeatureModule, singletons } from '../kernel/feature-module.ts'
import { PlanRepository } from './plan-repository.ts'
import { PlanService } from './plan-service.ts'
import './plan-tables.ts'

declare module '../kernel/container.ts' {
  interface Cradle {
    /** the plans table, for this folder and tests; other features use planService */
    planRepository: PlanRepository
    planService: PlanService
  }
}

/** Plans (SPEC 8): the limits and features a workspace's plan gives it. */
export const plansModule: FeatureModule = {
  id: 'plans',
  register({ container }) {
    container.register(singletons({ planRepository: PlanRepository, planService: PlanService }))
  },
  // every process, the admin CLI's too: a fresh database has the default plans before any use
  start: ({ cradle }) => cradle.planService.seedDefaults(),
}
