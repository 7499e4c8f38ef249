import type {
  HealthReport,
  LifecycleContext,
  PluginContext,
  PluginHost,
  PluginLogger,
  ProcessRole,
} from '../../sdk/define-plugin.ts'
import { PLUGIN_API_VERSION } from '../../sdk/define-plugin.ts'
import { ENV_PREFIX } from '../config.ts'
import { envName, loadConfigSection } from '../config-loader.ts'
import {
  createRegistries,
  EXTENSION_POINTS,
  type ExtensionPoint,
  type Registries,
} from './extension-points.ts'
import { type AnyManifest, importPluginPackage, isManifest } from './plugin-import.ts'
import { startAll, stopAll } from './plugin-lifecycle.ts'
import { orderByRequires } from './plugin-order.ts'
import type { Registry } from './registry.ts'

export class PluginBootError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PluginBootError'
  }
}

export interface LoadedPlugin {
  manifest: AnyManifest
  /** where it came from: 'builtin', 'feature' (core's own, kernel/feature-module.ts) or the package name */
  source: string
  config: unknown
  registered: Partial<Record<ExtensionPoint, string[]>>
}

/** One plugin's healthcheck, bound to that plugin's own context. */
export interface BoundHealthcheck {
  id: string
  check(): Promise<HealthReport>
}

export interface PluginSet {
  plugins: LoadedPlugin[]
  registries: Registries
  /** the plugins that have a healthcheck, in load order (GET /readyz runs them) */
  healthchecks: BoundHealthcheck[]
  start(roles: ProcessRole[]): Promise<void>
  /**
   * stop() of what started, in reverse order; `only: 'features'` stops the features alone (their
   * loops end before the queue drains) and leaves the plugins for a later call.
   */
  stop(roles: ProcessRole[], deadlineMs?: number, only?: 'features'): Promise<void>
}

export interface LoadPluginsOptions {
  builtins: AnyManifest[]
  /**
   * Core's features as manifests (kernel/feature-module.ts `featureManifest`): checked, ordered,
   * registered, started and health-checked with the plugins, after every plugin.
   */
  features?: AnyManifest[]
  packages: string[]
  /** directories whose node_modules hold third-party plugins (besides the working directory) */
  searchPaths?: string[]
  env: NodeJS.ProcessEnv
  log: PluginLogger
  host: PluginHost
}

/** `^1`, `^1.2`, `1.x`, `1` and `*` against the kernel's plugin API version. */
export function apiVersionAccepts(range: string, version = PLUGIN_API_VERSION): boolean {
  const major = Number(version.split('.')[0])
  const trimmed = range.trim()
  if (trimmed === '*') return true
  const match = /^\^?(\d+)(?:\.(?:\d+|x))?(?:\.(?:\d+|x))?$/.exec(trimmed)
  return match !== null && Number(match[1]) === major
}

/** The env prefix of a plugin's own config: `DOCSVC_PLUGIN_<ID>` (dashes become underscores). */
export function pluginEnvPrefix(id: string, kind: 'PLUGIN' | 'FEATURE' = 'PLUGIN'): string {
  return envName(`${ENV_PREFIX}_${kind}`, [id.replace(/-/g, '_')])
}

/** How messages name it: a core feature or a plugin (built-in or installed). */
export function nounOf(p: Pick<LoadedPlugin, 'source'>): 'feature' | 'plugin' {
  return p.source === 'feature' ? 'feature' : 'plugin'
}

const KEBAB_CASE = /^[a-z0-9]+(-[a-z0-9]+)*$/

/** Shape, id, apiVersion, provides and config of one plugin; every problem, not the first. */
function checkPlugin(p: LoadedPlugin, env: NodeJS.ProcessEnv): string[] {
  const { id, apiVersion, provides } = p.manifest
  const noun = nounOf(p)
  const problems: string[] = []
  if (!KEBAB_CASE.test(id)) problems.push(`${noun} id "${id}" (${p.source}) is not kebab-case`)
  if (typeof apiVersion !== 'string') problems.push(`${noun} ${id} declares no apiVersion (e.g. '^1')`)
  else if (!apiVersionAccepts(apiVersion))
    problems.push(`${noun} ${id} needs plugin API ${apiVersion}; this docsvc offers ${PLUGIN_API_VERSION}`)
  for (const [point, keys] of Object.entries(provides)) {
    if (!EXTENSION_POINTS.includes(point as ExtensionPoint))
      problems.push(
        `${noun} ${id} provides "${point}", which is not an extension point (${EXTENSION_POINTS.join(', ')})`,
      )
    else if (!Array.isArray(keys)) problems.push(`${noun} ${id} provides ${point} as a list of keys`)
  }
  if (p.manifest.config) {
    const prefix = pluginEnvPrefix(id, noun === 'feature' ? 'FEATURE' : 'PLUGIN')
    const section = loadConfigSection(p.manifest.config, { env, prefix })
    problems.push(...section.problems.map((msg) => `${noun} ${id}: ${msg}`))
    p.config = section.value
  }
  return problems
}

