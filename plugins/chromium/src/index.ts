import { definePlugin } from '@docsvc/core/sdk'

// Placeholder: the render pipeline issue fills this plugin in.
export const chromiumPlugin = definePlugin({
  id: 'chromium',
  apiVersion: '^1',
  provides: {},
  register() {},
})
