import type { FileStoreFactory } from '../../sdk/file-contracts.ts'
import type { QueueBackendFactory } from '../../sdk/queue-contracts.ts'
import type { RenderInput, RenderOutput } from '../../sdk/render-contracts.ts'
import { Registry } from './registry.ts'

// The extension points of DESIGN.md §4. Each value type is the contract a plugin implements;
// the render pipeline, PDF tools, e-invoicing, storage and email issues give them their methods.

/** Turns a render's input into content for an output (html, url, markdown, template). */
export type InputPlugin = RenderInput<never>

/** Produces bytes of one format (pdf, png, jpeg, webp, html). */
export type OutputPlugin = RenderOutput<never>

export interface PdfTool {
  readonly name: string
  [member: string]: unknown
}

export interface EinvoiceProfile {
  readonly id: string
  [member: string]: unknown
}

/** Factory of a storage destination's uploader; destinations are instances of it. */
export interface StorageProviderFactory {
  readonly id: string
  [member: string]: unknown
}

export interface EmailProviderFactory {
  readonly id: string
  [member: string]: unknown
}

export interface Registries {
  inputs: Registry<InputPlugin>
  outputs: Registry<OutputPlugin>
  pdfTools: Registry<PdfTool>
  einvoiceProfiles: Registry<EinvoiceProfile>
  storageProviders: Registry<StorageProviderFactory>
  emailProviders: Registry<EmailProviderFactory>
  queueBackends: Registry<QueueBackendFactory>
  fileStores: Registry<FileStoreFactory>
}

export type ExtensionPoint = keyof Registries

export const EXTENSION_POINTS: ExtensionPoint[] = [
  'inputs',
  'outputs',
  'pdfTools',
  'einvoiceProfiles',
  'storageProviders',
  'emailProviders',
  'queueBackends',
  'fileStores',
]

const LABELS: Record<ExtensionPoint, string> = {
  inputs: 'input',
  outputs: 'output',
  pdfTools: 'PDF tool',
  einvoiceProfiles: 'e-invoice profile',
  storageProviders: 'storage provider',
  emailProviders: 'email provider',
  queueBackends: 'queue backend',
  fileStores: 'file store',
}

export function createRegistries(): Registries {
  return Object.fromEntries(
    EXTENSION_POINTS.map((point) => [point, new Registry(LABELS[point])]),
  ) as unknown as Registries
}
