import type { DocumentBuilder, SceneRenderer, TemplateEngine } from './document-contracts.ts'
import type { EinvoiceProfile } from './einvoice-contracts.ts'
import type { EmailProviderFactory } from './email-contracts.ts'
import type { FileStoreFactory } from './file-contracts.ts'
import type { ConformanceValidator, PdfPostProcessor } from './pdf-pipeline-contracts.ts'
import type { PlanFeature } from './plan-feature-contracts.ts'
import type { RenderProducer } from './producer-contracts.ts'
import type { QueueBackendFactory } from './queue-contracts.ts'
import type { RenderInput, RenderOutput } from './render-contracts.ts'
import type { StorageProviderFactory } from './storage-contracts.ts'

// The extension points of DESIGN.md §4, as the SDK defines them: each value type is the contract
// a plugin implements. The kernel's registries (kernel/plugins/) implement `Registry`.

/** Turns a render's input into content for an output (html, url, markdown, template). */
export type InputPlugin = RenderInput<never>

/** Produces bytes of one format (pdf, png, jpeg, webp, html). */
export type OutputPlugin = RenderOutput<never>

/** One input PDF of a tool, already fetched and checked to start like a PDF. */
export interface PdfToolSource {
  bytes: Buffer
  /** a file name for it (merge bookmarks), e.g. the upload's name */
  name: string
  /**
   * The same bytes as a file on this worker's disk, when the kernel keeps it there (an upload or
   * a render's file in the local store): read only, e.g. hard-linked into a work folder instead
   * of written out again.
   */
  path?: string
}

export interface PdfToolContext {
  /** aborted on cancel, on the render timeout, or when the worker stops */
  signal: AbortSignal
  log(message: string): void
  /**
   * The render's private scratch folder (made on first call, the same on every call), removed
   * once the render's files are stored. A file the tool returns by `path` lies in it.
   */
  scratchDir(): Promise<string>
  /**
   * The plan's page limit: a tool refuses sources with more pages (page_limit_exceeded) before
   * working on them. Absent for the finishing steps of a render, whose PDF was counted already.
   */
  maxPages?: number
}

interface PdfToolFileInfo {
  format: 'pdf' | 'zip'
  pages?: number
  /** the stored file name when the tool decides it (split parts) */
  filename?: string
}

/**
 * One output: its bytes, or a file the tool wrote in `scratchDir` (with its size), which the
 * kernel moves into the file store without reading it (a split's 200 parts).
 */
export type PdfToolFile = PdfToolFileInfo & ({ bytes: Buffer } | { path: string; size: number })

export interface PdfToolOutput {
  /** empty for a metadata read */
  files: PdfToolFile[]
  /** the render's `result` (the metadata tool's report) */
  result?: Record<string, unknown>
}

/** A problem with one request field, found before any PDF is read (see FieldProblem). */
export interface PdfToolFieldProblem {
  /** JSON Pointer into the tool's options, e.g. `/pages` */
  path: string
  code: string
  message: string
}

/**
 * One operation of the PDF tools (SPEC 4.4): merge, metadata, protect, rotate, split, unlock,
 * and `attach` for the `pdf.attachments` render option. Core owns the routes and fetches the
 * sources; the tool gets their bytes and its own validated request fields as `options`.
 * Failures are ProblemErrors (`invalid_pdf_source`, `pdf_password_required`, `validation_error`).
 */
export interface PdfTool {
  readonly name: string
  /** request checks that need no PDF (page syntax, password rules); run when the render is created */
  check?(options: Record<string, unknown>): PdfToolFieldProblem[]
  /** how many files it makes for these options, when that is known before a PDF is read (default 1) */
  fileCount?(options: Record<string, unknown>): number | undefined
  run(sources: PdfToolSource[], options: Record<string, unknown>, ctx: PdfToolContext): Promise<PdfToolOutput>
}

// Typed in their own files (decision 0033); exported here under the names the registries use.
export type { EinvoiceProfile } from './einvoice-contracts.ts'
export type { EmailProviderFactory } from './email-contracts.ts'
export type { ConformanceValidator, PdfPostProcessor } from './pdf-pipeline-contracts.ts'
export type { PlanFeature } from './plan-feature-contracts.ts'
export type { StorageProviderFactory } from './storage-contracts.ts'

/**
 * One extension point as a plugin sees it: a map from a key (an input type, a format, a provider
 * id) to what one plugin registered under it. A second `add` of a key stops boot, naming both
 * plugins; the kernel records which plugin added each key.
 */
export interface Registry<T> {
  readonly name: string
  add(key: string, value: T): void
  get(key: string): T | undefined
  has(key: string): boolean
  /** sorted */
  keys(): string[]
  /** the id of the plugin that added the key */
  ownerOf(key: string): string | undefined
}

export interface Registries {
  inputs: Registry<InputPlugin>
  outputs: Registry<OutputPlugin>
  pdfTools: Registry<PdfTool>
  pdfPostProcessors: Registry<PdfPostProcessor>
  conformanceValidators: Registry<ConformanceValidator>
  einvoiceProfiles: Registry<EinvoiceProfile>
  storageProviders: Registry<StorageProviderFactory>
  emailProviders: Registry<EmailProviderFactory>
  queueBackends: Registry<QueueBackendFactory>
  fileStores: Registry<FileStoreFactory>
  templateEngines: Registry<TemplateEngine>
  documentBuilders: Registry<DocumentBuilder>
  sceneRenderers: Registry<SceneRenderer>
  /** makers of whole renders for an `input.type` (templates, PDF tools), keyed by that type */
  producers: Registry<RenderProducer>
  /** features a plan may lack, keyed by their key in the plans' `features` (the plan gate asks them) */
  planFeatures: Registry<PlanFeature>
}

export type ExtensionPoint = keyof Registries

export const EXTENSION_POINTS: ExtensionPoint[] = [
  'inputs',
  'outputs',
  'pdfTools',
  'pdfPostProcessors',
  'conformanceValidators',
  'einvoiceProfiles',
  'storageProviders',
  'emailProviders',
  'queueBackends',
  'fileStores',
  'templateEngines',
  'documentBuilders',
  'sceneRenderers',
  'producers',
  'planFeatures',
]
