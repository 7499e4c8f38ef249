import { apiKeysModule } from './api-keys/api-keys-module.ts'
import { idempotencyModule } from './idempotency/idempotency-module.ts'
import type { PlatformModule } from './kernel/platform-module.ts'
import { plansModule } from './plans/plans-module.ts'
import { rateLimitsModule } from './rate-limits/rate-limits-module.ts'
import { rendersModule } from './renders/renders-module.ts'
import { workspacesModule } from './workspaces/workspaces-module.ts'

/**
 * The platform features every process registers, the admin CLI's included, before the feature
 * modules of core/src/features.ts (listed explicitly, no folder scanning). Each registers its own
 * services from its folder; the container only runs the list.
 */
export const PLATFORM_MODULES: readonly PlatformModule[] = [
  plansModule,
  workspacesModule,
  apiKeysModule,
  rateLimitsModule,
  idempotencyModule,
  rendersModule,
]
