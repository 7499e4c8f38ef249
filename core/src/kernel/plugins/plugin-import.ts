import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { PluginManifest } from '../../sdk/define-plugin.ts'
import { findPackageDir, packageEntry } from './package-resolver.ts'
import { linkSdkForPlugins } from './sdk-link.ts'

export type AnyManifest = PluginManifest<never>

export function isManifest(value: unknown): value is AnyManifest {
  const v = value as AnyManifest | undefined
  return (
    typeof v?.id === 'string' &&
    typeof v.register === 'function' &&
    typeof v.provides === 'object' &&
    v.provides !== null
  )
}

/**
 * Loads a third-party plugin by package name from the search paths' node_modules, then the
 * working directory's, then this installation's. Returns the manifest or why there is none.
 */
export async function importPluginPackage(
  name: string,
  searchPaths: string[],
): Promise<{ manifest: AnyManifest } | { problem: string }> {
  const where = [...searchPaths, process.cwd(), path.dirname(fileURLToPath(import.meta.url))]
  const dir = findPackageDir(name, where)
  if (!dir) {
    return {
      problem: `plugin package ${name} cannot be found in node_modules of ${[...searchPaths, process.cwd()].join(', ')}; install it next to docsvc (npm install ${name}) or name its directory in DOCSVC_PLUGIN_PATHS`,
    }
  }
  linkSdkForPlugins()
  let mod: Record<string, unknown>
  try {
    mod = (await import(pathToFileURL(packageEntry(dir)).href)) as Record<string, unknown>
  } catch (err) {
    return { problem: `plugin package ${name} failed to load: ${(err as Error).message}` }
  }
  const manifest = [mod.default, mod.plugin, ...Object.values(mod)].find(isManifest)
  if (!manifest) {
    return {
      problem: `plugin package ${name} exports no plugin manifest (export one made with definePlugin from @docsvc/core/sdk)`,
    }
  }
  return { manifest }
}
