import { type PDFDict, PDFName, PDFNumber } from '@cantoo/pdf-lib'
import type { Values } from './pdf-values.ts'

/** An Encoding dictionary's Differences (ISO 32000-1 9.6.6.1): character code to glyph name. */
export function differences(v: Values, encoding: PDFDict | undefined): Map<number, string> {
  const names = new Map<number, string>()
  let code = 0
  for (const item of v.items(v.array(encoding, 'Differences'))) {
    if (item instanceof PDFNumber) code = item.asNumber()
    else if (item instanceof PDFName) names.set(code++, item.decodeText())
  }
  return names
}
