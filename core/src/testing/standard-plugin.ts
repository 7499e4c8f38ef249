import { PROVIDER_PLUGINS } from '../composition/provider-plugins.ts'
import { STANDARD_PLUGINS } from '../composition/standard-plugins.ts'
import type { PluginManifest } from '../sdk/define-plugin.ts'

/**
 * A built-in plugin by its id, from the composition root's list (the one place that names the
 * packages): a test that needs the real capability another plugin lends (the Liquid engine, a
 * queue backend) runs on it without importing that plugin's package, as a serving process does.
 */
export function standardPlugin(id: string): PluginManifest<never> {
  const plugin = STANDARD_PLUGINS.find((p) => p.id === id)
  if (!plugin) throw new Error(`no built-in plugin "${id}" (${STANDARD_PLUGINS.map((p) => p.id).join(', ')})`)
  return plugin
}

/** The built-in providers (queue backends, file store) a test kernel boots on, beside its own plugins. */
export function standardProviders(): PluginManifest<never>[] {
  return [...PROVIDER_PLUGINS]
}
