import type { AwilixContainer } from 'awilix'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import type { Logger } from 'pino'
import type { Db } from '../db/database.ts'
import type { Config } from '../kernel/config.ts'
import type { Cradle } from '../kernel/container.ts'
import type { FeatureModule } from '../kernel/feature-module.ts'
import { bootKernel, type KernelBootOptions, type KernelCore } from '../kernel/kernel.ts'
import type { PluginSet } from '../kernel/plugins/plugin-loader.ts'
import { shutDown } from '../kernel/shutdown.ts'
import { PLATFORM_FEATURES } from '../platform-features.ts'
import type { PluginManifest } from '../sdk/define-plugin.ts'

/**
 * What a process serves. `api` and `worker` are the server's roles (plugins start for them);
 * `cli` is an admin command's: the kernel and its database only, no HTTP, no worker loops, no
 * renderer plugin and no feature module (docs/decisions/0035).
 */
export type ProcessKind = 'api' | 'worker' | 'cli'

export interface KernelOptions extends Omit<KernelBootOptions, 'roles' | 'builtins' | 'features'> {
  /** server roles; default both. [] boots the cli composition. */
  roles?: KernelBootOptions['roles']
  /** replaces the standard built-in plugins (tests) */
  builtins?: PluginManifest<never>[]
  /** replaces the optional features of core/src/features.ts (tests); the platform's always load */
  features?: FeatureModule[]
  /** extra /v1 routes; a test seam for cross-cutting behaviour (idempotency, limits) */
  extraV1Routes?: FastifyPluginAsync[]
}

export interface Kernel {
  config: Config
  db: Db
  log: Logger
  plugins: PluginSet
  container: AwilixContainer<Cradle>
  /** the api module's app; reading it in a process without the api role is a programming error */
  readonly app: FastifyInstance
  /** Stops in order within `deadlineMs` (kernel/shutdown.ts); a second call waits for the first. */
  close(deadlineMs?: number): Promise<void>
}

/** The kinds of a process with these server roles: no role at all is an admin command. */
export function processKinds(roles: KernelBootOptions['roles']): ProcessKind[] {
  return roles.length === 0 ? ['cli'] : roles
}

/**
 * The composition root: boots the kernel, then adds the modules of the process's kinds. Every
 * heavy module (the built-in plugin list, the feature modules, Fastify) is a dynamic import made
 * only for a kind that needs it, so `docsvc key list` loads none of them.
 */
export async function createKernel(options: KernelOptions): Promise<Kernel> {
  const { extraV1Routes, ...rest } = options
  const roles = options.roles ?? ['api', 'worker']
  const kinds = processKinds(roles)
  const serves = !kinds.includes('cli')
  const core = await bootKernel({
    ...rest,
    roles,
    builtins: [
      ...(options.builtins ?? (await builtinPlugins(serves))),
      ...(await externalValidators(options.config, serves)),
    ],
    features: [...PLATFORM_FEATURES, ...(options.features ?? (await optionalFeatures(serves)))],
  })
  let stopWorkers = async (_deadlineMs: number) => {}
  let app: FastifyInstance | undefined
  try {
    if (kinds.includes('worker')) stopWorkers = await startWorker(core)
    if (kinds.includes('api'))
      app = await (await import('../http/http-module.ts')).startHttpModule(core, extraV1Routes)
  } catch (err) {
    await stopWorkers(0).catch(() => {})
    await core.release().catch(() => {})
    throw err
  }
  return kernelOf(core, app, stopWorkers)
}

/** The features beyond the platform's: none for an admin command. */
async function optionalFeatures(serves: boolean): Promise<FeatureModule[]> {
  return serves ? (await import('../features.ts')).FEATURE_MODULES : []
}

async function builtinPlugins(serves: boolean): Promise<PluginManifest<never>[]> {
  if (serves) return (await import('./standard-plugins.ts')).STANDARD_PLUGINS
  return (await import('./provider-plugins.ts')).PROVIDER_PLUGINS
}

/** The operator's veraPDF (DOCSVC_VERAPDF_PATH), for the processes that render (decision 0110). */
async function externalValidators(config: Config, serves: boolean): Promise<PluginManifest<never>[]> {
  if (!serves || !config.verapdfPath) return []
  const { veraPdfPlugin } = await import('../conformance/verapdf/verapdf-validator.ts')
  return [veraPdfPlugin(config.verapdfPath) as PluginManifest<never>]
}

async function startWorker(core: KernelCore) {
  return (await import('./worker-module.ts')).startWorkerModule(core)
}

function kernelOf(
  core: KernelCore,
  app: FastifyInstance | undefined,
  stopWorkers: (deadlineMs: number) => Promise<void>,
): Kernel {
  let closing: Promise<void> | undefined
  return {
    config: core.config,
    db: core.db,
    log: core.log,
    plugins: core.plugins,
    container: core.container,
    get app(): FastifyInstance {
      if (!app) throw new Error('this process has no api role: it built no HTTP app')
      return app
    },
    close(deadlineMs) {
      closing ??= shutDown({ ...(app ? { app } : {}), stopWorkers, release: core.release }, deadlineMs)
      return closing
    },
  }
}
