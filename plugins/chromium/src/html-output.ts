import type { OutputContext, RenderDocument, RenderedFile, RenderOutput } from '@docsvc/core/sdk'
import { type Static, Type } from 'typebox'
import type { BrowserPool } from './browser-pool.ts'
import { CHROMIUM_ENGINE } from './chromium-config.ts'
import { LocaleSchema } from './page-locale.ts'
import { renderDocument } from './render-document.ts'

export const HtmlOptionsSchema = Type.Object(
  { locale: Type.Optional(LocaleSchema) },
  { additionalProperties: false },
)
export type HtmlOptions = Static<typeof HtmlOptionsSchema>

/** The `html` output: the DOM after the page has loaded and its scripts have run. */
export class HtmlOutput implements RenderOutput<HtmlOptions> {
  readonly format = 'html'
  readonly engine = CHROMIUM_ENGINE
  readonly optionsSchema = HtmlOptionsSchema
  /** the worker's browser pool this output renders with */
  readonly pool: BrowserPool

  constructor(pool: BrowserPool) {
    this.pool = pool
  }

  async render(doc: RenderDocument, options: HtmlOptions, ctx: OutputContext): Promise<RenderedFile> {
    const html = await renderDocument(this.pool, doc, ctx, {
      locale: options?.locale,
      produce: ({ page }) => page.content(),
    })
    return { format: 'html', contentType: 'text/html; charset=utf-8', bytes: Buffer.from(html, 'utf8') }
  }
}
