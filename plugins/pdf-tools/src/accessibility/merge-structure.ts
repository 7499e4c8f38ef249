import {
  PDFArray,
  PDFBool,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNull,
  PDFNumber,
  type PDFObject,
  type PDFPage,
  PDFRawStream,
  PDFRef,
  PDFString,
} from '@cantoo/pdf-lib'
import { name, nextParentTreeKey, readParentTree, structElements, structTreeRoot } from './structure-tree.ts'

// A qpdf merge (`--empty --pages`) copies pages with their /StructParents, their annotations'
// /StructParent and the marked content of their streams, but not the structure trees they point
// into: the output is silently untagged (decision 0104). This puts one tree back: a Document
// root whose kids are one Part per tagged source (the source's own Document element becomes
// it, with the source's language), each source's elements copied with their page and annotation
// references pointed at the merged pages, StructParent(s) keys shifted past the previous
// sources' so the parent tree is one, IDs prefixed per source (Chromium numbers them alike in
// every file) with the table headers that name them, and RoleMap/ClassMap merged. MCIDs are
// numbered per page, and pages are not combined, so they stay as they are.

export interface StructureMerge {
  /** the merged PDF with the structure tree, or undefined when no source was tagged */
  pdf: Uint8Array | undefined
  tagged: number
  untagged: number
}

const isText = (value: PDFObject | undefined): value is PDFString | PDFHexString =>
  value instanceof PDFString || value instanceof PDFHexString

interface SourceCopy {
  source: PDFDocument
  target: PDFDocument
  /** source object (by ref string) to its copy */
  copied: Map<string, PDFRef>
  /** prefix for this source's element IDs */
  idPrefix: string
  /** custom structure types renamed because another source maps the same name elsewhere */
  renamed: Map<string, string>
}

/** a deep copy of a source's object into the merged document, following refs once each */
function copyObject(copy: SourceCopy, value: PDFObject | undefined): PDFObject {
  if (value === undefined) return PDFNull
  if (value instanceof PDFRef) {
    const done = copy.copied.get(value.toString())
    if (done) return done
    const target = copy.source.context.lookup(value)
    // a page of the source that is not in the merge (no such page here: all are) points nowhere
    if (target instanceof PDFDict && target.get(name('Type')) === name('Page')) return PDFNull
    const ref = copy.target.context.nextRef()
    copy.copied.set(value.toString(), ref)
    copy.target.context.assign(ref, copyObject(copy, target))
    return ref
  }
  if (value instanceof PDFArray) {
    return copy.target.context.obj(value.asArray().map((item) => copyObject(copy, item)))
  }
  if (value instanceof PDFRawStream) {
    return PDFRawStream.of(copyObject(copy, value.dict) as PDFDict, value.contents)
  }
  if (value instanceof PDFDict) {
    const out = copy.target.context.obj({})
    const isElement = value.get(name('S')) instanceof PDFName
    for (const [key, item] of value.entries()) {
      if (isElement && key === name('ID') && isText(item)) {
        out.set(key, PDFHexString.fromText(copy.idPrefix + item.decodeText()))
      } else if (key === name('Headers') && item instanceof PDFArray) {
        const ids = item
          .asArray()
          .map((id) => (isText(id) ? PDFHexString.fromText(copy.idPrefix + id.decodeText()) : id))
        out.set(key, copy.target.context.obj(ids))
      } else if (isElement && key === name('S') && item instanceof PDFName) {
        out.set(key, name(copy.renamed.get(item.decodeText()) ?? item.decodeText()))
      } else out.set(key, copyObject(copy, item))
    }
    return out
  }
  return value
}

/** maps a source's pages and their annotations to the merged document's (same order, by index) */
function mapPages(copy: SourceCopy, sourcePages: PDFPage[], mergedPages: PDFPage[]): void {
  for (const [i, page] of sourcePages.entries()) {
    const merged = mergedPages[i]
    if (!merged) continue
    copy.copied.set(page.ref.toString(), merged.ref)
    const from = page.node.lookup(name('Annots'))
    const to = merged.node.lookup(name('Annots'))
    if (!(from instanceof PDFArray) || !(to instanceof PDFArray) || from.size() !== to.size()) continue
    for (let k = 0; k < from.size(); k++) {
      const a = from.get(k)
      const b = to.get(k)
      if (a instanceof PDFRef && b instanceof PDFRef) copy.copied.set(a.toString(), b)
    }
  }
}

