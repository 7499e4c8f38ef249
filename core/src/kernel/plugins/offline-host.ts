import type { OutboundGuardApi, PluginLogger, PluginManifest } from '../../sdk/define-plugin.ts'
import { type Config, einvoiceHostSettings } from '../config.ts'
import { loadPlugins } from './plugin-loader.ts'

// Plugins loaded by a command that only reads what they register (config print, a conformance
// check): register() wires things up, nothing fetches, and nothing is logged.

const NO_FETCH_GUARD: OutboundGuardApi = {
  checkUrl: () => Promise.reject(new Error('this command fetches nothing')),
  resolveChecked: () => Promise.reject(new Error('this command fetches nothing')),
  fetch: () => Promise.reject(new Error('this command fetches nothing')),
}

const QUIET_PLUGIN_LOG: PluginLogger = { info() {}, warn() {}, error() {}, debug() {} }

/** `builtins` and the operator's plugins (DOCSVC_PLUGINS), with the config's settings. */
export function loadPluginsOffline(
  config: Config,
  env: NodeJS.ProcessEnv,
  builtins: PluginManifest<never>[],
) {
  return loadPlugins({
    builtins,
    packages: config.plugins,
    searchPaths: config.pluginPaths,
    env,
    log: QUIET_PLUGIN_LOG,
    host: {
      chromiumPath: config.chromiumPath,
      dataDir: config.dataDir,
      mode: config.mode,
      guard: NO_FETCH_GUARD,
      einvoice: einvoiceHostSettings(config),
    },
  })
}
