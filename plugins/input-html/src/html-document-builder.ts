import type { DocumentBuilder } from '@docsvc/core/sdk'
import { injectHead } from './inject-head.ts'

/** `html`: a page or fragment made a whole document with `head` in its head. */
export const htmlDocumentBuilder: DocumentBuilder = {
  build: ({ content, head }) => injectHead(content, head ?? ''),
}