/** shifts the merged pages' and their annotations' parent tree keys by `base` */
function shiftKeys(doc: PDFDocument, pages: PDFPage[], base: number): void {
  const shift = (dict: PDFDict, key: string) => {
    const value = dict.get(name(key))
    if (value instanceof PDFNumber) dict.set(name(key), PDFNumber.of(value.asNumber() + base))
  }
  for (const page of pages) {
    shift(page.node, 'StructParents')
    const annots = page.node.lookup(name('Annots'))
    if (!(annots instanceof PDFArray)) continue
    for (const entry of annots.asArray()) {
      const annot = entry instanceof PDFRef ? doc.context.lookup(entry) : entry
      if (annot instanceof PDFDict) shift(annot, 'StructParent')
    }
  }
}

/** merges a source's name → value map (RoleMap, ClassMap) into `into`; a clash is renamed */
function mergeMap(
  source: PDFDocument,
  root: PDFDict,
  key: string,
  into: Map<string, PDFObject>,
  copy: SourceCopy,
  index: number,
): void {
  const map = root.lookup(name(key))
  if (!(map instanceof PDFDict)) return
  for (const [entry, value] of map.entries()) {
    const own = entry.decodeText()
    const resolved = value instanceof PDFRef ? source.context.lookup(value) : value
    const existing = into.get(own)
    if (existing === undefined) into.set(own, copyObject(copy, resolved))
    else if (key === 'RoleMap' && existing.toString() !== copyObject(copy, resolved).toString()) {
      // the same custom type mapped to another standard type: this source's elements get a name of their own
      const renamed = `${own}_${index + 1}`
      copy.renamed.set(own, renamed)
      into.set(renamed, copyObject(copy, resolved))
    }
    // a ClassMap clash keeps the first source's attributes: class names are styling, not structure
  }
}

/**
 * The merged PDF (`merged`, the sources' pages in order) with one structure tree made of the
 * sources' trees.
 */
