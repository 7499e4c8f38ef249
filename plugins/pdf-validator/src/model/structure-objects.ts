import { PDFArray, PDFDict, PDFNumber, type PDFObject } from '@cantoo/pdf-lib'
import type { ModelObject, ModelTypes } from './model-object.ts'
import type { Values } from './pdf-values.ts'

// The logical structure of a tagged PDF (ISO 32000-1 14.7 and 14.8; ISO 14289-1 7.1 to 7.9):
// every structure element with its standard type (through the role map), its kids' and parent's
// standard types, its language and alternate descriptions; plus languages and outlines.

const STANDARD = new Set(
  (
    'Document Part Art Sect Div BlockQuote Caption TOC TOCI Index NonStruct Private P H H1 H2 H3 H4 H5 H6 ' +
    'L LI Lbl LBody Table TR TH TD THead TBody TFoot Span Quote Note Reference BibEntry Code Link Annot ' +
    'Ruby RB RT RP Warichu WT WP Figure Formula Form'
  ).split(' '),
)

// the veraPDF object type of an element of a standard type (SE + type; H1...H6 are SEHn)
const SE_TYPES = new Set([
  'Table',
  'TR',
  'TH',
  'TD',
  'THead',
  'TBody',
  'TFoot',
  'L',
  'LI',
  'LBody',
  'TOC',
  'TOCI',
  'Figure',
  'Formula',
  'Note',
  'H',
  'Form',
])

const ELEMENT_PROPS = [
  'standardType',
  'kidsStandardTypes',
  'parentStandardType',
  'containsParent',
  'circularMappingExist',
  'remappedStandardType',
  'ActualText',
  'Alt',
  'E',
  'containsLang',
  'parentLang',
  'gContainsCatalogLang',
]

export const STRUCTURE_TYPES: ModelTypes = {
  PDStructElem: { props: ELEMENT_PROPS },
  ...Object.fromEntries([...SE_TYPES].map((t) => [`SE${t}`, { parent: 'PDStructElem', props: [] }])),
  SEHn: { parent: 'PDStructElem', props: ['usesH'] },
  SENote: { parent: 'PDStructElem', props: ['noteID', 'hasDuplicateNoteID'] },
  SENonStandard: { parent: 'PDStructElem', props: ['isNotMappedToStandardType'] },
  PDOutline: { props: ['gContainsCatalogLang'] },
  CosLang: { props: ['unicodeValue'] },
}
STRUCTURE_TYPES.SEH = { parent: 'PDStructElem', props: ['usesHn'] }

interface Element {
  dict: PDFDict
  parent: Element | undefined
  type: string | null
  standard: string | null
  remapped: string | null
  circular: boolean
  kids: Element[]
  lang: string | null
}

/** the language of the document (catalog /Lang), when it has one that is not empty */
export function catalogLang(v: Values, catalog: PDFDict | undefined): boolean {
  const lang = v.text(catalog, 'Lang')
  return lang !== null && lang.trim() !== ''
}

