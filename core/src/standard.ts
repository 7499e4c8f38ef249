import type { PluginManifest } from './sdk/define-plugin.ts'

/**
 * The built-in plugins, listed explicitly (no folder scanning). The render pipeline, PDF tools,
 * e-invoicing, storage and email issues add their packages here.
 */
export const STANDARD_PLUGINS: PluginManifest<never>[] = []
