import { tmpdir } from 'node:os'
import { loadPlugins, type PluginSet } from '../kernel/plugins/plugin-loader.ts'
import type { PluginHost, PluginLogger, PluginManifest } from '../sdk/define-plugin.ts'
import { testOutboundGuard } from './test-outbound-guard.ts'

export type { PluginSet }

export interface TestPluginLoad {
  /** the manifests under test, loaded as built-ins */
  plugins: PluginManifest<never>[]
  /** DOCSVC_PLUGIN_* variables the plugins' config is read from */
  env?: NodeJS.ProcessEnv
  /** what the kernel lends, over testPluginHost() */
  host?: Partial<PluginHost>
  log?: PluginLogger
}

const quietLog: PluginLogger = { info() {}, warn() {}, error() {}, debug() {} }

/** What the kernel lends a plugin loaded outside a kernel: the system temp dir, a guard that allows nothing. */
export function testPluginHost(overrides: Partial<PluginHost> = {}): PluginHost {
  return {
    chromiumPath: '/usr/bin/chromium',
    dataDir: tmpdir(),
    mode: 'embedded',
    guard: testOutboundGuard(),
    einvoice: { artifactsDir: '', validatorUrl: '' },
    ...overrides,
  }
}

/**
 * A plugin's manifests through the kernel's real loader (DESIGN.md §4): the same checks of id,
 * apiVersion, requires and config, then register() in order, so a plugin's own test sees what a
 * serving process would. Nothing starts until the test calls `start(roles)`.
 */
export function loadTestPlugins({
  plugins,
  env = {},
  host = {},
  log = quietLog,
}: TestPluginLoad): Promise<PluginSet> {
  return loadPlugins({
    builtins: plugins,
    packages: [],
    env,
    log,
    host: testPluginHost(host),
  })
}
