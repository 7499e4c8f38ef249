import type { PdfTool } from '@docsvc/core/sdk'
import { asBuffer, exclusiveBuffer, runPdfTask } from './pdf-workers.ts'
import type { AttachTaskOutput } from './tasks/attach-task.ts'
import type { PdfToolContext, PdfToolOutput, PdfToolSource, ToolOptions } from './tool-types.ts'

export interface Attachment {
  name: string
  bytes: Buffer
  mime_type?: string
  description?: string
  relationship?: string
}

const ATTACH_TASK = new URL('./tasks/attach-task.ts', import.meta.url)

/**
 * `attach` (the `pdf.attachments` render option, not a route): embeds files with their name,
 * MIME type, description and AFRelationship, listed in the catalog's /AF as PDF/A-3 wants. The
 * pdf-lib work runs in a PDF thread with a memory and time budget.
 */
export const attachTool: PdfTool = {
  name: 'attach',
  async run(sources: PdfToolSource[], options: ToolOptions, ctx: PdfToolContext): Promise<PdfToolOutput> {
    const [source] = sources
    if (!source) return { files: [] }
    const files = (options.files ?? []) as Attachment[]
    const out = await runPdfTask<AttachTaskOutput>(
      ATTACH_TASK,
      { pdf: source.bytes, files },
      {
        signal: ctx.signal,
        subject: 'Attaching the files',
        // our own printed PDF: a budget overrun is the render's failure, not a bad source
        budgetCode: 'render_failed',
        // the printed PDF and the files move to the thread (none is used here afterwards)
        transfer: [...new Set([source.bytes, ...files.map((f) => f.bytes)].flatMap(exclusiveBuffer))],
      },
    )
    ctx.log(`attached ${files.length} files${out.af !== undefined ? ` (${out.af} in /AF)` : ''}`)
    return { files: [{ format: 'pdf', bytes: asBuffer(out.bytes), pages: out.pages }] }
  },
}
