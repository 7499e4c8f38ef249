import { type AwilixContainer, asClass, asValue, createContainer, InjectionMode, Lifetime } from 'awilix'
import type { Logger } from 'pino'
import { ApiKeyRepository } from '../api-keys/api-key-repository.ts'
import { ApiKeyService, type AuthContext } from '../api-keys/api-key-service.ts'
import { KeyUsageRecorder } from '../api-keys/key-usage-recorder.ts'
import type { Db } from '../db/database.ts'
import { IdempotencyStore } from '../idempotency/idempotency-store.ts'
import type { OutboundGuard } from '../net/outbound-guard.ts'
import { PlanRepository } from '../plans/plan-repository.ts'
import {
  MemoryRateLimitStore,
  type RateLimitStore,
  SqlRateLimitStore,
} from '../rate-limits/rate-limit-store.ts'
import { RateLimiter } from '../rate-limits/rate-limiter.ts'
import { WorkspaceRepository } from '../workspaces/workspace-repository.ts'
import { WorkspaceService } from '../workspaces/workspace-service.ts'
import type { Config } from './config.ts'
import type { PluginSet } from './plugins/plugin-loader.ts'

/** Everything the container holds; services take the parts they need from it by name. */
export interface Cradle {
  config: Config
  db: Db
  log: Logger
  plugins: PluginSet
  outboundGuard: OutboundGuard
  planRepository: PlanRepository
  workspaceRepository: WorkspaceRepository
  workspaceService: WorkspaceService
  apiKeyRepository: ApiKeyRepository
  apiKeyService: ApiKeyService
  keyUsageRecorder: KeyUsageRecorder
  rateLimitStore: RateLimitStore
  rateLimiter: RateLimiter
  idempotencyStore: IdempotencyStore
  /** request scope only: the authenticated caller */
  auth: AuthContext
}

export function buildContainer(parts: {
  config: Config
  db: Db
  log: Logger
  plugins: PluginSet
  outboundGuard: OutboundGuard
}) {
  const container: AwilixContainer<Cradle> = createContainer<Cradle>({
    injectionMode: InjectionMode.PROXY,
    strict: true,
  })
  const singleton = { lifetime: Lifetime.SINGLETON }
  container.register({
    config: asValue(parts.config),
    db: asValue(parts.db),
    log: asValue(parts.log),
    plugins: asValue(parts.plugins),
    outboundGuard: asValue(parts.outboundGuard),
    planRepository: asClass(PlanRepository, singleton),
    workspaceRepository: asClass(WorkspaceRepository, singleton),
    workspaceService: asClass(WorkspaceService, singleton),
    apiKeyRepository: asClass(ApiKeyRepository, singleton),
    apiKeyService: asClass(ApiKeyService, singleton),
    keyUsageRecorder: asClass(KeyUsageRecorder, { ...singleton, dispose: (r) => r.dispose() }),
    // cluster mode shares counters through PostgreSQL; one embedded process keeps them in memory
    rateLimitStore: asValue<RateLimitStore>(
      parts.db.dialect === 'postgres' ? new SqlRateLimitStore(parts.db) : new MemoryRateLimitStore(),
    ),
    rateLimiter: asClass(RateLimiter, singleton),
    idempotencyStore: asClass(IdempotencyStore, singleton),
  })
  return container
}