export async function mergeStructureTrees(
  merged: Uint8Array,
  sources: Uint8Array[],
): Promise<StructureMerge> {
  const doc = await PDFDocument.load(merged, { updateMetadata: false })
  const mergedPages = doc.getPages()
  const rootRef = doc.context.nextRef()
  const documentRef = doc.context.nextRef()
  const parts: PDFRef[] = []
  const parentTree = new Map<number, PDFObject>()
  const roleMap = new Map<string, PDFObject>()
  const classMap = new Map<string, PDFObject>()
  let offset = 0
  let nextKey = 0
  let untagged = 0
  let lang: PDFObject | undefined
  for (const [index, bytes] of sources.entries()) {
    const source = await PDFDocument.load(bytes, { updateMetadata: false })
    const sourcePages = source.getPages()
    const pages = mergedPages.slice(offset, offset + sourcePages.length)
    offset += sourcePages.length
    const root = structTreeRoot(source)
    if (!root) {
      untagged++
      continue
    }
    const copy: SourceCopy = {
      source,
      target: doc,
      copied: new Map(),
      idPrefix: index === 0 ? '' : `s${index + 1}-`,
      renamed: new Map(),
    }
    mapPages(copy, sourcePages, pages)
    mergeMap(source, root, 'RoleMap', roleMap, copy, index)
    mergeMap(source, root, 'ClassMap', classMap, copy, index)
    const part = sourcePart(copy, root, documentRef)
    parts.push(part)
    const sourceLang = source.catalog.lookup(name('Lang'))
    const partDict = doc.context.lookup(part, PDFDict)
    if (isText(sourceLang) && !partDict.has(name('Lang')))
      partDict.set(name('Lang'), copyObject(copy, sourceLang))
    lang ??= isText(sourceLang) ? copyObject(copy, sourceLang) : undefined
    // every key this source's pages and annotations use is moved past the previous sources'
    const entries = readParentTree(source, root)
    const span = nextParentTreeKey(root, entries)
    for (const [key, value] of entries) parentTree.set(key + nextKey, copyObject(copy, value))
    shiftKeys(doc, pages, nextKey)
    nextKey += span
  }
  if (parts.length === 0) return { pdf: undefined, tagged: 0, untagged }
  doc.context.assign(
    documentRef,
    doc.context.obj({ Type: 'StructElem', S: 'Document', P: rootRef, K: doc.context.obj(parts) }),
  )
  const nums = doc.context.obj([])
  for (const key of [...parentTree.keys()].sort((a, b) => a - b)) {
    nums.push(PDFNumber.of(key))
    nums.push(parentTree.get(key)!)
  }
  const root = doc.context.obj({
    Type: 'StructTreeRoot',
    K: documentRef,
    ParentTree: doc.context.register(doc.context.obj({ Nums: nums })),
    ParentTreeNextKey: PDFNumber.of(nextKey),
  })
  if (roleMap.size > 0) root.set(name('RoleMap'), dictOf(doc, roleMap))
  if (classMap.size > 0) root.set(name('ClassMap'), dictOf(doc, classMap))
  doc.context.assign(rootRef, root)
  const idTree = idTreeOf(doc, root)
  if (idTree) root.set(name('IDTree'), idTree)
  doc.catalog.set(name('StructTreeRoot'), rootRef)
  // Marked claims that all content is tagged or an artifact: true only when every source was tagged
  if (untagged === 0) doc.catalog.set(name('MarkInfo'), doc.context.obj({ Marked: PDFBool.True }))
  if (lang) doc.catalog.set(name('Lang'), lang)
  const pdf = await doc.save({ updateFieldAppearances: false, useObjectStreams: false })
  return { pdf, tagged: parts.length, untagged }
}

/**
 * The source's tree as one element under the merged Document: its single Document element
 * made a Part, or a new Part holding its top-level elements.
 */
function sourcePart(copy: SourceCopy, root: PDFDict, documentRef: PDFRef): PDFRef {
  const { source, target } = copy
  const k = root.get(name('K'))
  const only = k instanceof PDFArray && k.size() === 1 ? k.get(0) : k
  const top = only instanceof PDFRef ? source.context.lookup(only) : undefined
  const rootRef = source.catalog.get(name('StructTreeRoot'))
  if (only instanceof PDFRef && top instanceof PDFDict && top.get(name('S')) === name('Document')) {
    if (rootRef instanceof PDFRef) copy.copied.set(rootRef.toString(), documentRef)
    const part = copyObject(copy, only) as PDFRef
    const dict = target.context.lookup(part, PDFDict)
    dict.set(name('S'), name('Part'))
    dict.set(name('P'), documentRef)
    return part
  }
  const part = target.context.nextRef()
  if (rootRef instanceof PDFRef) copy.copied.set(rootRef.toString(), part)
  const kids = k === undefined ? target.context.obj([]) : copyObject(copy, k)
  target.context.assign(part, target.context.obj({ Type: 'StructElem', S: 'Part', P: documentRef, K: kids }))
  return part
}

function dictOf(doc: PDFDocument, map: Map<string, PDFObject>): PDFDict {
  const dict = doc.context.obj({})
  for (const [key, value] of map) dict.set(name(key), value)
  return dict
}

/** the IDTree (a name tree, sorted by ID) of the merged elements that have an /ID */
function idTreeOf(doc: PDFDocument, root: PDFDict): PDFRef | undefined {
  const ids: [string, PDFRef][] = []
  for (const element of structElements(doc, root)) {
    const id = element.dict.lookup(name('ID'))
    if (isText(id) && element.ref) ids.push([id.decodeText(), element.ref])
  }
  if (ids.length === 0) return undefined
  ids.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const names = doc.context.obj([])
  for (const [id, ref] of ids) {
    names.push(PDFHexString.fromText(id))
    names.push(ref)
  }
  return doc.context.register(doc.context.obj({ Names: names }))
}
