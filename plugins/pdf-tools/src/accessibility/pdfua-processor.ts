import { PdfMetadataSchema, type PdfPostProcessor } from '@docsvc/core/sdk'
import { type Static, Type } from 'typebox'
import { asBuffer, runPdfTask } from '../pdf-workers.ts'
import type { AccessibilityTaskInput, AccessibilityTaskOutput } from './accessibility-task.ts'

const ACCESSIBILITY_TASK = new URL('./accessibility-task.ts', import.meta.url)

/** the render options the step reads (`pdf.*`): the others pass by it */
export const PdfUaOptionsSchema = Type.Object({
  pdfua: Type.Optional(Type.Boolean()),
  tagged: Type.Optional(Type.Boolean()),
  metadata: Type.Optional(PdfMetadataSchema),
  locale: Type.Optional(Type.String()),
})

export type PdfUaOptions = Static<typeof PdfUaOptionsSchema>

const given = (value: string | null | undefined) =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined

/**
 * `pdf.pdfua` (PDF/UA-1) and `pdf.tagged`: what Chromium's tagged print lacks, added in place
 * (decision 0103): the document's title and language, the XMP claim (pdfua only), link
 * descriptions and their structure elements, artifacts around untagged content. What only the
 * author can fix (a missing title or language, images without alt text) comes back as findings
 * for `result.conformance.pdfua`. pdf-lib runs in a PDF thread with its memory and time budget.
 */
export const pdfUaProcessor: PdfPostProcessor<PdfUaOptions> = {
  id: 'pdfua',
  phase: 'accessibility',
  optionsSchema: PdfUaOptionsSchema,
  async run(pdf, options, ctx) {
    ctx.signal.throwIfAborted()
    if (options.pdfua !== true && options.tagged !== true) return { bytes: pdf }
    const input: AccessibilityTaskInput = {
      // a copy: the caller's bytes stay as they are, the copy moves to the thread
      pdf: Uint8Array.from(pdf),
      identity: {
        title: given(options.metadata?.title),
        lang: given(options.metadata?.lang),
        locale: given(options.locale),
        claim: options.pdfua === true,
      },
    }
    const output = await runPdfTask<AccessibilityTaskOutput>(ACCESSIBILITY_TASK, input, {
      signal: ctx.signal,
      subject: 'Making the PDF accessible',
      transfer: [input.pdf.buffer as ArrayBuffer],
      budgetCode: 'render_failed',
    })
    ctx.log(`pdfua: ${output.done}; ${output.findings.length} findings`)
    return { bytes: asBuffer(output.pdf), findings: output.findings }
  },
}
