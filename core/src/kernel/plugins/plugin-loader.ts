import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { LifecycleContext, PluginLogger, PluginManifest, ProcessRole } from '../../sdk/define-plugin.ts'
import { PLUGIN_API_VERSION } from '../../sdk/define-plugin.ts'
import { ENV_PREFIX } from '../config.ts'
import { loadConfigSection } from '../config-loader.ts'
import {
  createRegistries,
  EXTENSION_POINTS,
  type ExtensionPoint,
  type Registries,
} from './extension-points.ts'
import type { Registry } from './registry.ts'

export class PluginBootError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PluginBootError'
  }
}

type AnyManifest = PluginManifest<never>

export interface LoadedPlugin {
  manifest: AnyManifest
  /** where it came from: 'builtin' or the package name */
  source: string
  config: unknown
  registered: Partial<Record<ExtensionPoint, string[]>>
}

export interface PluginSet {
  plugins: LoadedPlugin[]
  registries: Registries
  start(roles: ProcessRole[]): Promise<void>
  stop(roles: ProcessRole[], deadlineMs?: number): Promise<void>
}

export interface LoadPluginsOptions {
  builtins: AnyManifest[]
  packages: string[]
  /** directories whose node_modules hold third-party plugins (besides the working directory) */
  searchPaths?: string[]
  env: NodeJS.ProcessEnv
  log: PluginLogger
}

/** `^1`, `^1.2`, `1.x`, `1` and `*` against the kernel's plugin API version. */
export function apiVersionAccepts(range: string, version = PLUGIN_API_VERSION): boolean {
  const major = Number(version.split('.')[0])
  const trimmed = range.trim()
  if (trimmed === '*') return true
  const match = /^\^?(\d+)(?:\.(?:\d+|x))?(?:\.(?:\d+|x))?$/.exec(trimmed)
  return match !== null && Number(match[1]) === major
}

function isManifest(value: unknown): value is AnyManifest {
  const v = value as AnyManifest | undefined
  return typeof v?.id === 'string' && typeof v.register === 'function' && typeof v.provides === 'object'
}

async function importPackage(name: string, searchPaths: string[]): Promise<AnyManifest> {
  const bases = [...searchPaths, process.cwd()].map((dir) => path.join(path.resolve(dir), 'noop.js'))
  let resolved: string | undefined
  for (const base of bases) {
    try {
      resolved = createRequire(base).resolve(name)
      break
    } catch {}
  }
  if (!resolved) {
    try {
      resolved = createRequire(import.meta.url).resolve(name)
    } catch {
      throw new PluginBootError(
        `plugin package ${name} cannot be found; install it next to docsvc (npm install ${name})`,
      )
    }
  }
  let mod: Record<string, unknown>
  try {
    mod = (await import(pathToFileURL(resolved).href)) as Record<string, unknown>
  } catch (err) {
    throw new PluginBootError(`plugin package ${name} failed to load: ${(err as Error).message}`)
  }
  const manifest = [mod.default, mod.plugin, ...Object.values(mod)].find(isManifest)
  if (!manifest) {
    throw new PluginBootError(
      `plugin package ${name} exports no plugin manifest (use definePlugin from @docsvc/core/sdk)`,
    )
  }
  return manifest
}

/** Orders plugins so that each comes after the ones it requires; refuses missing ones and cycles. */
function sortByRequires(plugins: LoadedPlugin[]): LoadedPlugin[] {
  const byId = new Map(plugins.map((p) => [p.manifest.id, p]))
  const sorted: LoadedPlugin[] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (p: LoadedPlugin, trail: string[]) => {
    const id = p.manifest.id
    if (state.get(id) === 'done') return
    if (state.get(id) === 'visiting') {
      throw new PluginBootError(`plugins require each other in a cycle: ${[...trail, id].join(' -> ')}`)
    }
    state.set(id, 'visiting')
    for (const dep of p.manifest.requires ?? []) {
      const required = byId.get(dep)
      if (!required) throw new PluginBootError(`plugin ${id} requires plugin ${dep}, which is not installed`)
      visit(required, [...trail, id])
    }
    state.set(id, 'done')
    sorted.push(p)
  }
  for (const p of plugins) visit(p, [])
  return sorted
}

