// Task module (PDF thread): the metadata tool's pdf-lib part, a report or a `set`.
import { PDFDocument } from '@cantoo/pdf-lib'
import { exclusiveBuffer, transferring } from '@docsvc/core/sdk'
import { applyMetadata, pageSizeRuns, pdfVersion, readMetadata } from '../pdf-info.ts'
import type { Encryption } from '../pdf-probe.ts'
import { writeXmp } from '../xmp.ts'
import { bufferOf, pdfProblem } from './pdf-task-errors.ts'

export interface MetadataTaskInput {
  /** the PDF, decrypted when it opens without a password (owner-only restrictions) */
  bytes: Uint8Array
  /** the first KB of the file as it came: its header names its version */
  head: Uint8Array
  encryption: Encryption
  set?: Record<string, unknown>
}

export interface MetadataTaskOutput {
  result: Record<string, unknown>
  /** the changed PDF, for a `set` */
  file?: { bytes: Uint8Array; pages: number }
}

const LOAD = { updateMetadata: false } as const

export default async function metadataTask(input: MetadataTaskInput): Promise<MetadataTaskOutput> {
  const head = bufferOf(input.head)
  if (input.encryption === 'password') {
    // the page tree is not encrypted, so pages and sizes can still be read; strings cannot
    const doc = await PDFDocument.load(input.bytes, { ...LOAD, ignoreEncryption: true }).catch(
      () => undefined,
    )
    const pages = doc ? readPages(doc) : undefined
    return {
      result: {
        pages: pages?.count ?? null,
        page_sizes: pages?.sizes ?? [],
        encrypted: true,
        pdf_version: pdfVersion(head, undefined),
        metadata: null,
      },
    }
  }
  try {
    const doc = await PDFDocument.load(input.bytes, LOAD)
    if (!input.set) return { result: report(doc, head, input.encryption !== 'none') }
    applyMetadata(doc, input.set)
    writeXmp(doc, readMetadata(doc))
    const bytes = await doc.save({ updateFieldAppearances: false })
    const result = report(doc, bufferOf(bytes), false)
    return transferring({ result, file: { bytes, pages: doc.getPageCount() } }, exclusiveBuffer(bytes))
  } catch (err) {
    throw pdfProblem(err, 'the source')
  }
}

function readPages(doc: PDFDocument) {
  try {
    return { count: doc.getPageCount(), sizes: pageSizeRuns(doc) }
  } catch {
    return undefined
  }
}

function report(doc: PDFDocument, bytes: Buffer, encrypted: boolean) {
  return {
    pages: doc.getPageCount(),
    page_sizes: pageSizeRuns(doc),
    encrypted,
    pdf_version: pdfVersion(bytes, doc),
    metadata: readMetadata(doc),
  }
}
