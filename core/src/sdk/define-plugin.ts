import type { Static, TObject } from 'typebox'
import type { ExtensionPoint, Registries } from './extension-points.ts'
import type { GuardedFetch } from './render-contracts.ts'

/** The kernel's plugin API version; a plugin's `apiVersion` range must accept it. */
export const PLUGIN_API_VERSION = '1.0.0'

export type ProcessRole = 'api' | 'worker'

export interface PluginLogger {
  info(msg: string, data?: Record<string, unknown>): void
  warn(msg: string, data?: Record<string, unknown>): void
  error(msg: string, data?: Record<string, unknown>): void
  debug(msg: string, data?: Record<string, unknown>): void
}

/** What the kernel lends every plugin: shared settings and the outbound guard. */
export interface PluginHost {
  /** DOCSVC_CHROMIUM_PATH */
  chromiumPath: string
  /** DOCSVC_DATA_DIR, resolved */
  dataDir: string
  mode: 'embedded' | 'cluster'
  /** the SSRF guard every outbound request goes through (DESIGN.md §7) */
  guard: OutboundGuardApi
  /** the e-invoice validation settings (empty strings when not set) */
  einvoice: {
    /** DOCSVC_EINVOICE_ARTIFACTS: a folder of newer XML schemas */
    artifactsDir: string
    /** DOCSVC_EINVOICE_VALIDATOR_URL: the operator's KoSIT validator daemon (decision 0116) */
    validatorUrl: string
  }
}

/** The part of the outbound guard plugins use. */
export interface OutboundGuardApi {
  /** url_not_allowed (a ProblemError) unless the URL may be fetched */
  checkUrl(url: string): Promise<URL>
  /** one checked address to connect to for the URL's host (a proxy pins it) */
  resolveChecked(url: URL): Promise<string>
  fetch: GuardedFetch
}

export interface PluginContext<C> {
  registries: Registries
  config: C
  log: PluginLogger
  host: PluginHost
}

export interface LifecycleContext<C> extends PluginContext<C> {
  roles: ProcessRole[]
}

/**
 * What healthcheck() is called with: the same registries, config, log and host register() had,
 * so a plugin finds what it made (its browser pool, its connection) without a module-global.
 */
export type HealthContext<C> = PluginContext<C>

export interface PluginManifest<C = Record<string, unknown>> {
  /** kebab-case, unique across the installation */
  id: string
  /** range of the kernel plugin API this plugin was written against, e.g. '^1' */
  apiVersion: string
  /** what register() adds, per extension point */
  provides: Partial<Record<ExtensionPoint, string[]>>
  /** ids of plugins that must register first */
  requires?: string[]
  /** the plugin's own options; env names derive from the path (DOCSVC_PLUGIN_<ID>_<FIELD>) */
  config?: TObject
  /** wiring only: no I/O here */
  register(ctx: PluginContext<C>): void
  start?(ctx: LifecycleContext<C>): Promise<void> | void
  stop?(ctx: LifecycleContext<C>): Promise<void> | void
  /**
   * shown in GET /readyz under the plugin's id; not ok makes the instance not ready (503).
   * Takes its context; a healthcheck written without a parameter still fits.
   */
  healthcheck?(ctx: HealthContext<C>): Promise<HealthReport> | HealthReport
}

export interface HealthReport {
  ok: boolean
  detail?: string
}

/**
 * Types a manifest; with a `config` schema, `ctx.config` in register/start/stop is that schema's
 * static type (defaults applied, validated before register() runs).
 */
export function definePlugin<S extends TObject>(
  manifest: PluginManifest<Static<S>> & { config: S },
): PluginManifest<Static<S>>
export function definePlugin<C = Record<string, unknown>>(manifest: PluginManifest<C>): PluginManifest<C>
export function definePlugin(manifest: PluginManifest<unknown>): PluginManifest<unknown> {
  return manifest
}
