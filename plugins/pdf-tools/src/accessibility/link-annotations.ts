import {
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  type PDFPage,
  PDFRef,
} from '@cantoo/pdf-lib'
import { linkTexts } from './link-text.ts'
import {
  appendKid,
  documentElement,
  name,
  nextParentTreeKey,
  objectReferences,
  pageNumbers,
  readParentTree,
  structTreeRoot,
  textValue,
  writeParentTree,
} from './structure-tree.ts'

// PDF/UA-1 7.18: a page with annotations has /Tabs /S (7.18.3-1); a link annotation has an
// alternate description in /Contents (7.18.5-2, 7.18.1-2) and is in the structure tree, a Link
// element holding an object reference to it (7.18.5-1). Chromium tags its links but gives them
// no /Contents: the description is what the link says (link-text.ts), else where it goes (its
// URI, or the page a link inside the document opens).

export interface LinkWork {
  described: number
  tagged: number
}

export function fixLinkAnnotations(doc: PDFDocument): LinkWork {
  const work: LinkWork = { described: 0, tagged: 0 }
  const numbers = pageNumbers(doc)
  const root = structTreeRoot(doc)
  const parentTree = root ? readParentTree(doc, root) : undefined
  const said = linkTexts(doc)
  let nextKey = root && parentTree ? nextParentTreeKey(root, parentTree) : 0
  const referenced = root ? objectReferences(doc, root) : new Map<string, PDFRef>()
  for (const page of doc.getPages()) {
    const annots = page.node.lookup(name('Annots'))
    if (!(annots instanceof PDFArray) || annots.size() === 0) continue
    page.node.set(name('Tabs'), name('S'))
    for (const entry of annots.asArray()) {
      const annot = entry instanceof PDFRef ? doc.context.lookup(entry) : entry
      if (!(annot instanceof PDFDict) || annot.get(name('Subtype')) !== name('Link')) continue
      if (!textValue(annot.lookup(name('Contents')))?.trim()) {
        const words = entry instanceof PDFRef ? said.get(entry.toString()) : undefined
        annot.set(name('Contents'), PDFHexString.fromText(words ?? linkDescription(doc, annot, numbers)))
        work.described++
      }
      if (
        root &&
        parentTree &&
        entry instanceof PDFRef &&
        !(annot.get(name('StructParent')) instanceof PDFNumber)
      ) {
        const key = nextKey++
        annot.set(name('StructParent'), PDFNumber.of(key))
        // an element may point at it already (its producer forgot the back reference)
        parentTree.set(key, referenced.get(entry.toString()) ?? linkElement(doc, root, page, entry))
        work.tagged++
      }
    }
  }
  if (root && parentTree && work.tagged > 0) writeParentTree(doc, root, parentTree)
  return work
}

/** a new Link element with an OBJR to the annotation, under the Document element (7.18.5-1) */
function linkElement(doc: PDFDocument, root: PDFDict, page: PDFPage, ref: PDFRef): PDFRef {
  const parent = documentElement(doc, root)
  const element = doc.context.register(
    doc.context.obj({
      Type: 'StructElem',
      S: 'Link',
      P: parent.ref ?? doc.catalog.get(name('StructTreeRoot')),
      Pg: page.ref,
      K: doc.context.obj({ Type: 'OBJR', Obj: ref, Pg: page.ref }),
    }),
  )
  appendKid(doc, parent.dict, element)
  return element
}

function linkDescription(doc: PDFDocument, annot: PDFDict, numbers: Map<string, number>): string {
  const action = annot.lookup(name('A'))
  if (action instanceof PDFDict) {
    const uri = textValue(action.lookup(name('URI')))
    if (uri) return uri.startsWith('mailto:') ? `E-mail ${uri.slice('mailto:'.length)}` : uri
    const goTo = action.get(name('D'))
    if (goTo) return pageLinkText(doc, goTo, numbers)
  }
  const dest = annot.get(name('Dest'))
  if (dest) return pageLinkText(doc, dest, numbers)
  return 'Link'
}

/** "Go to page N" for a destination (an array, or a name in the catalog's /Dests or name tree) */
function pageLinkText(doc: PDFDocument, dest: PDFObject, numbers: Map<string, number>): string {
  const target = resolveDestination(doc, dest)
  const page = target instanceof PDFArray ? target.get(0) : undefined
  const number = page instanceof PDFRef ? numbers.get(page.toString()) : undefined
  return number === undefined ? 'Link within this document' : `Go to page ${number}`
}

function resolveDestination(doc: PDFDocument, dest: PDFObject): PDFObject | undefined {
  const value = dest instanceof PDFRef ? doc.context.lookup(dest) : dest
  if (value instanceof PDFArray) return value
  const key = value instanceof PDFName ? value.decodeText() : textValue(value)
  if (key === undefined) return undefined
  const dests = doc.catalog.lookup(name('Dests'))
  const found = dests instanceof PDFDict ? dests.lookup(name(key)) : undefined
  const named = found ?? namedDestination(doc, key)
  // a named destination is an array or a dictionary whose /D is one
  return named instanceof PDFDict ? named.lookup(name('D')) : named
}

/** the catalog's /Names /Dests name tree, searched through its Kids */
function namedDestination(doc: PDFDocument, key: string): PDFObject | undefined {
  const names = doc.catalog.lookup(name('Names'))
  const tree = names instanceof PDFDict ? names.lookup(name('Dests')) : undefined
  const seen = new Set<PDFObject>()
  const stack: PDFObject[] = tree ? [tree] : []
  while (stack.length > 0) {
    const node = stack.pop()!
    if (!(node instanceof PDFDict) || seen.has(node)) continue
    seen.add(node)
    const list = node.lookup(name('Names'))
    if (list instanceof PDFArray)
      for (let i = 0; i + 1 < list.size(); i += 2)
        if (textValue(list.lookup(i)) === key) return list.lookup(i + 1)
    const kids = node.lookup(name('Kids'))
    if (kids instanceof PDFArray) for (const kid of kids.asArray()) stack.push(doc.context.lookup(kid) ?? kid)
  }
  return undefined
}
