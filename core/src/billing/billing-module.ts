import { type FeatureModule, singletons } from '../kernel/feature-module.ts'
import { BillingRepository } from './billing-repository.ts'
import { BillingService } from './billing-service.ts'
import './billing-tables.ts'

declare module '../kernel/container.ts' {
  interface Cradle {
    /** the billing tables, for this folder and tests; other features use billingService */
    billingRepository: BillingRepository
    billingService: BillingService
  }
}

/** Billing: each workspace's cycles, their counters, top-ups and usage thresholds. */
export const billingModule: FeatureModule = {
  id: 'billing',
  register({ container }) {
    container.register(singletons({ billingRepository: BillingRepository, billingService: BillingService }))
  },
}
