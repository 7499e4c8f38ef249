import { WorkerPool } from '../kernel/worker-pool/worker-pool.ts'
import type { RenderedFile } from '../sdk/render-contracts.ts'

const PDF_TASK = new URL('./pdf-test-mark-task.ts', import.meta.url)
// a tool's source may be a hostile PDF: stamping it runs in a killable thread with budgets
// (decision 0025); our own prints need a fraction of them
const PDF_BUDGET = { heapMb: 512, buffersMb: 1024, timeMs: 60_000 }
let pool: WorkerPool | undefined

/** The PDF stamped in a thread of the test-mark pool; budget overruns are render_failed. */
async function stampPdf(bytes: Buffer): Promise<Buffer> {
  pool ??= new WorkerPool({
    name: 'test-mark',
    size: 1,
    heapMb: PDF_BUDGET.heapMb,
    buffersMb: PDF_BUDGET.buffersMb,
    budgetCode: 'render_failed',
  })
  // copied in, not moved: a caller whose source cannot be stamped still has its bytes
  const stamped = await pool.run<Uint8Array>({
    module: PDF_TASK,
    input: { bytes },
    timeMs: PDF_BUDGET.timeMs,
    subject: 'Marking the PDF TEST',
  })
  return Buffer.from(stamped.buffer, stamped.byteOffset, stamped.byteLength)
}

// SPEC "Test mode": a test key's output is marked TEST. The mark goes on the finished file,
// after the page or scene is done and before anything seals the file (attachments, protection):
// the one mechanism for every output (docs/decisions/0023-test-mark-on-finished-output.md).

/** How a test render's finished file gets its mark (a seam for tests whose fake outputs print no real files). */
export type TestMark = (
  file: RenderedFile,
  outputOptions?: Record<string, unknown> | null,
) => Promise<RenderedFile>

/**
 * The file with the TEST mark: every page of a PDF, the pixels of an image (a lossy one encoded
 * again at the output's `quality`). HTML has nothing outside the page to draw on and passes
 * unchanged, as do files that are not documents.
 */
export const stampTestFile: TestMark = async (file, outputOptions) => {
  const quality = typeof outputOptions?.quality === 'number' ? outputOptions.quality : undefined
  switch (file.format) {
    case 'pdf':
      return { ...file, bytes: await stampPdf(file.bytes) }
    case 'png':
    case 'jpeg':
    case 'webp': {
      // sharp is loaded on the first stamped image, not by every process whose container wires
      // this in (the admin CLI loads no image library: docs/decisions/0035)
      const { stampTestImage } = await import('./image-test-mark.ts')
      return { ...file, bytes: await stampTestImage(file.bytes, file.format, quality) }
    }
    default:
      return file
  }
}
