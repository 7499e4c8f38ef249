import { definePlugin } from '@docsvc/core/sdk'
import { pdfUaProcessor } from './accessibility/pdfua-processor.ts'
import { pdfaProcessor } from './archive/pdfa-processor.ts'
import { attachTool } from './attach-tool.ts'
import { mergeTool } from './merge-tool.ts'
import { metadataTool } from './metadata-tool.ts'
import { configurePdfWorkers, PdfWorkersConfigSchema, stopPdfWorkers, warmPdfWorkers } from './pdf-workers.ts'
import { protectTool } from './protect-tool.ts'
import { rotateTool } from './rotate-tool.ts'
import { splitTool } from './split-tool.ts'
import { unlockTool } from './unlock-tool.ts'

export { pdfUaProcessor } from './accessibility/pdfua-processor.ts'
export { pdfaProcessor } from './archive/pdfa-processor.ts'
export { type Attachment, attachTool } from './attach-tool.ts'
export { parsePages, resolvePages } from './page-ranges.ts'
export { configurePdfWorkers, type PdfWorkersConfig } from './pdf-workers.ts'
export { DEFAULT_PERMISSIONS, type Permissions } from './protect-tool.ts'
export { MAX_SPLIT_OUTPUTS, splitStem } from './split-tool.ts'

const TOOLS = [mergeTool, metadataTool, protectTool, rotateTool, splitTool, unlockTool, attachTool]

/**
 * The PDF tools of SPEC 4.4 (and `attach` for `pdf.attachments`): @cantoo/pdf-lib for structure,
 * in killable worker threads with a memory and time budget (the `config`), the qpdf command
 * (Debian `qpdf`) for byte work such as AES-256 (DESIGN.md §2). The PDF/A step (`pdf.pdfa`)
 * is a post-processor of the archive phase.
 */
export const pdfToolsPlugin = definePlugin({
  id: 'pdf-tools',
  apiVersion: '^1',
  provides: {
    pdfTools: TOOLS.map((t) => t.name),
    pdfPostProcessors: [pdfaProcessor.id, pdfUaProcessor.id],
  },
  config: PdfWorkersConfigSchema,
  register({ registries, config }) {
    configurePdfWorkers(config)
    for (const tool of TOOLS) registries.pdfTools.add(tool.name, tool)
    registries.pdfPostProcessors.add(pdfaProcessor.id, pdfaProcessor)
    registries.pdfPostProcessors.add(pdfUaProcessor.id, pdfUaProcessor)
  },
  start({ roles }) {
    if (roles.includes('worker')) warmPdfWorkers()
  },
  async stop() {
    await stopPdfWorkers()
  },
})
