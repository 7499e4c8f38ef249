import type { TSchema } from 'typebox'
import type { PlanSkipWarningCode } from './plan-feature-contracts.ts'

// Contracts of the render pipeline (DESIGN.md §6): an input plugin turns a request's `input`
// into a document the browser can load; an output plugin turns that document into bytes.

export type OutputFormat = 'pdf' | 'png' | 'jpeg' | 'webp' | 'html'

/** Formats of stored files: the output formats plus what tools and e-invoices produce. */
export type FileFormat = OutputFormat | 'zip' | 'xml'

/** SPEC 7.4 warning codes a plugin may raise. */
export type RenderWarningCode =
  | 'slow_asset'
  | 'asset_failed'
  | 'header_footer_overlap'
  | 'locale_unsupported'
  | 'feature_unavailable'
  | 'font_fallback_used'
  | 'data_coerced'
  | 'text_overflow'
  | 'pdfa_validation_unavailable'
  | 'pdfua_validation_unavailable'
  | 'accessibility_validation_unavailable'
  | 'einvoice_validation_warning'
  | 'einvoice_validation_unavailable'
  | PlanSkipWarningCode

export interface RenderWarning {
  code: RenderWarningCode
  message: string
}

/** Outbound HTTP through the SSRF guard (DESIGN.md §7); plugins never fetch on their own. */
export type GuardedFetch = (
  url: string,
  options?: { headers?: Record<string, string>; timeoutMs?: number; maxBytes?: number },
) => Promise<{
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
  url: string
}>

export interface WaitOptions {
  /** load event to wait for (default `load`) */
  until?: 'load' | 'domcontentloaded' | 'networkidle'
  /** CSS selector that must be present */
  selector?: string
  /** JavaScript expression, evaluated in the page, that must become truthy */
  expression?: string
  /** budget for the whole wait; over it the render fails with wait_timeout */
  timeout_ms?: number
  /** extra quiet time after the condition */
  delay_ms?: number
}

export interface HttpOptions {
  basic_auth?: { username: string; password: string }
  headers?: Record<string, string>
  cookies?: { name: string; value: string; domain?: string; path?: string }[]
}

/** What an input resolves to. */
export type RenderDocument =
  | { kind: 'html'; html: string; baseUrl?: string; wait?: WaitOptions }
  | { kind: 'url'; url: string; wait?: WaitOptions; http?: HttpOptions }

export interface RenderContextBase {
  renderId: string
  workspaceId: string
  test: boolean
  signal: AbortSignal
  warn(code: RenderWarningCode, message: string): void
  log(message: string): void
}

export interface InputContext extends RenderContextBase {
  /** the render's data (request `data`, or what `data_url` returned) */
  data: Record<string, unknown>
  fetch: GuardedFetch
  /** the output's `locale` (BCP 47), the default of templating's number and date filters */
  locale?: string
}

export interface RenderInput<I = Record<string, unknown>> {
  /** the `input.type` it handles */
  readonly type: string
  /** JSON Schema of the input object (without `type`); requests are validated against it */
  readonly schema: TSchema
  /** whether `data` applies (templating); inputs that ignore data leave it out */
  resolve(input: I, ctx: InputContext): Promise<RenderDocument>
}

export interface OutputContext extends RenderContextBase {
  /** the plan's page limit: more pages fail with page_limit_exceeded */
  maxPages: number
  /** epoch ms by which the output must be done */
  deadline: number
}

export interface RenderedFile {
  format: FileFormat
  contentType: string
  bytes: Buffer
  pages?: number
  width?: number
  height?: number
  /** the file's name when the producer decides it (split parts); else the request's filename */
  filename?: string
  /**
   * A printed document's own title: null when it has none (a browser then writes a stand-in such
   * as `about:blank` as the PDF's title, which the kernel replaces); absent when the output cannot tell.
   */
  title?: string | null
  /**
   * Characters of the document that no installed or loaded font has a glyph for: they came out as
   * empty boxes (.notdef). Absent when the output did not look. The chromium outputs' glyph check
   * and the image-canvas text layers set it (one check: conformance steps such as PDF/A read this
   * rather than look again); each also warns with the SDK's missingGlyphsMessage.
   */
  missingGlyphs?: string[]
}

/**
 * An output already on this worker's disk, in the render's scratch folder (`scratchDir`): the
 * kernel moves it into the file store as it is, never reading it into memory (a split's parts).
 */
export interface StagedFile extends Omit<RenderedFile, 'bytes'> {
  /** absolute path of the file; the kernel takes it over */
  path: string
  size: number
}

/** What a render makes: bytes in memory, or a file on disk. */
export type ProducedFile = RenderedFile | StagedFile

export function isStagedFile(file: ProducedFile): file is StagedFile {
  return 'path' in file
}

export interface RenderOutput<O = Record<string, unknown>> {
  readonly format: OutputFormat
  /**
   * The engine that draws this output (`chromium`): the value a request's `engine` may name for
   * this format. Without one, a request naming any engine is refused.
   */
  readonly engine?: string
  /** JSON Schema of this format's options object (`output.pdf` or `output.image`) */
  readonly optionsSchema: TSchema
  render(document: RenderDocument, options: O, ctx: OutputContext): Promise<RenderedFile>
}
