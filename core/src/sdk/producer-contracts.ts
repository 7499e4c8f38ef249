import type {
  GuardedFetch,
  ProducedFile,
  RenderDocument,
  RenderedFile,
  RenderWarningCode,
} from './render-contracts.ts'
import type { Render, RenderRequest } from './render-records.ts'

// Most renders are "an input plugin makes a document, an output plugin prints it". A render whose
// input is a stored thing (a template), a set of PDFs (a PDF tool), or later a batch row or an
// e-invoice, is made by a producer registered for its `input.type` (registries.producers); the
// render runner asks the producer instead, as it asks `outputs` for a format.

export interface ProducerContext {
  render: Render
  /** aborted on cancel, on the render timeout, or when the worker stops */
  signal: AbortSignal
  /** epoch ms by which the render must be done */
  deadline: number
  /** the plan's page limit */
  maxPages: number
  /** the render's data (request `data`, or what `data_url` returned) */
  data: Record<string, unknown>
  fetch: GuardedFetch
  /** the output's `locale` (BCP 47), the default of templating's number and date filters */
  locale?: string
  warn(code: RenderWarningCode, message: string): void
  log(message: string): void
  /** the render's private scratch folder, made on first call, removed once its files are stored */
  scratchDir(): Promise<string>
  /** the standard second half: prints a document with the request's output format and options */
  print(document: RenderDocument): Promise<RenderedFile>
}

export interface Production {
  files: ProducedFile[]
  /** the render's `result` (tool results, validation reports) */
  result?: Record<string, unknown>
  /** false when this render is not billed (a decision of the feature; default true) */
  billed?: boolean
}

export interface RenderProducer {
  /** the `input.type` it makes */
  readonly inputType: string
  /**
   * true when clients name the type in `POST /v1/renders` (`template`); false or absent for types
   * only the service's own routes create (PDF tools)
   */
  readonly requestable?: boolean
  /**
   * Checks and normalises the stored request at creation (throw a ProblemError); when absent the
   * input is taken as the route validated it.
   */
  validate?(request: RenderRequest): void
  /** true when the producer, not an output plugin, decides the format (zip, several files) */
  readonly ownsOutput?: boolean
  /**
   * Whether the output plugin of the request's format draws its file, so that a request's
   * `engine` may name that output's engine (default: unless `ownsOutput`).
   */
  drawsWithOutput?(request: RenderRequest): boolean
  produce(ctx: ProducerContext): Promise<Production>
}

/** The work of a producer without its registry shape: what a service that backs one implements. */
export type ProducerWork = Pick<RenderProducer, 'validate' | 'drawsWithOutput' | 'produce'>

/**
 * Whether the request's output plugin draws the producer's file (so `engine` may name it): the
 * producer says so, else it does unless the producer owns the output. The one place of the default.
 */
export function drawsWithOutput(
  producer: Pick<RenderProducer, 'drawsWithOutput'>,
  ownsOutput: boolean | undefined,
  request: RenderRequest,
): boolean {
  return producer.drawsWithOutput?.(request) ?? !ownsOutput
}
