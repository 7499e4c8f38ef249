import type { AwilixContainer } from 'awilix'
import type { Logger } from 'pino'
import { type Db, openDatabase } from '../db/database.ts'
import { migrateToLatest } from '../db/migrate.ts'
import type { HostResolver } from '../net/host-resolver.ts'
import { OutboundGuard } from '../net/outbound-guard.ts'
import { checkProviderChoices } from '../provider-choices.ts'
import { selectQueue } from '../queue/select-queue.ts'
import type { PluginManifest, ProcessRole } from '../sdk/define-plugin.ts'
import type { QueueBackend } from '../sdk/queue-contracts.ts'
import type { TestMark } from '../test-mark/test-mark.ts'
import { type Config, einvoiceHostSettings } from './config.ts'
import { type Cradle, createKernelContainer, registerCore } from './container.ts'
import { ensureDataDir } from './data-dir.ts'
import { type FeatureModule, featureManifest } from './feature-module.ts'
import { createLogger, pluginLogger } from './logger.ts'
import { type BoundHealthcheck, loadPlugins, type PluginSet } from './plugins/plugin-loader.ts'

export interface KernelBootOptions {
  config: Config
  env?: NodeJS.ProcessEnv
  /** the roles plugins start for; [] for a process that serves nothing (the admin CLI) */
  roles: ProcessRole[]
  logger?: Logger
  /** PostgreSQL schema to live in (test isolation) */
  pgSchema?: string
  /** the built-in plugins this process loads; the composition root picks them */
  builtins: PluginManifest<never>[]
  /** the core feature modules this process registers; the composition root picks them */
  features: FeatureModule[]
  pluginSearchPaths?: string[]
  migrate?: boolean
  /** replaces the TEST stamp of test renders (tests whose fake outputs print no real files) */
  testMark?: TestMark
  /** how the outbound guard resolves names; tests lend a fake DNS (a rebinding name) */
  resolver?: HostResolver
}

/**
 * What every process shares, whatever it serves: config, database, plugins, container. No HTTP
 * framework and no renderer is imported from here (docs/decisions/0035): the API, the worker
 * loops and the built-in plugin list are modules the composition root (core/src/composition/)
 * adds for the process's roles.
 */
export interface KernelCore {
  config: Config
  db: Db
  log: Logger
  plugins: PluginSet
  container: AwilixContainer<Cradle>
  queue: QueueBackend
  /** in start order (`requires`), for the routes they add */
  features: FeatureModule[]
  roles: ProcessRole[]
  /** the plugins' and features' healthchecks in start order, bound to this kernel (GET /readyz) */
  healthchecks: BoundHealthcheck[]
  /** features, plugins, container, outbound guard, database: the last step of a stop */
  release(): Promise<void>
}

/**
 * Boot in the order of DESIGN.md §4: config (given); plugins and features checked, ordered and
 * registered by one loader (decision 0038); database and migrations; the core's container
 * entries; then start() of every plugin and feature in `requires` order for this process's roles.
 */
export async function bootKernel(options: KernelBootOptions): Promise<KernelCore> {
  const { config, roles } = options
  const container = createKernelContainer()
  const log = options.logger ?? createLogger(config.logLevel)
  const outboundGuard = new OutboundGuard(config.networkAllow, {
    log,
    ...(options.resolver ? { resolver: options.resolver } : {}),
  })
  ensureDataDir(config.dataDir)
  const plugins = await loadPlugins({
    builtins: options.builtins,
    features: options.features.map((f) => featureManifest(f as FeatureModule<never>, container, roles)),
    packages: config.plugins,
    searchPaths: options.pluginSearchPaths ?? config.pluginPaths,
    env: options.env ?? process.env,
    log: pluginLogger(log),
    host: {
      chromiumPath: config.chromiumPath,
      dataDir: config.dataDir,
      mode: config.mode,
      guard: outboundGuard,
      einvoice: einvoiceHostSettings(config),
    },
  })
  checkProviderChoices(config, plugins)
  const db = openDatabase({
    databaseUrl: config.databaseUrl,
    sqlitePath: config.sqlitePath,
    ...(options.pgSchema ? { pgSchema: options.pgSchema } : {}),
  })
  try {
    if (options.migrate ?? config.autoMigrate) await migrateToLatest(db)
    const queue = selectQueue(plugins.registries, config, options.pgSchema)
    registerCore(container, {
      config,
      db,
      log,
      plugins,
      outboundGuard,
      queue,
      ...(options.testMark ? { testMark: options.testMark } : {}),
    })
    // a missing secret (cluster mode) stops boot here with its ConfigError, not mid-route
    void container.cradle.fileUrlSigner
    await plugins.start(roles)
    const byId = new Map(options.features.map((f) => [f.id, f]))
    const features = plugins.plugins.flatMap((p) =>
      p.source === 'feature' ? (byId.get(p.manifest.id) ?? []) : [],
    )
    return {
      config,
      db,
      log,
      plugins,
      container,
      queue,
      features,
      roles,
      healthchecks: plugins.healthchecks,
      async release() {
        await plugins.stop(roles)
        await container.dispose()
        await outboundGuard.close()
        await db.close()
      },
    }
  } catch (err) {
    await container.dispose().catch(() => {})
    await db.close().catch(() => {})
    await outboundGuard.close().catch(() => {})
    throw err
  }
}
