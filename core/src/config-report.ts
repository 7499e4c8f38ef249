import { type Config, loadConfig, printableConfig } from './kernel/config.ts'
import { maskSecrets } from './kernel/config-loader.ts'
import { loadPluginsOffline } from './kernel/plugins/offline-host.ts'
import { checkProviderChoices, type ProviderChoices } from './provider-choices.ts'

/** What `docsvc config print` shows: every setting a process would start with, secrets masked. */
export interface ConfigReport extends Record<string, unknown> {
  /** what `auto` (or the explicit choice) resolved to with the plugins loaded */
  chosen: ProviderChoices
  /** each plugin's own section (DOCSVC_PLUGIN_<ID>_*), by plugin id */
  pluginSettings: Record<string, unknown>
}

/**
 * The checks of start that need no database (core settings, every plugin's settings, the queue
 * and file store choices), then the result. A bad value fails here as it would fail start.
 */
export async function configReport(env: NodeJS.ProcessEnv = process.env): Promise<ConfigReport> {
  const config: Config = loadConfig(env)
  // loaded here, not at the top: every admin command imports this module, and the list
  // pulls in every renderer (Chromium, sharp, Liquid...), which they must not load
  const { STANDARD_PLUGINS } = await import('./composition/standard-plugins.ts')
  const plugins = await loadPluginsOffline(config, env, STANDARD_PLUGINS)
  const chosen = checkProviderChoices(config, plugins)
  const pluginSettings: Record<string, unknown> = {}
  for (const { manifest, config: settings } of plugins.plugins) {
    if (manifest.config) pluginSettings[manifest.id] = maskSecrets(settings, manifest.config as never)
  }
  return { ...printableConfig(config), chosen, pluginSettings }
}
