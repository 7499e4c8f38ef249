import { type FeatureModule, singletons } from '../kernel/feature-module.ts'
import { IdempotencyStore } from './idempotency-store.ts'

declare module '../kernel/container.ts' {
  interface Cradle {
    idempotencyStore: IdempotencyStore
  }
}

/** Idempotency keys (SPEC 4.1): a retried POST replays the first answer. */
export const idempotencyModule: FeatureModule = {
  id: 'idempotency',
  register({ container }) {
    container.register(singletons({ idempotencyStore: IdempotencyStore }))
  },
}
