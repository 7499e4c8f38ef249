import type { OutputContext, RenderDocument } from '@docsvc/core/sdk'
import { AssetWatch } from './asset-watch.ts'
import type { BrowserPool } from './browser-pool.ts'
import { loadDocument, urlContextOptions } from './page-loader.ts'
import { useLocale } from './page-locale.ts'
import { DEFAULT_VIEWPORT, type PooledPage, useScripts, useViewport, type Viewport } from './pooled-page.ts'
import { mayRunScripts } from './script-detection.ts'

export interface RenderSteps<T> {
  /** set before the document loads, so media queries and scripts see it (default 1280x720) */
  viewport?: Viewport
  /**
   * Transparent captures run in a context of their own: once a page has had a transparent
   * background override, Chromium opens every later page of that context transparent, and an
   * opaque override does not bring it back.
   */
  transparent?: boolean
  /** the `locale` option: navigator.language, Intl and Accept-Language (page-locale.ts) */
  locale?: string | undefined
  /** once the document is ready: produce the bytes */
  produce(pooled: PooledPage): Promise<T>
}

/**
 * One render on a pooled page: a URL is checked by the guard before any browser work and gets a
 * context of its own; HTML goes to a warm page of the workspace. Assets are watched for warnings
 * while the document loads and the output is made.
 */
export async function renderDocument<T>(
  pool: BrowserPool,
  doc: RenderDocument,
  ctx: OutputContext,
  steps: RenderSteps<T>,
): Promise<T> {
  let fresh: ReturnType<typeof urlContextOptions> | undefined
  if (doc.kind === 'url') fresh = urlContextOptions(await pool.guard.checkUrl(doc.url), doc.http)
  return pool.withPage(
    {
      workspaceId: ctx.workspaceId,
      variant: steps.transparent ? 'transparent' : undefined,
      fresh,
      signal: ctx.signal,
      deadline: ctx.deadline,
    },
    async ({ pooled }, phase) => {
      const watch = new AssetWatch(pooled.page, pool.proxy, pool.config.slowAssetMs, (code, message) =>
        ctx.warn(code, message),
      )
      try {
        await useViewport(pooled, steps.viewport ?? DEFAULT_VIEWPORT)
        await useScripts(pooled, doc.kind === 'url' || mayRunScripts(doc.html))
        if (!(await useLocale(pooled, steps.locale)))
          ctx.warn(
            'locale_unsupported',
            `Chromium has no locale data for ${steps.locale}; the page used en-US`,
          )
        await loadDocument(pooled, doc, ctx, { watch, proxy: pool.proxy })
        phase.loading = false
        return await steps.produce(pooled)
      } finally {
        watch.stop()
      }
    },
  )
}
