import { definePlugin } from '@docsvc/core/sdk'

// Placeholder: the render pipeline issue fills this plugin in.
export const inputHtmlPlugin = definePlugin({
  id: 'input-html',
  apiVersion: '^1',
  provides: {},
  register() {},
})
