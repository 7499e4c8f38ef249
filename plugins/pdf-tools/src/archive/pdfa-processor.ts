import { type PdfPostProcessor, ProblemError } from '@docsvc/core/sdk'
import { asBuffer, exclusiveBuffer, runPdfTask } from '../pdf-workers.ts'
import { type PdfaOptions, PdfaOptionsSchema, pdfaOptionProblems } from './pdfa-options.ts'
import type { PdfaTaskInput, PdfaTaskOutput } from './pdfa-task.ts'

const PDFA_TASK = new URL('./pdfa-task.ts', import.meta.url)

/**
 * `pdf.pdfa` (SPEC 1.3): makes Chromium's printed PDF a PDF/A-2b or -3b file in place, in a PDF
 * thread with a memory and time budget (no Ghostscript round trip: it would drop the structure
 * tree and re-subset the fonts). Runs in the archive phase, after the attach step, so PDF/A-3
 * declares the files the request attached; protection, which PDF/A forbids, is refused up front.
 */
export const pdfaProcessor: PdfPostProcessor<PdfaOptions> = {
  id: 'pdfa',
  phase: 'archive',
  optionsSchema: PdfaOptionsSchema,
  check: (options) => pdfaOptionProblems(options),
  async run(pdf, options, ctx) {
    const problems = pdfaOptionProblems(options)
    if (problems.length > 0) {
      const errors = problems.map((p) => ({ ...p, path: `/output/pdf${p.path}` }))
      throw new ProblemError('validation_error', `${errors[0]!.path}: ${errors[0]!.message}`, { errors })
    }
    const part = options.pdfa === '3b' ? 3 : 2
    // a copy moves to the thread: the chain's buffer stays the caller's
    const bytes = Uint8Array.from(pdf)
    const input: PdfaTaskInput = {
      pdf: bytes,
      part,
      attachments: (options.attachments ?? []).map((a) => ({
        name: a.name,
        ...(a.mime_type ? { mime_type: a.mime_type } : {}),
        ...(a.relationship ? { relationship: a.relationship } : {}),
      })),
    }
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
