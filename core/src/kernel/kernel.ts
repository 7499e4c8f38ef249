import type { AwilixContainer } from 'awilix'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import type { Logger } from 'pino'
import { type Db, openDatabase } from '../db/database.ts'
import { migrateToLatest } from '../db/migrate.ts'
import { FEATURE_MODULES } from '../features.ts'
import { buildApp } from '../http/app.ts'
import type { HostResolver } from '../net/host-resolver.ts'
import { OutboundGuard } from '../net/outbound-guard.ts'
import { checkProviderChoices } from '../provider-choices.ts'
import { selectQueue } from '../queue/select-queue.ts'
import { RENDER_JOB } from '../renders/render-jobs.ts'
import type { PluginManifest, ProcessRole } from '../sdk/define-plugin.ts'
import { STANDARD_PLUGINS } from '../standard.ts'
import type { TestMark } from '../test-mark/test-mark.ts'
import type { Config } from './config.ts'
import { buildContainer, type Cradle } from './container.ts'
import { ensureDataDir } from './data-dir.ts'
import type { FeatureModule } from './feature-module.ts'
import { createLogger, pluginLogger } from './logger.ts'
import { loadPlugins, type PluginSet } from './plugins/plugin-loader.ts'
import { shutDown } from './shutdown.ts'

export interface KernelOptions {
  config: Config
  env?: NodeJS.ProcessEnv
  roles?: ProcessRole[]
  logger?: Logger
  /** PostgreSQL schema to live in (test isolation) */
  pgSchema?: string
  /** replaces the standard built-in plugins (tests) */
  builtins?: PluginManifest<never>[]
  /** replaces the core feature modules (tests) */
  features?: FeatureModule[]
  pluginSearchPaths?: string[]
  migrate?: boolean
  /** replaces the TEST stamp of test renders (tests whose fake outputs print no real files) */
  testMark?: TestMark
  /** extra /v1 routes; a test seam for cross-cutting behaviour (idempotency, limits) */
  extraV1Routes?: FastifyPluginAsync[]
  /** how the outbound guard resolves names; tests lend a fake DNS (a rebinding name) */
  resolver?: HostResolver
}

export interface Kernel {
  config: Config
  db: Db
  log: Logger
  plugins: PluginSet
  container: AwilixContainer<Cradle>
  app: FastifyInstance
  /** Stops in order within `deadlineMs` (kernel/shutdown.ts); a second call waits for the first. */
  close(deadlineMs?: number): Promise<void>
}

/**
 * Boot in the order of DESIGN.md §4: config (given), database and migrations, plugins
 * (check, register, start for this process's roles), container, HTTP app. The port is opened
 * by the caller (server.ts), only after this resolves.
 */
export async function createKernel(options: KernelOptions): Promise<Kernel> {
  const { config } = options
  const log = options.logger ?? createLogger(config.logLevel)
  const roles = options.roles ?? ['api', 'worker']
  const outboundGuard = new OutboundGuard(config.networkAllow, {
    log,
    ...(options.resolver ? { resolver: options.resolver } : {}),
  })
  ensureDataDir(config.dataDir)
  const plugins = await loadPlugins({
    builtins: options.builtins ?? STANDARD_PLUGINS,
    packages: config.plugins,
    searchPaths: options.pluginSearchPaths ?? config.pluginPaths,
    env: options.env ?? process.env,
    log: pluginLogger(log),
    host: {
      chromiumPath: config.chromiumPath,
      dataDir: config.dataDir,
      mode: config.mode,
      guard: outboundGuard,
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
    const features = options.features ?? FEATURE_MODULES
    const container = buildContainer({
      config,
      db,
      log,
      plugins,
      outboundGuard,
      queue,
      features,
      ...(options.testMark ? { testMark: options.testMark } : {}),
    })
    // a missing secret (cluster mode) stops boot here with its ConfigError, not mid-route
    void container.cradle.fileUrlSigner
    await container.cradle.planRepository.seedDefaults()
    await plugins.start(roles)
    const workerStops: (() => Promise<void>)[] = []
    if (roles.includes('worker')) {
      const { renderRunner, renderSweeper } = container.cradle
      await queue.work(RENDER_JOB, { concurrency: config.workerConcurrency }, renderRunner.handle)
      renderSweeper.start()
      for (const feature of features) {
        if (feature.startWorker) workerStops.push(await feature.startWorker(container.cradle))
      }
    }
    const app = await buildApp({
      container,
      logger: log,
      features,
      ...(options.extraV1Routes ? { extraV1Routes: options.extraV1Routes } : {}),
    })
    await app.ready()
    let closing: Promise<void> | undefined
    const stopWorkers = async (deadlineMs: number) => {
      await container.cradle.renderSweeper.stop()
      for (const stop of workerStops) await stop()
      await queue.stop(deadlineMs)
    }
    const release = async () => {
      await plugins.stop(roles)
      await container.dispose()
      await outboundGuard.close()
      await db.close()
    }
    return {
      config,
      db,
      log,
      plugins,
      container,
      app,
      close(deadlineMs) {
        closing ??= shutDown({ app, stopWorkers, release }, deadlineMs)
        return closing
      },
    }
  } catch (err) {
    await db.close().catch(() => {})
    await outboundGuard.close().catch(() => {})
    throw err
  }
}