export function structureObjects(
  v: Values,
  catalog: PDFDict | undefined,
  pages: readonly PDFDict[],
): ModelObject[] {
  const pageNumbers = new Map(pages.map((p, i) => [p, i + 1]))
  const pageOf = (el: PDFDict): { page?: number } => {
    const pg = v.dict(el, 'Pg')
    const n = pg ? pageNumbers.get(pg) : undefined
    return n === undefined ? {} : { page: n }
  }
  const out: ModelObject[] = []
  const gContainsCatalogLang = catalogLang(v, catalog)
  const catalogLangValue = v.text(catalog, 'Lang')
  if (catalogLangValue !== null)
    out.push({ type: 'CosLang', context: 'catalog /Lang', props: { unicodeValue: catalogLangValue } })

  const outlineSeen = new Set<PDFDict>()
  const walkOutline = (item: PDFDict | undefined, depth: number) => {
    for (
      let node = item;
      node && !outlineSeen.has(node) && depth < 64 && outlineSeen.size < 100_000;
      node = v.dict(node, 'Next')
    ) {
      outlineSeen.add(node)
      out.push({
        type: 'PDOutline',
        context: `outline item ${v.text(node, 'Title') ?? ''}`.trim(),
        props: { gContainsCatalogLang },
      })
      walkOutline(v.dict(node, 'First'), depth + 1)
    }
  }
  walkOutline(v.dict(v.dict(catalog, 'Outlines'), 'First'), 0)

  const root = v.dict(catalog, 'StructTreeRoot')
  if (!root) return out
  const roleMap = v.dict(root, 'RoleMap')
  const mapType = (s: string | null): { standard: string | null; circular: boolean } => {
    const seen = new Set<string>()
    let t = s
    while (t !== null && !STANDARD.has(t)) {
      if (seen.has(t)) return { standard: null, circular: true }
      seen.add(t)
      t = v.name(roleMap, t)
    }
    return { standard: t, circular: false }
  }

  const elements: Element[] = []
  const seen = new Set<PDFDict>()
  const walk = (node: PDFObject | undefined, parent: Element | undefined, depth: number): Element[] => {
    const list = node instanceof PDFArray ? v.items(node) : node ? [v.resolve(node)] : []
    const found: Element[] = []
    for (const kid of list) {
      if (!(kid instanceof PDFDict) || seen.has(kid) || depth > 128 || elements.length > 200_000) continue
      // marked-content and object references are content, not elements
      const type = v.name(kid, 'Type')
      if (type === 'MCR' || type === 'OBJR' || !v.has(kid, 'S')) continue
      seen.add(kid)
      const s = v.name(kid, 'S')
      const mapped = mapType(s)
      const lang = v.text(kid, 'Lang')
      const el: Element = {
        dict: kid,
        parent,
        type: s,
        standard: mapped.standard,
        remapped: s && STANDARD.has(s) ? v.name(roleMap, s) : null,
        circular: mapped.circular,
        kids: [],
        lang,
      }
      elements.push(el)
      found.push(el)
      el.kids = walk(v.get(kid, 'K'), el, depth + 1)
    }
    return found
  }
  walk(v.get(root, 'K'), undefined, 0)

  const usesH = elements.some((e) => e.standard === 'H')
  const usesHn = elements.some((e) => e.standard !== null && /^H[1-6]$/.test(e.standard))
  const noteIds = elements.filter((e) => e.standard === 'Note').map((e) => v.text(e.dict, 'ID'))

  for (const el of elements) {
    let parentLang: string | null = null
    for (let p = el.parent; p && parentLang === null; p = p.parent) parentLang = p.lang
    const std = el.standard
    const type =
      std === null
        ? 'SENonStandard'
        : /^H[1-6]$/.test(std)
          ? 'SEHn'
          : SE_TYPES.has(std)
            ? `SE${std}`
            : 'PDStructElem'
    const noteID = v.text(el.dict, 'ID')
    if (el.lang !== null)
      out.push({
        type: 'CosLang',
        context: `structure element /${el.type} /Lang`,
        props: { unicodeValue: el.lang },
      })
    out.push({
      type,
      context: `structure element /${el.type ?? '?'}${std && std !== el.type ? ` (${std})` : ''}`,
      ...pageOf(el.dict),
      props: {
        standardType: std,
        kidsStandardTypes: el.kids.map((k) => k.standard ?? '').join('&'),
        parentStandardType: el.parent ? el.parent.standard : null,
        containsParent: v.has(el.dict, 'P'),
        circularMappingExist: el.circular,
        remappedStandardType: el.remapped,
        ActualText: v.text(el.dict, 'ActualText'),
        Alt: v.text(el.dict, 'Alt'),
        E: v.text(el.dict, 'E'),
        containsLang: el.lang !== null,
        parentLang,
        gContainsCatalogLang,
        usesH,
        usesHn,
        noteID,
        hasDuplicateNoteID: noteID !== null && noteIds.filter((n) => n === noteID).length > 1,
        isNotMappedToStandardType: std === null,
      },
    })
  }
  return out
}

/** The structure element a StructParent key names, through the parent tree (a number tree). */
export function structParentOf(v: Values, catalog: PDFDict | undefined, key: number): PDFDict | undefined {
  let node = v.dict(v.dict(catalog, 'StructTreeRoot'), 'ParentTree')
  for (let depth = 0; node && depth < 32; depth++) {
    const nums = v.array(node, 'Nums')
    if (nums) {
      for (let i = 0; i + 1 < nums.size(); i += 2) {
        const k = v.resolve(nums.get(i))
        if (k instanceof PDFNumber && k.asNumber() === key) {
          const val = v.resolve(nums.get(i + 1))
          return val instanceof PDFDict ? val : undefined
        }
      }
      return undefined
    }
    node = v
      .items(v.array(node, 'Kids'))
      .filter((kid): kid is PDFDict => kid instanceof PDFDict)
      .find((kid) => {
        const limits = v
          .items(v.array(kid, 'Limits'))
          .map((x) => (x instanceof PDFNumber ? x.asNumber() : Number.NaN))
        return limits.length === 2 && key >= limits[0]! && key <= limits[1]!
      })
  }
  return undefined
}

/** An element's standard structure type: its /S, through the role map. */
export function standardTypeOf(v: Values, catalog: PDFDict | undefined, el: PDFDict): string | null {
  const roleMap = v.dict(v.dict(catalog, 'StructTreeRoot'), 'RoleMap')
  const seen = new Set<string>()
  let t = v.name(el, 'S')
  while (t !== null && !STANDARD.has(t) && !seen.has(t)) {
    seen.add(t)
    t = v.name(roleMap, t)
  }
  return t !== null && STANDARD.has(t) ? t : null
}
