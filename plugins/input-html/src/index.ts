import { definePlugin } from '@docsvc/core/sdk'
import { createHtmlInput } from './html-input.ts'
import { stopLiquidWorkers, warmLiquidWorkers } from './templating/index.ts'

export { createHtmlInput } from './html-input.ts'
export { type HtmlInputFields, HtmlInputSchema } from './html-input-schema.ts'
export { injectHead } from './inject-head.ts'

/** The `html` input: a document or fragment, optional `head`, optional Liquid templating. */
export const inputHtmlPlugin = definePlugin({
  id: 'input-html',
  apiVersion: '^1',
  provides: { inputs: ['html'] },
  register({ registries }) {
    registries.inputs.add('html', createHtmlInput())
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
