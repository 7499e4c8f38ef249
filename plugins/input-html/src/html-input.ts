import type { InputContext, RenderDocument, RenderInput } from '@docsvc/core/sdk'
import { type HtmlInputFields, HtmlInputSchema } from './html-input-schema.ts'
import { injectHead } from './inject-head.ts'
import { renderLiquidForRender } from './templating/index.ts'

/** `{ type: 'html', html, head?, templating?, base_url?, wait? }` -> an HTML document. */
export function createHtmlInput(): RenderInput<HtmlInputFields> {
  return {
    type: 'html',
    schema: HtmlInputSchema,
    async resolve(input: HtmlInputFields, ctx: InputContext): Promise<RenderDocument> {
      ctx.signal.throwIfAborted()
      let html = input.html
      let head = input.head ?? undefined
      if (input.templating === true) {
        html = await renderLiquidForRender(html, ctx.data, ctx)
        if (head) head = await renderLiquidForRender(head, ctx.data, ctx, { label: 'head' })
      } else if (Object.keys(ctx.data).length > 0) {
        ctx.warn('feature_unavailable', '`data` was ignored: set `templating: true` to use it in the HTML')
      }
      if (head) html = injectHead(html, head)
      return {
        kind: 'html',
        html,
        ...(input.base_url ? { baseUrl: input.base_url } : {}),
        ...(input.wait ? { wait: input.wait } : {}),
      }
    },
  }
}
