import type {
  GuardedFetch,
  ProducedFile,
  RenderDocument,
  RenderedFile,
  RenderWarningCode,
} from '../sdk/render-contracts.ts'
import type { Render, RenderRequest } from './render.ts'

// Most renders are "an input plugin makes a document, an output plugin prints it". Renders whose
// input is a stored thing (a template) or a set of PDFs (a PDF tool) are made by a producer that a
// core feature registers for its input type; the runner asks the producer instead.

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
  produce(ctx: ProducerContext): Promise<Production>
}

/** The producers of this installation, by input type. */
export class RenderProducers {
  readonly #byType = new Map<string, RenderProducer>()

  constructor(producers: RenderProducer[] = []) {
    for (const p of producers) this.add(p)
  }

  add(producer: RenderProducer): void {
    if (this.#byType.has(producer.inputType)) {
      throw new Error(`two render producers for input type ${producer.inputType}`)
    }
    this.#byType.set(producer.inputType, producer)
  }

  get(inputType: string): RenderProducer | undefined {
    return this.#byType.get(inputType)
  }

  /** the input types a client may name that a producer, not an input plugin, makes */
  requestableTypes(): string[] {
    return [...this.#byType.values()].filter((p) => p.requestable === true).map((p) => p.inputType)
  }
}

/**
 * Every `input.type` a render request may name on this installation: the input plugins' and the
 * requestable producers'. The one list behind the error for an unknown type and
 * `capabilities.inputs`.
 */
export function renderInputTypes(inputPlugins: { keys(): string[] }, producers: RenderProducers): string[] {
  return [...new Set([...inputPlugins.keys(), ...producers.requestableTypes()])].sort()
}
