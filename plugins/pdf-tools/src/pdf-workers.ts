import { exclusiveBuffer, type ProblemCode, WorkerPool } from '@docsvc/core/sdk'
import { type Static, Type } from 'typebox'

// pdf-lib reads untrusted PDFs: a compressed-stream bomb inflates to gigabytes, a cyclic page
// tree recurses without end, a hostile file can take seconds of CPU. So every pdf-lib parse or
// edit runs in a thread of core's WorkerPool (docs/decisions/0025-killable-worker-pool.md), with
// a memory and a time budget; past either, the thread is terminated and replaced, and the render
// fails with a clear problem instead of taking the process down.

export const PdfWorkersConfigSchema = Type.Object({
  workers: Type.Integer({
    minimum: 1,
    maximum: 32,
    default: 2,
    description: 'threads reading PDFs with pdf-lib',
  }),
  workerHeapMb: Type.Integer({
    minimum: 32,
    default: 256,
    description: 'V8 heap of each PDF thread, in MB (pdf-lib objects of one PDF)',
  }),
  workerBuffersMb: Type.Integer({
    minimum: 32,
    default: 512,
    description: "memory outside the heap a PDF task may hold, in MB (the PDF's bytes, inflated streams)",
  }),
  taskSeconds: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 60,
    description: 'time budget of one pdf-lib task (besides the render timeout)',
  }),
})

export type PdfWorkersConfig = Static<typeof PdfWorkersConfigSchema>

const DEFAULTS: PdfWorkersConfig = { workers: 2, workerHeapMb: 256, workerBuffersMb: 512, taskSeconds: 60 }

let settings = DEFAULTS
let pool: WorkerPool | undefined

/** Sets the threads' count and budgets (at plugin registration; tasks in progress fail). */
export function configurePdfWorkers(config: Partial<PdfWorkersConfig>): void {
  settings = { ...settings, ...config }
  void stopPdfWorkers()
}

/** Terminates the threads (shutdown); the next task starts fresh ones. */
export async function stopPdfWorkers(): Promise<void> {
  const old = pool
  pool = undefined
  await old?.close()
}

export interface PdfTaskOptions {
  /** aborts the task (and terminates its thread): the render's signal */
  signal: AbortSignal
  /** what the budget errors name, e.g. `Reading the source` */
  subject: string
  /** buffers moved into the thread: the caller must not use their bytes afterwards */
  transfer?: ArrayBuffer[]
  /** a budget overrun's code when not invalid_pdf_source (e.g. our own printed PDF: render_failed) */
  budgetCode?: ProblemCode
}

/** Starts the threads ahead of the first PDF (when a render worker starts). */
export function warmPdfWorkers(): void {
  workerPool().warm()
}

function workerPool(): WorkerPool {
  pool ??= new WorkerPool({
    name: 'pdf',
    size: settings.workers,
    heapMb: settings.workerHeapMb,
    buffersMb: settings.workerBuffersMb,
    budgetCode: 'invalid_pdf_source',
  })
  return pool
}

/** Runs a task module of ./tasks in a PDF thread. */
export function runPdfTask<T>(module: URL, input: unknown, options: PdfTaskOptions): Promise<T> {
  return workerPool().run<T>({
    module,
    input,
    timeMs: settings.taskSeconds * 1000,
    signal: options.signal,
    subject: options.subject,
    ...(options.transfer ? { transfer: options.transfer } : {}),
    ...(options.budgetCode ? { budgetCode: options.budgetCode } : {}),
  })
}

/** Bytes a task hands back, as a Buffer over the same memory (no copy). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

export { exclusiveBuffer }
