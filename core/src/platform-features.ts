import { apiKeysModule } from './api-keys/api-keys-module.ts'
import { billingModule } from './billing/billing-module.ts'
import { idempotencyModule } from './idempotency/idempotency-module.ts'
import type { FeatureModule } from './kernel/feature-module.ts'
import { membersModule } from './members/members-module.ts'
import { plansModule } from './plans/plans-module.ts'
import { rateLimitsModule } from './rate-limits/rate-limits-module.ts'
import { rendersModule } from './renders/renders-module.ts'
import { workspacesModule } from './workspaces/workspaces-module.ts'

/**
 * The platform features every process loads, the admin CLI's included, ahead of the optional
 * ones of core/src/features.ts (listed explicitly, no folder scanning). Each registers its own
 * services from its folder; the other features and the HTTP and worker modules build on them.
 */
export const PLATFORM_FEATURES: readonly FeatureModule[] = [
  plansModule,
  workspacesModule,
  membersModule,
  apiKeysModule,
  rateLimitsModule,
  idempotencyModule,
  billingModule,
  rendersModule,
]
