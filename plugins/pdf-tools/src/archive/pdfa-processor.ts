import type { PdfPostProcessor } from '@docsvc/core/sdk'
import { asBuffer, exclusiveBuffer, runPdfTask } from '../pdf-workers.ts'
import { type PdfaOptions, PdfaOptionsSchema } from './pdfa-options.ts'
import type { PdfaTaskInput, PdfaTaskOutput } from './pdfa-task.ts'

const PDFA_TASK = new URL('./pdfa-task.ts', import.meta.url)

/**
 * `pdf.pdfa` (SPEC 1.3): makes Chromium's printed PDF a PDF/A-2b or -3b file in place, in a PDF
 * thread with a memory and time budget (no Ghostscript round trip: it would drop the structure
 * tree and re-subset the fonts). Runs in the archive phase, after the attach step, so PDF/A-3
 * declares the files the request attached (decision 0100).
 */
export const pdfaProcessor: PdfPostProcessor<PdfaOptions> = {
  id: 'pdfa',
  phase: 'archive',
  optionsSchema: PdfaOptionsSchema,
  async run(pdf, options, ctx) {
    const part = options.pdfa === '3b' ? 3 : 2
    // a copy moves to the thread: the chain's buffer stays the caller's
    const bytes = Uint8Array.from(pdf)
    const input: PdfaTaskInput = { pdf: bytes, part }
    const out = await runPdfTask<PdfaTaskOutput>(PDFA_TASK, input, {
      signal: ctx.signal,
      subject: `Making the PDF/A-${part}b file`,
      // our own printed PDF: a budget overrun is the render's failure, not a bad source
      budgetCode: 'render_failed',
      transfer: exclusiveBuffer(bytes),
    })
    ctx.log(
      `PDF/A-${part}b: output intent, XMP, ${out.embeddedFiles} embedded files, ${out.findings.length} findings`,
    )
    return { bytes: asBuffer(out.bytes), findings: out.findings }
  },
}
