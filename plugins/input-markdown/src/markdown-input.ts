import {
  type InputContext,
  type Registry,
  type RenderDocument,
  type RenderInput,
  requiredCapability,
  type TemplateEngine,
} from '@docsvc/core/sdk'
import { markdownDocument } from './markdown-document.ts'
import { type MarkdownInputFields, MarkdownInputSchema } from './markdown-input-schema.ts'

/**
 * `{ type: 'markdown', markdown, css?, theme?, allow_raw_html?, templating?, wait? }` -> HTML. Templating
 * uses the installation's `liquid` template engine, looked up when a render asks for it (any plugin
 * may register it; input-html does): without one, `templating: true` is refused with
 * service_unavailable and untemplated Markdown still renders (docs/decisions/0065).
 */
export function createMarkdownInput(
  templateEngines: Registry<TemplateEngine>,
): RenderInput<MarkdownInputFields> {
  return {
    type: 'markdown',
    schema: MarkdownInputSchema,
    async resolve(input: MarkdownInputFields, ctx: InputContext): Promise<RenderDocument> {
      ctx.signal.throwIfAborted()
      let markdown = input.markdown
      if (input.templating === true) {
        // Liquid runs over the source, so error lines and columns are the Markdown's own
        markdown = await renderTemplate(requiredCapability(templateEngines, 'liquid'), markdown, ctx)
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
      return input.wait ? { kind: 'html', html, wait: input.wait } : { kind: 'html', html }
    },
  }
}

/** The output's locale is the filters' default, and their warnings (locale_unsupported) join the render's. */
async function renderTemplate(engine: TemplateEngine, source: string, ctx: InputContext): Promise<string> {
  const { output, warnings } = await engine.render(source, ctx.data, ctx.locale ? { locale: ctx.locale } : {})
  for (const w of warnings) ctx.warn(w.code, w.message)
  return output
}
