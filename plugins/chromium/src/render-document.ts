import type { OutputContext, RenderDocument } from '@docsvc/core/sdk'
import { missingGlyphsMessage } from '@docsvc/core/sdk'
import { AssetWatch } from './asset-watch.ts'
import type { BrowserPool } from './browser-pool.ts'
import { noteCanvasText } from './canvas-text.ts'
import { checkFonts, type PlaceKind, type TemplateToCheck } from './font-check.ts'
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
  /** the PDF's header and footer templates, which the font check looks at too */
  templates?: TemplateToCheck[]
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
      let forgetCanvasText: (() => Promise<void>) | undefined
      const watch = new AssetWatch(pooled.page, pool.proxy, pool.config.slowAssetMs, (code, message) =>
        ctx.warn(code, message),
      )
      try {
        await useViewport(pooled, steps.viewport ?? DEFAULT_VIEWPORT)
        // a wait expression runs in the page and may leave state: the page is cleaned after it
        const scripts = doc.kind === 'url' || !!doc.wait?.expression || mayRunScripts(doc.html)
        await useScripts(pooled, scripts)
        // canvas text is noted while page scripts draw it (only they can)
        if (scripts && steps.onMissingGlyphs) forgetCanvasText = await noteCanvasText(pooled)
        if (!(await useLocale(pooled, steps.locale)))
          ctx.warn(
            'locale_unsupported',
            `Chromium has no locale data for ${steps.locale}; the page used en-US`,
          )
        await loadDocument(pooled, doc, ctx, { watch, proxy: pool.proxy })
        phase.loading = false
        const made = await steps.produce(pooled)
        if (steps.onMissingGlyphs)
          steps.onMissingGlyphs(await reportFonts(pooled, ctx, watch, steps.templates ?? []))
        return made
      } finally {
        watch.stop()
        await forgetCanvasText?.().catch(() => {})
      }
    },
  )
}

/** What a user can do about characters no font covers, by what draws them. */
const GLYPH_FIX: Record<PlaceKind, string> = {
  text: 'load a web font that covers them with @font-face, or ask the operator to install one',
  canvas:
    'draw them with a canvas font that covers them (a web font loaded before drawing), or ask the operator to install one',
  template:
    "header and footer templates cannot use the page's web fonts: embed one in the template with @font-face and a data: URL, or ask the operator to install one",
}

/** The font check's findings as asset_failed warnings (decisions 0071, 0094); the missing characters. */
async function reportFonts(
  pooled: PooledPage,
  ctx: OutputContext,
  watch: AssetWatch,
  templates: TemplateToCheck[],
): Promise<string[]> {
  const report = await checkFonts(pooled, ctx.deadline, templates)
  if (!report) {
    ctx.log('the font check did not finish in time; missing glyphs are not reported')
    return []
  }
  if (report.unchecked.length > 0)
    ctx.log(`the font check did not look into ${report.unchecked.join(', ')} (time or frame limit)`)
  const named = new Set<string>()
  for (const font of report.failedFonts) {
    const what = `did not load as a font (web font "${font.family}"); text that uses it fell back to another font`
    for (const url of font.urls) watch.assetFailed(url, what)
    // without a URL it is named by its family, once (frames may have the same one)
    if (font.urls.length > 0 || named.has(font.family)) continue
    named.add(font.family)
    ctx.warn(
      'asset_failed',
      `web font "${font.family}" did not load; text that uses it fell back to another font`,
    )
  }
  for (const place of report.places)
    ctx.warn(
      'asset_failed',
      missingGlyphsMessage({
        chars: place.chars,
        more: place.more,
        where: place.where || undefined,
        fix: GLYPH_FIX[place.kind],
      }),
    )
  return [...new Set(report.places.flatMap((p) => p.chars))]
}
