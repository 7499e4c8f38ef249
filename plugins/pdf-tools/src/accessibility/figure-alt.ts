import type { PDFDocument, PDFObject } from '@cantoo/pdf-lib'
import type { Finding } from '@docsvc/core/sdk'
import {
  firstContentPage,
  name,
  pageNumbers,
  structElements,
  structTreeRoot,
  textValue,
} from './structure-tree.ts'
import { uaFinding } from './ua-findings.ts'

// PDF/UA-1 7.3 (veraPDF 7.3-1): a Figure has alternative text (/Alt) or replacement text
// (/ActualText). Chromium writes an `<img>`'s alt as /Alt and leaves an image without alt as a
// Figure without it; only the author knows what the picture says, so each is a finding that
// names its page (an `alt=""` image is decoration: Chromium leaves it out of the tree, and the
// artifact step marks it).

const filled = (value: PDFObject | undefined) => (textValue(value)?.trim() ?? '') !== ''

export function figuresWithoutAlt(doc: PDFDocument): Finding[] {
  const root = structTreeRoot(doc)
  if (!root) return []
  const numbers = pageNumbers(doc)
  const findings: Finding[] = []
  for (const element of structElements(doc, root)) {
    if (element.dict.get(name('S')) !== name('Figure')) continue
    if (filled(element.dict.lookup(name('Alt'))) || element.dict.lookup(name('ActualText')) !== undefined)
      continue
    const page = firstContentPage(doc, element)
    const number = page ? numbers.get(page.toString()) : undefined
    findings.push(
      uaFinding(
        'figureWithoutAlt',
        `An image${number ? ` on page ${number}` : ''} has no alternative text: give it an alt attribute (alt="" if it is decoration).`,
        {
          ...(number !== undefined ? { page: number } : {}),
          ...(element.ref
            ? { object: `${element.ref.objectNumber} ${element.ref.generationNumber} obj (Figure)` }
            : {}),
        },
      ),
    )
  }
  return findings
}
