import { definePlugin } from '@docsvc/core/sdk'

// Placeholder: the render pipeline issue fills this plugin in.
export const queuePgBossPlugin = definePlugin({
  id: 'queue-pgboss',
  apiVersion: '^1',
  provides: {},
  register() {},
})
