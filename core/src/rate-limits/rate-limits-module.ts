import { asFunction, Lifetime } from 'awilix'
import type { Cradle } from '../kernel/container.ts'
import { type FeatureModule, singletons } from '../kernel/feature-module.ts'
import { MemoryRateLimitStore, type RateLimitStore, SqlRateLimitStore } from './rate-limit-store.ts'
import { RateLimiter } from './rate-limiter.ts'

declare module '../kernel/container.ts' {
  interface Cradle {
    rateLimitStore: RateLimitStore
    rateLimiter: RateLimiter
  }
}

/** Rate limits (SPEC 4.1, 8): fixed-window counters per workspace or client address. */
export const rateLimitsModule: FeatureModule = {
  id: 'rate-limits',
  register({ container }) {
    container.register({
      ...singletons({ rateLimiter: RateLimiter }),
      // cluster mode shares counters through PostgreSQL; one embedded process keeps them in memory
      rateLimitStore: asFunction(
        ({ db }: Cradle): RateLimitStore =>
          db.dialect === 'postgres' ? new SqlRateLimitStore(db) : new MemoryRateLimitStore(),
        { lifetime: Lifetime.SINGLETON },
      ),
    })
  },
}
