// Task module (PDF thread): embeds files in a printed PDF (the attach tool's pdf-lib part).
import { AFRelationship, PDFArray, PDFDocument, PDFName } from '@cantoo/pdf-lib'
import { exclusiveBuffer, transferring } from '@docsvc/core/sdk'
import { pdfProblem } from './pdf-task-errors.ts'

export interface AttachTaskFile {
  name: string
  bytes: Uint8Array
  mime_type?: string
  description?: string
  relationship?: string
}

export interface AttachTaskOutput {
  bytes: Uint8Array
  pages: number
  /** entries in the catalog's /AF, if it has one */
  af: number | undefined
}

const RELATIONSHIPS = new Set<string>(Object.values(AFRelationship))

export default async function attachTask(input: {
  pdf: Uint8Array
  files: AttachTaskFile[]
}): Promise<AttachTaskOutput> {
  let doc: PDFDocument
  try {
    doc = await PDFDocument.load(input.pdf, { updateMetadata: false })
  } catch (err) {
    throw pdfProblem(err, 'the printed PDF', 'render_failed')
  }
  const now = new Date()
  for (const file of input.files) {
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
  const bytes = await doc.save({ updateFieldAppearances: false })
  const af = doc.catalog.lookupMaybe(PDFName.of('AF'), PDFArray)?.size()
  return transferring({ bytes, pages: doc.getPageCount(), af }, exclusiveBuffer(bytes))
}
