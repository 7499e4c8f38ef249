import type { DocumentBuilder } from '@docsvc/core/sdk'
import { markdownDocument } from './markdown-document.ts'
import type { MarkdownTheme } from './themes/index.ts'

/** `markdown`: Markdown made a themed HTML document, the markdown input's own way. */
export const markdownDocumentBuilder: DocumentBuilder = {
  build: ({ content, theme, css }) =>
    markdownDocument({ markdown: content, theme: (theme ?? 'default') as MarkdownTheme, css: css ?? '' }),
}
