import { definePlugin } from '@docsvc/core/sdk'

// Placeholder: the render pipeline issue fills this plugin in.
export const inputUrlPlugin = definePlugin({
  id: 'input-url',
  apiVersion: '^1',
  provides: {},
  register() {},
})
