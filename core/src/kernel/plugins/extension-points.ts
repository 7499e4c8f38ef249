import type { ExtensionPoint, Registries } from '../../sdk/extension-points.ts'
import { EXTENSION_POINTS } from '../../sdk/extension-points.ts'
import { Registry } from './registry.ts'

// The contracts are the SDK's (sdk/extension-points.ts); the kernel makes the registries.
export type { EinvoiceProfile } from '../../sdk/einvoice-contracts.ts'
export type { EmailProviderFactory } from '../../sdk/email-contracts.ts'
export type {
  ExtensionPoint,
  InputPlugin,
  OutputPlugin,
  PdfTool,
  PdfToolContext,
  PdfToolFieldProblem,
  PdfToolFile,
  PdfToolOutput,
  PdfToolSource,
  Registries,
} from '../../sdk/extension-points.ts'
export { EXTENSION_POINTS } from '../../sdk/extension-points.ts'
export type { ConformanceValidator, PdfPostProcessor } from '../../sdk/pdf-pipeline-contracts.ts'
export type { StorageProviderFactory } from '../../sdk/storage-contracts.ts'

const LABELS: Record<ExtensionPoint, string> = {
  inputs: 'input',
  outputs: 'output',
  pdfTools: 'PDF tool',
  pdfPostProcessors: 'PDF post-processor',
  conformanceValidators: 'conformance validator',
  einvoiceProfiles: 'e-invoice profile',
  storageProviders: 'storage provider',
  emailProviders: 'email provider',
  queueBackends: 'queue backend',
  fileStores: 'file store',
  templateEngines: 'template engine',
  documentBuilders: 'document builder',
  sceneRenderers: 'scene renderer',
  producers: 'render producer',
  planFeatures: 'plan feature',
}

export function createRegistries(): Registries {
  return Object.fromEntries(
    EXTENSION_POINTS.map((point) => [point, new Registry(LABELS[point])]),
  ) as unknown as Registries
}

/** What a registry holds, in key order (the post-processors and validators a render runs). */
export function registeredValues<T>(registry: Pick<Registry<T>, 'keys' | 'get'>): T[] {
  return registry.keys().flatMap((key) => registry.get(key) ?? [])
}
