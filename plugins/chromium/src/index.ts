import {
  definePlugin,
  type HealthContext,
  type HealthReport,
  type LifecycleContext,
  type Registries,
} from '@docsvc/core/sdk'
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
    registries.outputs.add('pdf', new PdfOutput(pool))
    for (const format of ['png', 'jpeg', 'webp'] as const)
      registries.outputs.add(format, new ImageOutput(format, pool))
    registries.outputs.add('html', new HtmlOutput(pool))
  },
  async start({ registries, roles }: LifecycleContext<ChromiumConfig>) {
    if (roles.includes('worker')) await poolOf(registries)?.start()
  },
  async stop({ registries }: LifecycleContext<ChromiumConfig>) {
    await poolOf(registries)?.stop()
  },
  // the pool of this kernel's registries only: other kernels in the process answer for theirs
  healthcheck({ registries }: HealthContext<ChromiumConfig>): HealthReport {
    return poolOf(registries)?.health() ?? { ok: false, detail: 'the pdf output is not the browser pool' }
  },
})
