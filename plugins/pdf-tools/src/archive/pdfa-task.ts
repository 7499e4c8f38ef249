// Task module (PDF thread): makes a printed PDF a PDF/A-2b or -3b file in place (the PDF/A
// step's pdf-lib part). Chromium's own objects stay as they are (fonts, images, structure tree);
// what ISO 19005-2/-3 asks on top is added, what it forbids is removed or reported.
import { createHash } from 'node:crypto'
import {
  ParseSpeeds,
  PDFArray,
  PDFDocument,
  PDFHeader,
  PDFHexString,
  PDFName,
  PDFString,
} from '@cantoo/pdf-lib'
import { exclusiveBuffer, type Finding, transferring } from '@docsvc/core/sdk'
import { readMetadata } from '../pdf-info.ts'
import { pdfProblem } from '../tasks/pdf-task-errors.ts'
import { writeXmp } from '../xmp.ts'
import { declareEmbeddedFiles } from './embedded-files.ts'
import { fixCatalog, fixPages } from './interactive.ts'
import { fixObjects } from './object-fixes.ts'
import { setOutputIntent } from './output-intent.ts'

// pdf-lib yields to the event loop every 50 objects while it parses and writes; in a PDF thread
// nothing else waits on this loop (an abort or a budget terminates the thread), so the yields
// only add time: about half of it on a 50-page print
const UNBROKEN = Number.POSITIVE_INFINITY

export interface PdfaTaskInput {
  pdf: Uint8Array
  part: 2 | 3
}

export interface PdfaTaskOutput {
  bytes: Uint8Array
  pages: number
  findings: Finding[]
  /** embedded files declared (PDF/A-3) or reported (PDF/A-2) */
  embeddedFiles: number
}

/**
 * 6.1.3: the trailer's /ID is two byte strings; an existing one is kept (it names the file), a
 * missing one is made from the file's bytes (the same bytes, the same ID).
 */
function ensureFileId(doc: PDFDocument, input: Uint8Array): void {
  const id = doc.context.trailerInfo.ID
  const parts = id instanceof PDFArray ? id.asArray() : []
  if (parts.length === 2 && parts.every((p) => p instanceof PDFHexString || p instanceof PDFString)) return
  const digest = createHash('md5').update(input).digest('hex')
  doc.context.trailerInfo.ID = doc.context.obj([PDFHexString.of(digest), PDFHexString.of(digest)])
}

/** 6.1.2: header %PDF-1.7 (pdf-lib writes the binary comment after it); no newer /Version. */
function setVersion(doc: PDFDocument): void {
  doc.context.header = PDFHeader.forVersion(1, 7)
  const version = doc.catalog.get(PDFName.of('Version'))
  if (version instanceof PDFName && version.decodeText() > '1.7') doc.catalog.delete(PDFName.of('Version'))
}

export default async function pdfaTask(input: PdfaTaskInput): Promise<PdfaTaskOutput> {
  let doc: PDFDocument
  try {
    doc = await PDFDocument.load(input.pdf, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest })
  } catch (err) {
    // our own printed PDF (protection comes after this step): a failure is the render's
    throw pdfProblem(err, 'the printed PDF', 'render_failed')
  }
  const findings: Finding[] = []
  setVersion(doc)
  ensureFileId(doc, input.pdf)
  setOutputIntent(doc)
  fixCatalog(doc, findings)
  fixPages(doc, findings)
  fixObjects(doc, findings)
  const embeddedFiles = declareEmbeddedFiles(doc, input.part, findings)
  // 6.6: the packet says what the Info dictionary says, and claims the part and level
  writeXmp(doc, readMetadata(doc), { 'pdfaid:part': String(input.part), 'pdfaid:conformance': 'B' })
  const bytes = await doc.save({
    updateFieldAppearances: false,
    addDefaultPage: false,
    objectsPerTick: UNBROKEN,
  })
  return transferring({ bytes, pages: doc.getPageCount(), findings, embeddedFiles }, exclusiveBuffer(bytes))
}
