import type { InputContext, RenderDocument, RenderInput } from '@docsvc/core/sdk'
import { renderLiquidForRender } from '@docsvc/input-html/templating'
import { markdownDocument } from './markdown-document.ts'
import { type MarkdownInputFields, MarkdownInputSchema } from './markdown-input-schema.ts'

/** `{ type: 'markdown', markdown, css?, theme?, allow_raw_html?, templating? }` -> HTML. */
export function createMarkdownInput(): RenderInput<MarkdownInputFields> {
  return {
    type: 'markdown',
    schema: MarkdownInputSchema,
    async resolve(input: MarkdownInputFields, ctx: InputContext): Promise<RenderDocument> {
      ctx.signal.throwIfAborted()
      let markdown = input.markdown
      if (input.templating === true) {
        // Liquid runs over the source, so error lines and columns are the Markdown's own
        markdown = await renderLiquidForRender(markdown, ctx.data, ctx)
      } else if (Object.keys(ctx.data).length > 0) {
        ctx.warn(
          'feature_unavailable',
          '`data` was ignored: set `templating: true` to use it in the Markdown',
        )
      }
      const html = markdownDocument({
        markdown,
        theme: input.theme ?? 'default',
        css: input.css ?? '',
        allowRawHtml: input.allow_raw_html === true,
      })
      return { kind: 'html', html }
    },
  }
}