function pluginLog(log: PluginLogger, plugin: string): PluginLogger {
  const at =
    (level: keyof PluginLogger) =>
    (msg: string, data?: Record<string, unknown>): void =>
      log[level](msg, { plugin, ...data })
  return { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') }
}

/** Registries as one plugin sees them: what it adds is recorded under its id. */
function recordingRegistries(real: Registries, plugin: LoadedPlugin): Registries {
  const facade: Record<string, unknown> = {}
  for (const point of EXTENSION_POINTS) {
    const registry = real[point] as Registry<unknown>
    facade[point] = {
      name: registry.name,
      add(key: string, value: unknown) {
        registry.add(key, value, plugin.manifest.id)
        plugin.registered[point] = [...(plugin.registered[point] ?? []), key]
      },
      get: (key: string) => registry.get(key),
      has: (key: string) => registry.has(key),
      keys: () => registry.keys(),
      ownerOf: (key: string) => registry.ownerOf(key),
    }
  }
  return facade as unknown as Registries
}

function sameKeys(a: string[] = [], b: string[] = []): boolean {
  return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n')
}

function register(p: LoadedPlugin, registries: Registries, log: PluginLogger, host: PluginHost): void {
  const { manifest } = p
  const noun = nounOf(p)
  let returned: unknown
  try {
    returned = manifest.register({
      registries: recordingRegistries(registries, p),
      config: p.config as never,
      log: pluginLog(log, manifest.id),
      host,
    })
  } catch (err) {
    throw new PluginBootError(`${noun} ${manifest.id} failed to register: ${(err as Error).message}`)
  }
  if (typeof (returned as Promise<unknown> | undefined)?.then === 'function') {
    throw new PluginBootError(
      `${noun} ${manifest.id}: register() returned a promise; it must only wire things up (do I/O in start())`,
    )
  }
  for (const point of EXTENSION_POINTS) {
    if (!sameKeys(manifest.provides[point], p.registered[point])) {
      throw new PluginBootError(
        `${noun} ${manifest.id} declares ${point} [${(manifest.provides[point] ?? []).join(', ')}] but registered [${(p.registered[point] ?? []).join(', ')}]`,
      )
    }
  }
}

/**
 * Boot steps of DESIGN.md §4 up to register(): gather built-ins and packages, check ids,
 * apiVersion, requires and config (every problem in one error), then register() in order.
 * start() and stop() run later, per process role.
 */
export async function loadPlugins(options: LoadPluginsOptions): Promise<PluginSet> {
  const problems: string[] = []
  const loaded: LoadedPlugin[] = []
  const add = (manifest: AnyManifest, source: string) =>
    loaded.push({ manifest, source, config: {}, registered: {} })
  for (const manifest of options.builtins) {
    if (isManifest(manifest)) add(manifest, 'builtin')
    else problems.push(`a built-in plugin is not a manifest made with definePlugin`)
  }
  for (const name of options.packages) {
    const outcome = await importPluginPackage(name, options.searchPaths ?? [])
    if ('problem' in outcome) problems.push(outcome.problem)
    else add(outcome.manifest, name)
  }
  // last, so a feature starts after every plugin it does not name (an installed queue backend)
  for (const manifest of options.features ?? []) add(manifest, 'feature')

  const sources = new Map<string, string>()
  for (const p of loaded) {
    const other = sources.get(p.manifest.id)
    if (other) problems.push(`${nounOf(p)} id "${p.manifest.id}" is used twice (${other} and ${p.source})`)
    sources.set(p.manifest.id, p.source)
    problems.push(...checkPlugin(p, options.env))
  }
  const { ordered, problems: orderProblems } = orderByRequires(loaded, nounOf)
  problems.push(...orderProblems)
  if (problems.length > 0) throw new PluginBootError(`plugins cannot start:\n  - ${problems.join('\n  - ')}`)

  const registries = createRegistries()
  for (const p of ordered) register(p, registries, options.log, options.host)

  const contextOf = (p: LoadedPlugin): PluginContext<never> => ({
    registries,
    config: p.config as never,
    log: pluginLog(options.log, p.manifest.id),
    host: options.host,
  })
  const lifecycle = ordered.map((p) => ({
    manifest: p.manifest,
    noun: nounOf(p),
    context: (roles: ProcessRole[]): LifecycleContext<never> => ({ ...contextOf(p), roles }),
  }))
  const healthchecks = ordered.flatMap((p): BoundHealthcheck[] => {
    const { healthcheck } = p.manifest
    if (!healthcheck) return []
    return [{ id: p.manifest.id, check: async () => healthcheck.call(p.manifest, contextOf(p)) }]
  })
  const started: typeof lifecycle = []
  return {
    plugins: ordered,
    registries,
    healthchecks,
    start: (roles) =>
      startAll(lifecycle, roles, started, options.log, (message) => new PluginBootError(message)),
    stop: async (roles, deadlineMs = 10_000, only) => {
      const stopping = only ? started.filter((s) => s.noun === 'feature') : [...started]
      await stopAll(stopping, roles, deadlineMs, options.log)
      started.splice(0, started.length, ...started.filter((s) => !stopping.includes(s)))
    },
  }
}
