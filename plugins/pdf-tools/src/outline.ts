import { PDFDocument, PDFHexString, PDFName, PDFNumber, type PDFRef } from '@cantoo/pdf-lib'

/**
 * Replaces the outline with one top-level bookmark per source, each opening the source's first
 * page (pdf-lib has no outline API, so the dictionaries are written as PDF 32000 §12.3.3 says).
 */
export async function addSourceBookmarks(
  bytes: Uint8Array,
  entries: { title: string; pages: number }[],
): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false })
  const pages = doc.getPages()
  const root = doc.context.nextRef()
  const refs: PDFRef[] = entries.map(() => doc.context.nextRef())
  let first = 0
  for (const [i, entry] of entries.entries()) {
    const page = pages[first]
    first += entry.pages
    if (!page) continue
    const item = doc.context.obj({
      Title: PDFHexString.fromText(entry.title),
      Parent: root,
      Dest: [page.ref, PDFName.of('Fit')],
    })
    if (i > 0) item.set(PDFName.of('Prev'), refs[i - 1]!)
    if (i < refs.length - 1) item.set(PDFName.of('Next'), refs[i + 1]!)
    doc.context.assign(refs[i]!, item)
  }
  const outlines = doc.context.obj({ Type: 'Outlines' })
  if (refs.length > 0) {
    outlines.set(PDFName.of('First'), refs[0]!)
    outlines.set(PDFName.of('Last'), refs[refs.length - 1]!)
    outlines.set(PDFName.of('Count'), PDFNumber.of(refs.length))
  }
  doc.context.assign(root, outlines)
  doc.catalog.set(PDFName.of('Outlines'), root)
  return doc.save({ updateFieldAppearances: false })
}
