import { type Config, einvoiceHostSettings, loadConfig, printableConfig } from './kernel/config.ts'
import { maskSecrets } from './kernel/config-loader.ts'
import { loadPlugins } from './kernel/plugins/plugin-loader.ts'
import { checkProviderChoices, type ProviderChoices } from './provider-choices.ts'
import type { OutboundGuardApi, PluginLogger } from './sdk/define-plugin.ts'

/** What `docsvc config print` shows: every setting a process would start with, secrets masked. */
export interface ConfigReport extends Record<string, unknown> {
  /** what `auto` (or the explicit choice) resolved to with the plugins loaded */
  chosen: ProviderChoices
  /** each plugin's own section (DOCSVC_PLUGIN_<ID>_*), by plugin id */
  pluginSettings: Record<string, unknown>
}

/** register() only wires things up: nothing fetches while settings are read. */
const noFetchGuard: OutboundGuardApi = {
  checkUrl: () => Promise.reject(new Error('reading the configuration fetches nothing')),
  resolveChecked: () => Promise.reject(new Error('reading the configuration fetches nothing')),
  fetch: () => Promise.reject(new Error('reading the configuration fetches nothing')),
}
const quiet: PluginLogger = { info() {}, warn() {}, error() {}, debug() {} }

/**
 * The checks of start that need no database (core settings, every plugin's settings, the queue
 * and file store choices), then the result. A bad value fails here as it would fail start.
 */
export async function configReport(env: NodeJS.ProcessEnv = process.env): Promise<ConfigReport> {
  const config: Config = loadConfig(env)
  const plugins = await loadPlugins({
    // loaded here, not at the top: every admin command imports this module, and the list
    // pulls in every renderer (Chromium, sharp, Liquid...), which they must not load
    builtins: (await import('./composition/standard-plugins.ts')).STANDARD_PLUGINS,
    packages: config.plugins,
    searchPaths: config.pluginPaths,
    env,
    log: quiet,
    host: {
      chromiumPath: config.chromiumPath,
      dataDir: config.dataDir,
      mode: config.mode,
      guard: noFetchGuard,
      einvoice: einvoiceHostSettings(config),
    },
  })
  const chosen = checkProviderChoices(config, plugins)
  const pluginSettings: Record<string, unknown> = {}
  for (const { manifest, config: settings } of plugins.plugins) {
    if (manifest.config) pluginSettings[manifest.id] = maskSecrets(settings, manifest.config as never)
  }
  return { ...printableConfig(config), chosen, pluginSettings }
}
