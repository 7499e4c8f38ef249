import { definePlugin } from '@docsvc/core/sdk'

// Placeholder: the render pipeline issue fills this plugin in.
export const queueSqlitePlugin = definePlugin({
  id: 'queue-sqlite',
  apiVersion: '^1',
  provides: {},
  register() {},
})
