// The only import surface for plugins and providers.
export type {
  EinvoiceProfile,
  EmailProviderFactory,
  ExtensionPoint,
  InputPlugin,
  OutputPlugin,
  PdfTool,
  QueueBackendFactory,
  Registries,
  StorageProviderFactory,
} from '../kernel/plugins/extension-points.ts'
export type { Registry } from '../kernel/plugins/registry.ts'
export type { ProblemCode } from '../kernel/problem-codes.ts'
export { ProblemError } from '../kernel/problem-error.ts'
export {
  definePlugin,
  type HealthReport,
  type LifecycleContext,
  PLUGIN_API_VERSION,
  type PluginContext,
  type PluginLogger,
  type PluginManifest,
  type ProcessRole,
} from './define-plugin.ts'
