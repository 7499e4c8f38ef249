import { filestoreS3Plugin } from '@docsvc/filestore-s3'
import { queuePgBossPlugin } from '@docsvc/queue-pgboss'
import { queueSqlitePlugin } from '@docsvc/queue-sqlite'
import type { PluginManifest } from '../sdk/define-plugin.ts'

/**
 * The built-in plugins of the admin CLI (cli role): the queue backends and the file store, which
 * the container's services are wired to, and no renderer or input plugin, whose code (Chromium,
 * sharp, Liquid, Markdown, pdf-lib) an admin command never runs (docs/decisions/0035).
 */
export const ADMIN_PLUGINS: PluginManifest<never>[] = [
  queueSqlitePlugin,
  queuePgBossPlugin,
  filestoreS3Plugin,
] as PluginManifest<never>[]
