import type { AwilixContainer } from 'awilix'
import type { Cradle } from './container.ts'

/**
 * A platform feature (plans, workspaces, API keys, rate limits, idempotency, renders): one every
 * process registers, the admin CLI's included, before any feature module, since the features and
 * the kernel build on its services. It adds them to the container from its own folder, as a
 * FeatureModule's `register` does, and extends `Cradle` there by declaration merging; it has no
 * routes and no lifecycle of its own. Listed in core/src/platform-modules.ts.
 */
export interface PlatformModule {
  /** kebab-case, the feature's folder */
  readonly id: string
  register(container: AwilixContainer<Cradle>): void
}
