import { singletons } from '../kernel/feature-module.ts'
import type { PlatformModule } from '../kernel/platform-module.ts'
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
export const plansModule: PlatformModule = {
  id: 'plans',
  register(container) {
    container.register(singletons({ planRepository: PlanRepository, planService: PlanService }))
  },
}
