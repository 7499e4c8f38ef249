import { definePlugin } from '@docsvc/core/sdk'
import { markdownDocumentBuilder } from './markdown-document-builder.ts'
import { createMarkdownInput } from './markdown-input.ts'

export { type MarkdownDocumentOptions, markdownDocument } from './markdown-document.ts'
export { markdownDocumentBuilder } from './markdown-document-builder.ts'
export { createMarkdownInput } from './markdown-input.ts'
export { type MarkdownInputFields, MarkdownInputSchema } from './markdown-input-schema.ts'
export { MARKDOWN_THEMES, type MarkdownTheme, themeCss } from './themes/index.ts'

/**
 * The `markdown` input: Markdown with a theme and extra CSS, optionally templated with the
 * installation's Liquid engine (registry `templateEngines`). It
 * also lends core's templates the `markdown` document builder.
 */
export const inputMarkdownPlugin = definePlugin({
  id: 'input-markdown',
  apiVersion: '^1',
  provides: { inputs: ['markdown'], documentBuilders: ['markdown'] },
  register({ registries }) {
    registries.inputs.add('markdown', createMarkdownInput(registries.templateEngines))
    registries.documentBuilders.add('markdown', markdownDocumentBuilder)
  },
})
