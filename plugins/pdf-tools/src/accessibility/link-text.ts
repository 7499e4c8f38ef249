import {
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFNumber,
  type PDFObject,
  type PDFPage,
  PDFRef,
} from '@cantoo/pdf-lib'
import { markedTexts } from './marked-text.ts'
import { name, structElements, structTreeRoot, textValue } from './structure-tree.ts'

// What each tagged link says: the Link element's /Alt or /ActualText, else the text of its
// marked content, by annotation (the Link element's OBJR). Used as the annotation's /Contents.

interface LinkContent {
  annots: string[]
  parts: { page: string; mcid: number }[]
  given: string | undefined
}

const textOf = (value: PDFObject | undefined) => textValue(value)?.trim() || undefined

function collect(
  doc: PDFDocument,
  node: PDFObject | undefined,
  page: PDFRef | undefined,
  link: LinkContent,
  seen: Set<PDFObject>,
): void {
  if (node === undefined || seen.has(node)) return
  seen.add(node)
  const value = node instanceof PDFRef ? doc.context.lookup(node) : node
  if (value instanceof PDFNumber) {
    if (page) link.parts.push({ page: page.toString(), mcid: value.asNumber() })
  } else if (value instanceof PDFArray) {
    for (const kid of value.asArray()) collect(doc, kid, page, link, seen)
  } else if (value instanceof PDFDict) {
    const pg = value.get(name('Pg'))
    const own = pg instanceof PDFRef ? pg : page
    const type = value.get(name('Type'))
    if (type === name('OBJR')) {
      const obj = value.get(name('Obj'))
      if (obj instanceof PDFRef) link.annots.push(obj.toString())
    } else if (type === name('MCR')) {
      const mcid = value.lookup(name('MCID'))
      if (mcid instanceof PDFNumber && own && !value.has(name('Stm')))
        link.parts.push({ page: own.toString(), mcid: mcid.asNumber() })
    } else collect(doc, value.get(name('K')), own, link, seen)
  }
}

/** annotation ref → what its link says, for the links whose words can be read */
export function linkTexts(doc: PDFDocument): Map<string, string> {
  const root = structTreeRoot(doc)
  const out = new Map<string, string>()
  if (!root) return out
  const links: LinkContent[] = []
  for (const element of structElements(doc, root)) {
    if (element.dict.get(name('S')) !== name('Link')) continue
    const given = textOf(element.dict.lookup(name('Alt'))) ?? textOf(element.dict.lookup(name('ActualText')))
    const link: LinkContent = { annots: [], parts: [], given }
    collect(doc, element.dict.get(name('K')), element.page, link, new Set())
    if (link.annots.length > 0) links.push(link)
  }
  const wanted = new Map<string, Set<number>>()
  for (const link of links)
    for (const part of link.parts) wanted.set(part.page, (wanted.get(part.page) ?? new Set()).add(part.mcid))
  const pages = new Map<string, PDFPage>(doc.getPages().map((p) => [p.ref.toString(), p]))
  const texts = new Map<string, Map<number, string>>()
  for (const [ref, mcids] of wanted) {
    const page = pages.get(ref)
    if (!page) continue
    try {
      texts.set(ref, markedTexts(page, mcids))
    } catch {
      // a page whose content cannot be read: its links are described by where they go
    }
  }
  for (const link of links) {
    const said =
      link.given ??
      link.parts
        .map((p) => texts.get(p.page)?.get(p.mcid) ?? '')
        .join('')
        .replace(/\s+/g, ' ')
        .trim()
    if (said) for (const annot of link.annots) out.set(annot, said)
  }
  return out
}
