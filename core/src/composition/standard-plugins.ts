import { chromiumPlugin } from '@docsvc/chromium'
import { filestoreS3Plugin } from '@docsvc/filestore-s3'
import { inputHtmlPlugin } from '@docsvc/input-html'
import { inputMarkdownPlugin } from '@docsvc/input-markdown'
import { inputUrlPlugin } from '@docsvc/input-url'
import { pdfToolsPlugin } from '@docsvc/pdf-tools'
import { queuePgBossPlugin } from '@docsvc/queue-pgboss'
import { queueSqlitePlugin } from '@docsvc/queue-sqlite'
import type { PluginManifest } from '../sdk/define-plugin.ts'

/**
 * The built-in plugins, listed explicitly (no folder scanning). Importing this file loads every
 * renderer (Chromium, sharp, Liquid, Markdown...): only the api and worker compositions do, lazily.
 */
export const STANDARD_PLUGINS: PluginManifest<never>[] = [
  queueSqlitePlugin,
  queuePgBossPlugin,
  inputHtmlPlugin,
  inputUrlPlugin,
  inputMarkdownPlugin,
  chromiumPlugin,
  filestoreS3Plugin,
  pdfToolsPlugin,
] as PluginManifest<never>[]
