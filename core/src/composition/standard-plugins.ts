import { chromiumPlugin } from '@docsvc/chromium'
import { imageCanvasPlugin } from '@docsvc/image-canvas'
import { inputHtmlPlugin } from '@docsvc/input-html'
import { inputMarkdownPlugin } from '@docsvc/input-markdown'
import { inputUrlPlugin } from '@docsvc/input-url'
import { pdfToolsPlugin } from '@docsvc/pdf-tools'
import { einvoicePlugin } from '@docsvc/plugin-einvoice'
import { pdfValidatorPlugin } from '@docsvc/plugin-pdf-validator'
import type { PluginManifest } from '../sdk/define-plugin.ts'
import { PROVIDER_PLUGINS } from './provider-plugins.ts'

/**
 * The built-in plugins of a serving process (api, worker), listed explicitly (no folder
 * scanning): the providers, then the renderers. Importing this file loads every renderer
 * (Chromium, sharp, Liquid, Markdown...): the composition root does so lazily, never for the cli.
 */
export const STANDARD_PLUGINS: PluginManifest<never>[] = [
  ...PROVIDER_PLUGINS,
  inputHtmlPlugin,
  inputUrlPlugin,
  inputMarkdownPlugin,
  chromiumPlugin,
  pdfToolsPlugin,
  pdfValidatorPlugin,
  imageCanvasPlugin,
  einvoicePlugin,
] as PluginManifest<never>[]
