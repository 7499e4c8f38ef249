import { chromiumPlugin } from '@docsvc/chromium'
import { filestoreS3Plugin } from '@docsvc/filestore-s3'
import { imageCanvasPlugin } from '@docsvc/image-canvas'
import { inputHtmlPlugin } from '@docsvc/input-html'
import { inputMarkdownPlugin } from '@docsvc/input-markdown'
import { inputUrlPlugin } from '@docsvc/input-url'
import { pdfToolsPlugin } from '@docsvc/pdf-tools'
import { queuePgBossPlugin } from '@docsvc/queue-pgboss'
import { queueSqlitePlugin } from '@docsvc/queue-sqlite'
import type { PluginManifest } from './sdk/define-plugin.ts'

/** The built-in plugins, listed explicitly (no folder scanning). */
export const STANDARD_PLUGINS: PluginManifest<never>[] = [
  queueSqlitePlugin,
  queuePgBossPlugin,
  inputHtmlPlugin,
  inputUrlPlugin,
  inputMarkdownPlugin,
  chromiumPlugin,
  filestoreS3Plugin,
  pdfToolsPlugin,
  imageCanvasPlugin,
] as PluginManifest<never>[]
