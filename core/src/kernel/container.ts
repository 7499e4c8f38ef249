import {
  type AwilixContainer,
  asClass,
  asFunction,
  asValue,
  createContainer,
  InjectionMode,
  Lifetime,
} from 'awilix'
import type { Logger } from 'pino'
import { ApiKeyRepository } from '../api-keys/api-key-repository.ts'
import { ApiKeyService, type AuthContext } from '../api-keys/api-key-service.ts'
import { KeyUsageRecorder } from '../api-keys/key-usage-recorder.ts'
import type { Db } from '../db/database.ts'
import { EventOutbox } from '../events/event-outbox.ts'
import { fileRegistrations } from '../files/file-registrations.ts'
import type { FileUrlSigner } from '../files/file-url-signer.ts'
import { ScratchDirs } from '../files/scratch-dirs.ts'
import { IdempotencyStore } from '../idempotency/idempotency-store.ts'
import type { OutboundGuard } from '../net/outbound-guard.ts'
import { PlanRepository } from '../plans/plan-repository.ts'
import {
  MemoryRateLimitStore,
  type RateLimitStore,
  SqlRateLimitStore,
} from '../rate-limits/rate-limit-store.ts'
import { RateLimiter } from '../rate-limits/rate-limiter.ts'
import { type InlineWebhookCheck, noWebhookDelivery } from '../renders/inline-webhook-check.ts'
import { RenderCompletion } from '../renders/render-completion.ts'
import { type RenderFileLinks, SignedRenderFileLinks } from '../renders/render-file-links.ts'
import { RenderFiles } from '../renders/render-files.ts'
import { RenderProducers } from '../renders/render-producers.ts'
import { RenderReplays } from '../renders/render-replays.ts'
import { RenderRepository } from '../renders/render-repository.ts'
import { RenderRunner } from '../renders/render-runner.ts'
import { RenderSecretBox } from '../renders/render-secrets.ts'
import { RenderService } from '../renders/render-service.ts'
import { RenderSweeper } from '../renders/render-sweeper.ts'
import type { FileStore } from '../sdk/file-contracts.ts'
import type { QueueBackend } from '../sdk/queue-contracts.ts'
import { stampTestFile, type TestMark } from '../test-mark/test-mark.ts'
import { WorkspaceRepository } from '../workspaces/workspace-repository.ts'
import { WorkspaceService } from '../workspaces/workspace-service.ts'
import type { Config } from './config.ts'
import { type FeatureModule, singletons } from './feature-module.ts'
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
  fileStore: FileStore
  fileUrlSigner: FileUrlSigner
  scratchDirs: ScratchDirs
  eventOutbox: EventOutbox
  queue: QueueBackend
  renderRepository: RenderRepository
  renderService: RenderService
  renderCompletion: RenderCompletion
  renderFileLinks: RenderFileLinks
  renderFiles: RenderFiles
  renderProducers: RenderProducers
  renderReplays: RenderReplays
  renderRunner: RenderRunner
  renderSecretBox: RenderSecretBox
  renderSweeper: RenderSweeper
  /** whether a render's own webhook can be delivered (the webhooks feature replaces the stand-in) */
  inlineWebhookCheck: InlineWebhookCheck
  /** stamps TEST on a test render's finished file */
  testMark: TestMark
  /** request scope only: the authenticated caller */
  auth: AuthContext
}

export function buildContainer(parts: {
  config: Config
  db: Db
  log: Logger
  plugins: PluginSet
  outboundGuard: OutboundGuard
  queue: QueueBackend
  features?: FeatureModule[]
  testMark?: TestMark
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
    testMark: asValue(parts.testMark ?? stampTestFile),
    // replaced by the webhooks feature's check when it is loaded (features register after this)
    inlineWebhookCheck: asValue(noWebhookDelivery),
    ...singletons({
      planRepository: PlanRepository,
      workspaceRepository: WorkspaceRepository,
      workspaceService: WorkspaceService,
      apiKeyRepository: ApiKeyRepository,
      apiKeyService: ApiKeyService,
      rateLimiter: RateLimiter,
      idempotencyStore: IdempotencyStore,
      eventOutbox: EventOutbox,
      renderRepository: RenderRepository,
      renderService: RenderService,
      renderCompletion: RenderCompletion,
      renderFileLinks: SignedRenderFileLinks,
      renderFiles: RenderFiles,
      renderReplays: RenderReplays,
      renderRunner: RenderRunner,
      renderSecretBox: RenderSecretBox,
      renderSweeper: RenderSweeper,
      scratchDirs: ScratchDirs,
    }),
    keyUsageRecorder: asClass(KeyUsageRecorder, { ...singleton, dispose: (r) => r.dispose() }),
    // cluster mode shares counters through PostgreSQL; one embedded process keeps them in memory
    rateLimitStore: asValue<RateLimitStore>(
      parts.db.dialect === 'postgres' ? new SqlRateLimitStore(parts.db) : new MemoryRateLimitStore(),
    ),
    ...fileRegistrations(parts),
    queue: asValue(parts.queue),
  })
  const features = parts.features ?? []
  for (const feature of features) feature.register?.(container)
  container.register({
    renderProducers: asFunction(
      (cradle: Cradle) => new RenderProducers(features.flatMap((f) => f.producers?.(cradle) ?? [])),
      singleton,
    ),
  })
  return container
}
