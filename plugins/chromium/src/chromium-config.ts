import { type Static, Type } from 'typebox'

/** The plugin's own settings; env names are DOCSVC_PLUGIN_CHROMIUM_<FIELD>, e.g. ..._CONCURRENCY. */
export const ChromiumConfigSchema = Type.Object({
  concurrency: Type.Integer({
    minimum: 1,
    maximum: 64,
    default: 2,
    description: 'renders one worker process runs in its browser at once',
  }),
  restartAfterRenders: Type.Integer({
    minimum: 1,
    default: 1000,
    description: 'the browser is replaced after this many renders (leaks stay bounded)',
  }),
  maxMemoryMb: Type.Integer({
    minimum: 64,
    default: 2048,
    description: 'the browser is replaced once its processes use more resident memory than this',
  }),
  idlePagesPerWorkspace: Type.Integer({
    minimum: 0,
    maximum: 16,
    default: 2,
    description: 'warm pages kept in a workspace browser context between renders',
  }),
  maxWorkspaceContexts: Type.Integer({
    minimum: 1,
    default: 16,
    description: 'workspace browser contexts kept warm (least recently used ones are closed)',
  }),
  pageHeapMb: Type.Integer({
    minimum: 64,
    default: 1024,
    description: "V8 heap of a page's scripts, in MB: a page allocating past it crashes alone, quickly",
  }),
  slowAssetMs: Type.Integer({
    minimum: 1,
    default: 5000,
    description: 'an asset slower than this raises the slow_asset warning',
  }),
  launchTimeoutMs: Type.Integer({ minimum: 1000, default: 30_000 }),
  sandbox: Type.Boolean({
    default: true,
    description:
      "Chromium's own sandbox (needs unprivileged user namespaces); false runs tenants' pages without it and logs a warning at start",
  }),
  runAsUid: Type.Integer({
    minimum: 1,
    default: 65534,
    description: 'uid Chromium runs as when the service runs as root (default nobody); never 0',
  }),
  runAsGid: Type.Integer({
    minimum: 1,
    default: 65534,
    description: 'gid Chromium runs as when the service runs as root (default nogroup)',
  }),
})

export type ChromiumConfig = Static<typeof ChromiumConfigSchema>

export const DEFAULT_CHROMIUM_CONFIG: ChromiumConfig = {
  concurrency: 2,
  restartAfterRenders: 1000,
  maxMemoryMb: 2048,
  idlePagesPerWorkspace: 2,
  maxWorkspaceContexts: 16,
  pageHeapMb: 1024,
  slowAssetMs: 5000,
  launchTimeoutMs: 30_000,
  sandbox: true,
  runAsUid: 65534,
  runAsGid: 65534,
}

/** The `engine` value of a request that names this plugin's outputs (decision 0055). */
export const CHROMIUM_ENGINE = 'chromium'