function recordingRegistries(real: Registries, plugin: LoadedPlugin): Registries {
  const facade: Partial<Registries> = {}
  for (const point of EXTENSION_POINTS) {
    const registry = real[point] as Registry<unknown>
    ;(facade as Record<string, unknown>)[point] = {
      name: registry.name,
      add(key: string, value: unknown) {
        registry.add(key, value, plugin.manifest.id)
        const list = plugin.registered[point] ?? []
        list.push(key)
        plugin.registered[point] = list
      },
      get: (key: string) => registry.get(key),
      has: (key: string) => registry.has(key),
      keys: () => registry.keys(),
      ownerOf: (key: string) => registry.ownerOf(key),
    }
  }
  return facade as Registries
}

function sameKeys(a: string[] = [], b: string[] = []): boolean {
  return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n')
}

/** Boot steps of DESIGN.md §4 up to register(); start() and stop() run per process role. */
export async function loadPlugins(options: LoadPluginsOptions): Promise<PluginSet> {
  const loaded: LoadedPlugin[] = options.builtins.map((manifest) => ({
    manifest,
    source: 'builtin',
    config: {},
    registered: {},
  }))
  for (const name of options.packages) {
    loaded.push({
      manifest: await importPackage(name, options.searchPaths ?? []),
      source: name,
      config: {},
      registered: {},
    })
  }

  const problems: string[] = []
  const seen = new Map<string, string>()
  for (const p of loaded) {
    const { id, apiVersion } = p.manifest
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id))
      problems.push(`plugin id "${id}" (${p.source}) is not kebab-case`)
    const other = seen.get(id)
    if (other) problems.push(`plugin id "${id}" is used twice (${other} and ${p.source})`)
    seen.set(id, p.source)
    if (!apiVersionAccepts(apiVersion)) {
      problems.push(`plugin ${id} needs plugin API ${apiVersion}; this docsvc offers ${PLUGIN_API_VERSION}`)
    }
    if (p.manifest.config) {
      const section = loadConfigSection(p.manifest.config, {
        env: options.env,
        prefix: `${ENV_PREFIX}_PLUGIN`,
        path: [id.replace(/-/g, '_')],
      })
      problems.push(...section.problems.map((msg) => `plugin ${id}: ${msg}`))
      p.config = section.value
    }
  }
  if (problems.length > 0) throw new PluginBootError(`plugins cannot start:\n  - ${problems.join('\n  - ')}`)

  const ordered = sortByRequires(loaded)
  const registries = createRegistries()
  for (const p of ordered) {
    const { manifest } = p
    try {
      manifest.register({
        registries: recordingRegistries(registries, p),
        config: p.config as never,
        log: options.log,
      })
    } catch (err) {
      throw new PluginBootError(`plugin ${manifest.id} failed to register: ${(err as Error).message}`)
    }
    for (const point of EXTENSION_POINTS) {
      if (!sameKeys(manifest.provides[point], p.registered[point])) {
        throw new PluginBootError(
          `plugin ${manifest.id} declares ${point} [${(manifest.provides[point] ?? []).join(', ')}] but registered [${(p.registered[point] ?? []).join(', ')}]`,
        )
      }
    }
  }

  const context = (p: LoadedPlugin, roles: ProcessRole[]): LifecycleContext<never> => ({
    registries,
    config: p.config as never,
    log: options.log,
    roles,
  })
  const started: LoadedPlugin[] = []
  return {
    plugins: ordered,
    registries,
    async start(roles) {
      for (const p of ordered) {
        try {
          await p.manifest.start?.(context(p, roles))
        } catch (err) {
          throw new PluginBootError(`plugin ${p.manifest.id} failed to start: ${(err as Error).message}`)
        }
        started.push(p)
      }
    },
    async stop(roles, deadlineMs = 10_000) {
      for (const p of [...started].reverse()) {
        const stopping = Promise.resolve(p.manifest.stop?.(context(p, roles)))
        const timeout = new Promise<'timeout'>((resolve) =>
          setTimeout(resolve, deadlineMs, 'timeout').unref(),
        )
        const outcome = await Promise.race([stopping.then(() => 'stopped' as const), timeout]).catch(
          (err: Error) => err,
        )
        if (outcome === 'timeout')
          options.log.warn(`plugin ${p.manifest.id} did not stop within ${deadlineMs} ms`)
        else if (outcome instanceof Error)
          options.log.error(`plugin ${p.manifest.id} failed to stop: ${outcome.message}`)
      }
      started.length = 0
    },
  }
}
