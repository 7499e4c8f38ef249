import { definePlugin, type HealthReport, type LifecycleContext, type Registries } from '@docsvc/core/sdk'
import { BrowserPool } from './browser-pool.ts'
import { type ChromiumConfig, ChromiumConfigSchema } from './chromium-config.ts'
import { HtmlOutput } from './html-output.ts'
import { ImageOutput } from './image-output.ts'
import { PdfOutput } from './pdf-output.ts'

export { CLOSED_NETWORK_ARGS } from './browser-instance.ts'
export { BrowserPool, type BrowserPoolOptions } from './browser-pool.ts'
export { type ChromiumConfig, ChromiumConfigSchema, DEFAULT_CHROMIUM_CONFIG } from './chromium-config.ts'
export { HtmlOptionsSchema, HtmlOutput } from './html-output.ts'
export { type ImageOptions, ImageOptionsSchema } from './image-options.ts'
export { ImageOutput } from './image-output.ts'
export { type PdfOptions, PdfOptionsSchema } from './pdf-options.ts'
export { PdfOutput } from './pdf-output.ts'

// healthcheck() gets no context; every pool this module made answers for the process
const pools = new Set<BrowserPool>()

function poolOf(registries: Registries): BrowserPool | undefined {
  const pdf = registries.outputs.get('pdf')
  return pdf instanceof PdfOutput ? pdf.pool : undefined
}

/**
 * The Chromium engine: the pdf, png, jpeg, webp and html outputs on one browser pool per worker
 * process. The browser starts with the worker role (an API-only process never launches one).
 */
export const chromiumPlugin = definePlugin({
  id: 'chromium',
  apiVersion: '^1',
  provides: { outputs: ['pdf', 'png', 'jpeg', 'webp', 'html'] },
  config: ChromiumConfigSchema,
  register({ registries, config, host, log }) {
    const pool = new BrowserPool({
      chromiumPath: host.chromiumPath,
      dataDir: host.dataDir,
      config,
      guard: host.guard,
      log,
    })
    pools.add(pool)
    registries.outputs.add('pdf', new PdfOutput(pool))
    for (const format of ['png', 'jpeg', 'webp'] as const)
      registries.outputs.add(format, new ImageOutput(format, pool))
    registries.outputs.add('html', new HtmlOutput(pool))
  },
  async start({ registries, roles }: LifecycleContext<ChromiumConfig>) {
    if (roles.includes('worker')) await poolOf(registries)?.start()
  },
  async stop({ registries }: LifecycleContext<ChromiumConfig>) {
    const pool = poolOf(registries)
    if (!pool) return
    pools.delete(pool)
    await pool.stop()
  },
  healthcheck(): HealthReport {
    const reports = [...pools].map((p) => p.health())
    const failing = reports.find((r) => !r.ok)
    if (failing) return failing
    return { ok: true, detail: reports.map((r) => r.detail).join('; ') || 'no browser pool' }
  },
})
