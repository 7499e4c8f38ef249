import { exclusiveBuffer, WorkerPool } from '@docsvc/core/sdk'
import type { TextRun } from './layer-context.ts'
import type { RasterPdfInput } from './raster-pdf-task.ts'

const RASTER_PDF_TASK = new URL('./raster-pdf-task.ts', import.meta.url)
const TASK_MS = 60_000

// one thread: canvas PDFs are rare next to images, and each may hold up to its budget
let pool: WorkerPool | undefined

/**
 * The canvas PNG as a one-page PDF, made in a killable thread (docs/decisions/0025): past
 * 256 MB of heap, 512 MB of buffers or a minute, the render fails with render_failed.
 */
export async function rasterPdfInWorker(
  png: Buffer,
  page: { width: number; height: number },
  runs: TextRun[],
): Promise<Buffer> {
  pool ??= new WorkerPool({
    name: 'canvas-pdf',
    size: 1,
    heapMb: 256,
    buffersMb: 512,
    budgetCode: 'render_failed',
  })
  const input: RasterPdfInput = { png, page, runs }
  const bytes = await pool.run<Uint8Array>({
    module: RASTER_PDF_TASK,
    input,
    // the PNG is made for this PDF alone: it moves to the thread
    transfer: exclusiveBuffer(png),
    timeMs: TASK_MS,
    subject: 'Making the PDF page',
  })
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}
