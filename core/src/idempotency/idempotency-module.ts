import { singletons } from '../kernel/feature-module.ts'
import type { PlatformModule } from '../kernel/platform-module.ts'
import { IdempotencyStore } from './idempotency-store.ts'

declare module '../kernel/container.ts' {
  interface Cradle {
    idempotencyStore: IdempotencyStore
  }
}

/** Idempotency keys (SPEC 4.1): a retried POST replays the first answer. */
export const idempotencyModule: PlatformModule = {
  id: 'idempotency',
  register(container) {
    container.register(singletons({ idempotencyStore: IdempotencyStore }))
  },
}
