import { definePlugin } from '@docsvc/core/sdk'
import { htmlDocumentBuilder } from './html-document-builder.ts'
import { createHtmlInput } from './html-input.ts'
import { liquidTemplateEngine } from './liquid-template-engine.ts'
import { stopLiquidWorkers, warmLiquidWorkers } from './templating/index.ts'

export { htmlDocumentBuilder } from './html-document-builder.ts'
export { createHtmlInput } from './html-input.ts'
export { type HtmlInputFields, HtmlInputSchema } from './html-input-schema.ts'
export { injectHead } from './inject-head.ts'
export { liquidTemplateEngine } from './liquid-template-engine.ts'

/**
 * The `html` input: a document or fragment, optional `head`, optional Liquid templating. It also
 * lends core's templates and previews the `liquid` template engine and the `html` document builder.
 */
export const inputHtmlPlugin = definePlugin({
  id: 'input-html',
  apiVersion: '^1',
  provides: { inputs: ['html'], templateEngines: ['liquid'], documentBuilders: ['html'] },
  register({ registries }) {
    registries.inputs.add('html', createHtmlInput())
    registries.templateEngines.add('liquid', liquidTemplateEngine)
    registries.documentBuilders.add('html', htmlDocumentBuilder)
  },
  // Liquid's worker threads (shared with markdown and templates) start with the render worker,
  // so the first templated render does not pay for their start
  async start({ roles }) {
    if (roles.includes('worker')) warmLiquidWorkers()
  },
  async stop() {
    await stopLiquidWorkers()
  },
})
