import { decodePDFRawStream, PDFArray, type PDFPage, PDFRawStream, PDFRef } from '@cantoo/pdf-lib'
import { name } from './structure-tree.ts'

/**
 * A page's content as one decoded stream: a page's streams are one sequence of operators, and a
 * marked-content sequence may cross from one to the next. Throws when a stream cannot be decoded.
 */
export function pageContent(page: PDFPage): Buffer | undefined {
  const { context } = page.doc
  const contents = page.node.get(name('Contents'))
  const listed = contents instanceof PDFRef ? context.lookup(contents) : contents
  const streams = listed instanceof PDFArray ? listed.asArray().map((s) => context.lookup(s)) : [listed]
  if (listed === undefined) return undefined
  const decoded = streams.map((s) => {
    if (!(s instanceof PDFRawStream)) throw new Error('its content is not a stream')
    return Buffer.from(decodePDFRawStream(s).decode())
  })
  // a newline between streams: one may end in a token the next continues
  return Buffer.concat(decoded.flatMap((d) => [d, Buffer.from('\n')]))
}
