import { PDFDocument } from '@cantoo/pdf-lib'
import { type PdfTool, ProblemError } from '@docsvc/core/sdk'
import { applyMetadata, pageSizeRuns, pdfVersion, readMetadata } from './pdf-info.ts'
import { encryptionOf, pageCount, qpdfStep } from './pdf-probe.ts'
import { withWorkDir } from './qpdf.ts'
import type { PdfToolContext, PdfToolOutput, PdfToolSource, ToolOptions } from './tool-types.ts'
import { writeXmp } from './xmp.ts'

const LOAD = { updateMetadata: false } as const

/**
 * `metadata`: without `set` the report `{pages, page_sizes, encrypted, pdf_version, metadata}`;
 * with `set` the PDF with those fields changed (XMP in step) and the report of the new file.
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
      if (encryption === 'password') {
        // the page tree is not encrypted, so pages and sizes can still be read; strings cannot
        const doc = await PDFDocument.load(source.bytes, { ...LOAD, ignoreEncryption: true }).catch(
          () => undefined,
        )
        return {
          files: [],
          result: {
            pages: doc?.getPageCount() ?? null,
            page_sizes: doc ? pageSizeRuns(doc) : [],
            encrypted: true,
            pdf_version: pdfVersion(source.bytes, undefined),
            metadata: null,
          },
        }
      }
      const load = async () => {
        let clear = source.bytes
        if (encryption === 'owner_only') {
          // restrictions only: it opens without a password, so it can be read in the clear
          await qpdfStep(['--decrypt', file, 'clear.pdf'], work, ctx.signal)
          clear = await work.read('clear.pdf')
        }
        return PDFDocument.load(clear, LOAD).catch((err: Error) => {
          throw new ProblemError('invalid_pdf_source', `The PDF's structure cannot be read: ${err.message}.`)
        })
      }
      // qpdf decides whether the file is readable at all (pdf-lib accepts much that is not);
      // pdf-lib reads it meanwhile, and qpdf's verdict comes first
      const [readable, loaded] = await Promise.allSettled([
        pageCount(work, file, 'the source', ctx.signal),
        load(),
      ])
      if (readable.status === 'rejected') throw readable.reason
      if (loaded.status === 'rejected') throw loaded.reason
      const doc = loaded.value
      if (!set) return { files: [], result: report(doc, source.bytes, encryption !== 'none') }
      applyMetadata(doc, set)
      writeXmp(doc, readMetadata(doc))
      const bytes = Buffer.from(await doc.save({ updateFieldAppearances: false }))
      ctx.log(`set ${Object.keys(set).join(', ')}`)
      return {
        files: [{ format: 'pdf', bytes, pages: doc.getPageCount() }],
        result: report(doc, bytes, false),
      }
    })
  },
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
