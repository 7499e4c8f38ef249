import { type AwilixContainer, asFunction, asValue, createContainer, InjectionMode, Lifetime } from 'awilix'
import type { Logger } from 'pino'
import type { Db } from '../db/database.ts'
import { EventOutbox } from '../events/event-outbox.ts'
import { fileRegistrations } from '../files/file-registrations.ts'
import type { FileUrlSigner } from '../files/file-url-signer.ts'
import { ScratchDirs } from '../files/scratch-dirs.ts'
import type { OutboundGuard } from '../net/outbound-guard.ts'
import { PLATFORM_MODULES } from '../platform-modules.ts'
import { RenderProducers } from '../renders/render-producers.ts'
import type { FileStore } from '../sdk/file-contracts.ts'
import type { QueueBackend } from '../sdk/queue-contracts.ts'
import { stampTestFile, type TestMark } from '../test-mark/test-mark.ts'
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
  fileStore: FileStore
  fileUrlSigner: FileUrlSigner
  scratchDirs: ScratchDirs
  eventOutbox: EventOutbox
  queue: QueueBackend
  renderProducers: RenderProducers
  /** stamps TEST on a test render's finished file */
  testMark: TestMark
}

/**
 * The kernel's own entries, then each platform feature's (plans, workspaces, keys, rate limits,
 * idempotency, renders: core/src/platform-modules.ts) and each feature module's, registered from
 * their folders. Their entries join `Cradle` by declaration merging there.
 */
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
    ...singletons({ eventOutbox: EventOutbox, scratchDirs: ScratchDirs }),
    ...fileRegistrations(parts),
    queue: asValue(parts.queue),
  })
  for (const platform of PLATFORM_MODULES) platform.register(container)
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
