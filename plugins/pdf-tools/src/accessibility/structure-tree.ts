import {
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFRef,
  PDFString,
} from '@cantoo/pdf-lib'

// Reading and extending a structure tree (ISO 32000-1 §14.7) with pdf-lib, which has no API
// for it: the elements in document order with the page each is on, and the parent tree (a
// number tree from StructParent(s) keys to elements) read whole and written back flat.

export const name = (value: string) => PDFName.of(value)

/** a string object's text (literal or hex), else undefined */
export const textValue = (value: PDFObject | undefined): string | undefined =>
  value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined

export function structTreeRoot(doc: PDFDocument): PDFDict | undefined {
  return doc.catalog.lookupMaybe(name('StructTreeRoot'), PDFDict)
}

export interface StructElement {
  dict: PDFDict
  ref: PDFRef | undefined
  /** the page the element's content is on: its /Pg, else an ancestor's */
  page: PDFRef | undefined
}

/** the elements under the root in document order; a cycle or a shared element is visited once */
export function* structElements(doc: PDFDocument, root: PDFDict): Generator<StructElement> {
  const seen = new Set<PDFObject>()
  const stack: { node: PDFObject | undefined; page: PDFRef | undefined }[] = [
    { node: root.get(name('K')), page: undefined },
  ]
  while (stack.length > 0) {
    const { node, page } = stack.pop()!
    if (node === undefined) continue
    const ref = node instanceof PDFRef ? node : undefined
    if (ref && seen.has(ref)) continue
    if (ref) seen.add(ref)
    const value = ref ? doc.context.lookup(ref) : node
    if (value instanceof PDFArray) {
      // reversed so the stack pops them in order
      for (const kid of [...value.asArray()].reverse()) stack.push({ node: kid, page })
      continue
    }
    if (!(value instanceof PDFDict) || seen.has(value)) continue
    seen.add(value)
    // marked-content and object references are kids, not elements
    const type = value.get(name('Type'))
    if (type === name('MCR') || type === name('OBJR')) continue
    if (!(value.get(name('S')) instanceof PDFName)) continue
    const own = value.get(name('Pg'))
    const elementPage = own instanceof PDFRef ? own : page
    yield { dict: value, ref, page: elementPage }
    stack.push({ node: value.get(name('K')), page: elementPage })
  }
}

/** object (annotation) ref → the element whose OBJR kid points at it */
export function objectReferences(doc: PDFDocument, root: PDFDict): Map<string, PDFRef> {
  const found = new Map<string, PDFRef>()
  for (const element of structElements(doc, root)) {
    if (!element.ref) continue
    const k = element.dict.lookup(name('K'))
    for (const kid of k instanceof PDFArray ? k.asArray() : k ? [k] : []) {
      const value = kid instanceof PDFRef ? doc.context.lookup(kid) : kid
      const obj =
        value instanceof PDFDict && value.get(name('Type')) === name('OBJR')
          ? value.get(name('Obj'))
          : undefined
      if (obj instanceof PDFRef) found.set(obj.toString(), element.ref)
    }
  }
  return found
}

/** the page of an element's first marked content, for elements whose own /Pg is not set */
export function firstContentPage(doc: PDFDocument, element: StructElement): PDFRef | undefined {
  if (element.page) return element.page
  const kids = element.dict.lookup(name('K'))
  const list = kids instanceof PDFArray ? kids.asArray() : kids ? [kids] : []
  for (const kid of list) {
    const value = kid instanceof PDFRef ? doc.context.lookup(kid) : kid
    if (value instanceof PDFDict) {
      const pg = value.get(name('Pg'))
      if (pg instanceof PDFRef) return pg
    }
  }
  return undefined
}

/** the parent tree's entries, from all its leaves (a number tree may have Kids) */
export function readParentTree(doc: PDFDocument, root: PDFDict): Map<number, PDFObject> {
  const entries = new Map<number, PDFObject>()
  const seen = new Set<PDFObject>()
  const visit = (node: PDFObject | undefined) => {
    const dict = node instanceof PDFRef ? doc.context.lookup(node) : node
    if (!(dict instanceof PDFDict) || seen.has(dict)) return
    seen.add(dict)
    const nums = dict.lookup(name('Nums'))
    if (nums instanceof PDFArray) {
      for (let i = 0; i + 1 < nums.size(); i += 2) {
        const key = nums.lookup(i)
        if (key instanceof PDFNumber) entries.set(key.asNumber(), nums.get(i + 1))
      }
    }
    const kids = dict.lookup(name('Kids'))
    if (kids instanceof PDFArray) for (const kid of kids.asArray()) visit(kid)
  }
  visit(root.get(name('ParentTree')))
  return entries
}

/** the first parent tree key no page or annotation uses yet (a loop: a spread of many keys overflows the stack) */
export function nextParentTreeKey(root: PDFDict, entries: Map<number, PDFObject>): number {
  const declared = root.lookup(name('ParentTreeNextKey'))
  let next = declared instanceof PDFNumber ? declared.asNumber() : 0
  for (const key of entries.keys()) if (key >= next) next = key + 1
  return next
}

/** writes the entries as one flat number tree and sets ParentTreeNextKey past the largest key */
export function writeParentTree(doc: PDFDocument, root: PDFDict, entries: Map<number, PDFObject>): void {
  const keys = [...entries.keys()].sort((a, b) => a - b)
  const nums = doc.context.obj([])
  for (const key of keys) {
    nums.push(PDFNumber.of(key))
    nums.push(entries.get(key)!)
  }
  root.set(name('ParentTree'), doc.context.register(doc.context.obj({ Nums: nums })))
  root.set(name('ParentTreeNextKey'), PDFNumber.of(keys.length > 0 ? keys[keys.length - 1]! + 1 : 0))
}

/** the element new top-level elements go under: the root's single Document element, or the root */
export function documentElement(doc: PDFDocument, root: PDFDict): { dict: PDFDict; ref: PDFRef | undefined } {
  const k = root.get(name('K'))
  const only = k instanceof PDFArray && k.size() === 1 ? k.get(0) : k
  const value = only instanceof PDFRef ? doc.context.lookup(only) : only
  if (value instanceof PDFDict && value.get(name('S')) === name('Document'))
    return { dict: value, ref: only instanceof PDFRef ? only : undefined }
  return { dict: root, ref: undefined }
}

/** appends a kid to an element's /K, whatever form /K has (absent, one kid, an array) */
export function appendKid(doc: PDFDocument, parent: PDFDict, kid: PDFObject): void {
  const k = parent.get(name('K'))
  if (k === undefined) parent.set(name('K'), kid)
  else {
    const list = k instanceof PDFRef ? doc.context.lookup(k) : k
    if (list instanceof PDFArray) list.push(kid)
    else parent.set(name('K'), doc.context.obj([k, kid]))
  }
}

/** page refs to their 1-based numbers */
export function pageNumbers(doc: PDFDocument): Map<string, number> {
  return new Map(doc.getPages().map((page, i) => [page.ref.toString(), i + 1]))
}
