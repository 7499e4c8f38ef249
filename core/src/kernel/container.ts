import { type AwilixContainer, asValue, createContainer, InjectionMode } from 'awilix'
import type { Logger } from 'pino'
import type { Db } from '../db/database.ts'
import { EventOutbox } from '../events/event-outbox.ts'
import { fileRegistrations } from '../files/file-registrations.ts'
import type { FileUrlSigner } from '../files/file-url-signer.ts'
import { ScratchDirs } from '../files/scratch-dirs.ts'
import type { OutboundGuard } from '../net/outbound-guard.ts'
import type { FileStore } from '../sdk/file-contracts.ts'
import type { QueueBackend } from '../sdk/queue-contracts.ts'
import { stampTestFile, type TestMark } from '../test-mark/test-mark.ts'
import type { Config } from './config.ts'
import { singletons } from './feature-module.ts'
import type { PluginSet } from './plugins/plugin-loader.ts'

/**
 * Everything the container holds; services take the parts they need from it by name. Features
 * (plans, workspaces, renders, templates...) add their entries by declaration merging in their
 * own folders.
 */
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
  /** stamps TEST on a test render's finished file */
  testMark: TestMark
}

/**
 * An empty container, made before the plugins load: features register their services into it
 * during the loader's register step; nothing resolves until the kernel's own parts join it
 * (`registerCore`), so the order of registrations does not matter.
 */
export function createKernelContainer(): AwilixContainer<Cradle> {
  return createContainer<Cradle>({ injectionMode: InjectionMode.PROXY, strict: true })
}

/** The kernel's own parts: config, database, plugins, guard, queue, files, events, TEST mark. */
export function registerCore(
  container: AwilixContainer<Cradle>,
  parts: {
    config: Config
    db: Db
    log: Logger
    plugins: PluginSet
    outboundGuard: OutboundGuard
    queue: QueueBackend
    testMark?: TestMark
  },
): AwilixContainer<Cradle> {
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
  return container
}
