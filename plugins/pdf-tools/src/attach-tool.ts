import { AFRelationship, PDFArray, PDFDocument, PDFName } from '@cantoo/pdf-lib'
import { type PdfTool, ProblemError } from '@docsvc/core/sdk'
import type { PdfToolContext, PdfToolOutput, PdfToolSource, ToolOptions } from './tool-types.ts'

export interface Attachment {
  name: string
  bytes: Buffer
  mime_type?: string
  description?: string
  relationship?: string
}

const RELATIONSHIPS = new Set<string>(Object.values(AFRelationship))

/**
 * `attach` (the `pdf.attachments` render option, not a route): embeds files with their name,
 * MIME type, description and AFRelationship, listed in the catalog's /AF as PDF/A-3 wants.
 */
export const attachTool: PdfTool = {
  name: 'attach',
  async run(sources: PdfToolSource[], options: ToolOptions, ctx: PdfToolContext): Promise<PdfToolOutput> {
    const [source] = sources
    if (!source) return { files: [] }
    const files = (options.files ?? []) as Attachment[]
    const doc = await PDFDocument.load(source.bytes, { updateMetadata: false }).catch((err: Error) => {
      throw new ProblemError('render_failed', `The printed PDF cannot take attachments: ${err.message}.`)
    })
    const now = new Date()
    for (const file of files) {
      await doc.attach(file.bytes, file.name, {
        ...(file.mime_type ? { mimeType: file.mime_type } : {}),
        ...(file.description ? { description: file.description } : {}),
        afRelationship: (RELATIONSHIPS.has(file.relationship ?? '')
          ? file.relationship
          : 'Unspecified') as AFRelationship,
        creationDate: now,
        modificationDate: now,
      })
    }
    const bytes = Buffer.from(await doc.save({ updateFieldAppearances: false }))
    const af = doc.catalog.lookupMaybe(PDFName.of('AF'), PDFArray)
    ctx.log(`attached ${files.length} files${af ? ` (${af.size()} in /AF)` : ''}`)
    return { files: [{ format: 'pdf', bytes, pages: doc.getPageCount() }] }
  },
}
