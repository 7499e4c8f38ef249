import { definePlugin } from '@docsvc/core/sdk'

// Placeholder: the render pipeline issue fills this plugin in.
export const inputMarkdownPlugin = definePlugin({
  id: 'input-markdown',
  apiVersion: '^1',
  provides: {},
  register() {},
})
