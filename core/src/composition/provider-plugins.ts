import { filestoreS3Plugin } from '@docsvc/filestore-s3'
import { storageS3Plugin } from '@docsvc/provider-storage-s3'
import { queuePgBossPlugin } from '@docsvc/queue-pgboss'
import { queueSqlitePlugin } from '@docsvc/queue-sqlite'
import type { PluginManifest } from '../sdk/define-plugin.ts'

/**
 * The built-in providers every process loads, the admin CLI's (cli kind) among them: the queue
 * backends, the file store the container's services are wired to, and the storage destination
 * kinds (the API checks a destination's settings with their schemas). No renderer or input
 * plugin, whose code (Chromium, sharp, Liquid, Markdown, pdf-lib) an admin command never runs
 * (docs/decisions/0035).
 */
export const PROVIDER_PLUGINS: PluginManifest<never>[] = [
  queueSqlitePlugin,
  queuePgBossPlugin,
  filestoreS3Plugin,
  storageS3Plugin,
] as PluginManifest<never>[]
