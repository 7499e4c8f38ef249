import { type FeatureModule, singletons } from '../kernel/feature-module.ts'
import { PLAN_FEATURE_TITLES } from '../plans/plan.ts'
import { StorageCredentialBox } from './storage-credential-box.ts'
import { StorageDestinationRepository } from './storage-destination-repository.ts'
import { storageDestinationRoutes } from './storage-destination-routes.ts'
import { STORAGE_PLAN_FEATURE, StorageDestinationService } from './storage-destination-service.ts'
import './storage-tables.ts'

declare module '../kernel/container.ts' {
  interface Cradle {
    storageCredentialBox: StorageCredentialBox
    storageDestinationRepository: StorageDestinationRepository
    storageDestinationService: StorageDestinationService
  }
}

/**
 * Storage destinations (SPEC 2.8, 4.7): the resource and its test. Providers come from plugins
 * (`storageProviders`); delivering render files to them is not built yet
 * (core/src/renders/unbuilt-delivery.ts refuses `delivery.storage`).
 */
export const storageModule: FeatureModule = {
  id: 'storage',
  provides: { planFeatures: [STORAGE_PLAN_FEATURE] },
  register({ container, registries }) {
    registries.planFeatures.add(STORAGE_PLAN_FEATURE, {
      title: PLAN_FEATURE_TITLES.storage_destinations,
      skipWarning: 'storage_skipped_plan',
    })
    container.register(
      singletons({
        storageCredentialBox: StorageCredentialBox,
        storageDestinationRepository: StorageDestinationRepository,
        storageDestinationService: StorageDestinationService,
      }),
    )
  },
  v1Routes: storageDestinationRoutes,
}
