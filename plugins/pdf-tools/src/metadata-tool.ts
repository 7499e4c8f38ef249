import { type PdfTool, ProblemError } from '@docsvc/core/sdk'
import { encryptionOf, pageCount, qpdfStep, requireWithinPageLimit } from './pdf-probe.ts'
import { asBuffer, exclusiveBuffer, runPdfTask } from './pdf-workers.ts'
import { withWorkDir } from './qpdf.ts'
import type { MetadataTaskInput, MetadataTaskOutput } from './tasks/metadata-task.ts'
import type { PdfToolContext, PdfToolOutput, PdfToolSource, ToolOptions } from './tool-types.ts'

const METADATA_TASK = new URL('./tasks/metadata-task.ts', import.meta.url)

/**
 * `metadata`: without `set` the report `{pages, page_sizes, encrypted, pdf_version, metadata}`;
 * with `set` the PDF with those fields changed (XMP in step) and the report of the new file.
 * qpdf reads the page count first (and decides whether the file is readable at all: pdf-lib
 * accepts much that is not); pdf-lib then works in a PDF thread with a memory and time budget.
 */
export const metadataTool: PdfTool = {
  name: 'metadata',
  // a read answers in `result` only
  fileCount: (options: ToolOptions) => (options.set != null ? 1 : 0),
  async run(sources: PdfToolSource[], options: ToolOptions, ctx: PdfToolContext): Promise<PdfToolOutput> {
    const [source] = sources
    if (!source) return { files: [] }
    const set = options.set as Record<string, unknown> | null | undefined
    return withWorkDir(ctx, async (work) => {
      const file = await work.place('in-1.pdf', source)
      const encryption = await encryptionOf(work, file, source.bytes, ctx.signal)
      if (encryption !== 'none' && set) {
        throw new ProblemError('pdf_password_required', 'The PDF is encrypted; unlock it first.')
      }
      let bytes = source.bytes
      if (encryption !== 'password') {
        // (a file that needs a password cannot be counted by qpdf: pdf-lib counts it, in its budget)
        requireWithinPageLimit(
          await pageCount(work, file, 'the source', ctx.signal),
          ctx.maxPages,
          'the source',
        )
      }
      if (encryption === 'owner_only') {
        // restrictions only: it opens without a password, so it can be read in the clear
        await qpdfStep(['--decrypt', file, 'clear.pdf'], work, ctx.signal)
        bytes = await work.read('clear.pdf')
      }
      // copied: the bytes themselves move to the thread
      const head = Uint8Array.from(source.bytes.subarray(0, 1024))
      const input: MetadataTaskInput = { bytes, head, encryption, ...(set ? { set } : {}) }
      const output = await runPdfTask<MetadataTaskOutput>(METADATA_TASK, input, {
        signal: ctx.signal,
        subject: 'Reading the source',
        transfer: exclusiveBuffer(bytes),
      })
      if (!output.file) return { files: [], result: output.result }
      ctx.log(`set ${Object.keys(set ?? {}).join(', ')}`)
      return {
        files: [{ format: 'pdf', bytes: asBuffer(output.file.bytes), pages: output.file.pages }],
        result: output.result,
      }
    })
  },
}
