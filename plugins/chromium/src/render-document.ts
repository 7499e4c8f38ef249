import type { OutputContext, RenderDocument } from '@docsvc/core/sdk'
import { AssetWatch } from './asset-watch.ts'
import type { BrowserPool } from './browser-pool.ts'
import { checkFonts, nameGlyphs } from './font-check.ts'
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
  /**
   * Given by outputs that draw the document (PDF, images): after `produce`, the font check
   * (font-check.ts) warns about glyphs no font covers and web fonts that did not load, and hands
   * the missing characters over for the file's `missingGlyphs`.
   */
  onMissingGlyphs?(chars: string[]): void
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
        // a wait expression runs in the page and may leave state: the page is cleaned after it
        await useScripts(pooled, doc.kind === 'url' || !!doc.wait?.expression || mayRunScripts(doc.html))
        if (!(await useLocale(pooled, steps.locale)))
          ctx.warn(
            'locale_unsupported',
            `Chromium has no locale data for ${steps.locale}; the page used en-US`,
          )
        await loadDocument(pooled, doc, ctx, { watch, proxy: pool.proxy })
        phase.loading = false
        const made = await steps.produce(pooled)
        if (steps.onMissingGlyphs) steps.onMissingGlyphs(await reportFonts(pooled, ctx, watch))
        return made
      } finally {
        watch.stop()
      }
    },
  )
}

/** The font check's findings as asset_failed warnings (decision 0071); the missing characters. */
async function reportFonts(pooled: PooledPage, ctx: OutputContext, watch: AssetWatch): Promise<string[]> {
  const report = await checkFonts(pooled.cdp, ctx.deadline)
  if (!report) {
    ctx.log('the font check did not finish in time; missing glyphs are not reported')
    return []
  }
  for (const font of report.failedFonts) {
    const what = `did not load as a font (web font "${font.family}"); text that uses it fell back to another font`
    if (font.urls.length === 0)
      ctx.warn(
        'asset_failed',
        `web font "${font.family}" did not load; text that uses it fell back to another font`,
      )
    for (const url of font.urls) watch.assetFailed(url, what)
  }
  if (report.missingGlyphs.length > 0)
    ctx.warn(
      'asset_failed',
      `no font has a glyph for ${nameGlyphs(report.missingGlyphs, report.more)}: they show as empty boxes; load a web font that covers them with @font-face, or ask the operator to install one`,
    )
  return report.missingGlyphs
}
