import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFRawStream,
  PDFRef,
  PDFStream,
} from '@cantoo/pdf-lib'
import type { ModelObject, ModelTypes } from './model-object.ts'
import { inherited } from './page-resources.ts'
import { nameOf, refLabel, textOf, type Values } from './pdf-values.ts'
import { catalogLang, standardTypeOf, structParentOf } from './structure-objects.ts'

// The document layer: catalog, pages, annotations, actions, forms, optional content, permissions,
// file specifications and output intents (ISO 19005-2 6.2.3, 6.3 to 6.11; ISO 14289-1 7.x).

export const DOCUMENT_TYPES: ModelTypes = {
  PDDocument: {
    props: ['containsAA', 'containsMetadata', 'containsAlternatePresentations', 'containsStructTreeRoot'],
  },
  PDPage: { props: ['containsAA', 'containsPresSteps', 'containsGroupCS', 'containsAnnotations', 'Tabs'] },
  PDAnnot: {
    props: [
      'structParentStandardType',
      'structParentType',
      'isOutsideCropBox',
      'Alt',
      'containsLang',
      'gContainsCatalogLang',
      'Subtype',
      'F',
      'width',
      'height',
      'AP',
      'FT',
      'N_type',
      'containsAppearances',
      'Contents',
    ],
  },
  PDWidgetAnnot: { parent: 'PDAnnot', props: ['containsA', 'containsAA', 'TU'] },
  PDLinkAnnot: { parent: 'PDAnnot', props: [] },
  PDTrapNetAnnot: { parent: 'PDAnnot', props: [] },
  PDPrinterMarkAnnot: { parent: 'PDAnnot', props: [] },
  PDAction: { props: ['S'] },
  PDNamedAction: { parent: 'PDAction', props: ['N'] },
  PDAcroForm: { props: ['NeedAppearances', 'containsXFA'] },
  PDFormField: { props: ['containsAA', 'TU'] },
  PDOCConfig: { props: ['Name', 'hasDuplicateName', 'OCGsNotContainedInOrder', 'AS'] },
  PDPerms: { props: ['entries'] },
  PDSigRef: { props: ['permsContainDocMDP', 'entries'] },
  CosFileSpecification: { props: ['containsEF', 'F', 'UF', 'AFRelationship', 'isAssociatedFile'] },
  EmbeddedFile: { props: ['Subtype'] },
  PDOutputIntent: { props: ['S', 'containsDestOutputProfileRef'] },
  OutputIntents: { props: ['sameOutputProfileIndirect'] },
  ICCOutputProfile: { props: ['deviceClass', 'colorSpace', 'version'] },
  ICCInputProfile: { props: ['deviceClass', 'colorSpace', 'version'] },
  PDEncryption: { props: ['P'] },
  PDMediaClip: { props: ['CT', 'hasCorrectAlt'] },
}

const ACTION_KEYS = ['A', 'PA']

export interface DocumentInput {
  v: Values
  catalog: PDFDict | undefined
  trailer: PDFDict | undefined
  pages: PDFDict[]
  pageRefs: (PDFRef | undefined)[]
  /** every indirect object of the file */
  objects: [PDFRef, PDFObject][]
}

export function documentObjects(d: DocumentInput): ModelObject[] {
  const { v, catalog } = d
  const out: ModelObject[] = []
  const names = v.dict(catalog, 'Names')
  out.push({
    type: 'PDDocument',
    context: 'catalog',
    props: {
      containsAA: v.has(catalog, 'AA'),
      containsMetadata: v.stream(catalog, 'Metadata') !== undefined,
      containsAlternatePresentations: v.has(names, 'AlternatePresentations'),
      containsStructTreeRoot: v.dict(catalog, 'StructTreeRoot') !== undefined,
    },
  })
  const encrypt = v.dict(d.trailer, 'Encrypt')
  if (encrypt)
    out.push({ type: 'PDEncryption', context: 'trailer /Encrypt', props: { P: v.number(encrypt, 'P') } })
  for (const [i, page] of d.pages.entries()) out.push(...pageObjects(v, page, i + 1, d.pageRefs[i], catalog))
  out.push(...actions(d))
  out.push(...forms(v, catalog))
  out.push(...optionalContent(v, catalog))
  out.push(...permissions(d))
  out.push(...fileSpecs(d))
  out.push(...outputIntents(d))
  out.push(...mediaClips(d))
  return out
}

function pageObjects(
  v: Values,
  page: PDFDict,
  n: number,
  ref: PDFRef | undefined,
  catalog: PDFDict | undefined,
): ModelObject[] {
  const annots = v.items(v.array(page, 'Annots')).filter((a): a is PDFDict => a instanceof PDFDict)
  const out: ModelObject[] = [
    {
      type: 'PDPage',
      page: n,
      context: `${refLabel(ref)} page ${n}`,
      props: {
        containsAA: v.has(page, 'AA'),
        containsPresSteps: v.has(page, 'PresSteps'),
        containsGroupCS: v.has(v.dict(page, 'Group'), 'CS'),
        containsAnnotations: annots.length > 0,
        Tabs: v.name(page, 'Tabs'),
      },
    },
  ]
  for (const annot of annots) out.push(annotation(v, annot, n, page, catalog))
  return out
}

const ANNOT_SUBTYPES: Record<string, string> = {
  Widget: 'PDWidgetAnnot',
  Link: 'PDLinkAnnot',
  TrapNet: 'PDTrapNetAnnot',
  PrinterMark: 'PDPrinterMarkAnnot',
}

function annotation(
  v: Values,
  annot: PDFDict,
  page: number,
  pageDict: PDFDict,
  catalog: PDFDict | undefined,
): ModelObject {
  const key = v.number(annot, 'StructParent')
  const structParent = key === null ? undefined : structParentOf(v, catalog, key)
  const crop = inherited(v, pageDict, 'CropBox') ?? inherited(v, pageDict, 'MediaBox')
  const box = crop instanceof PDFArray ? v.items(crop).map(numberOf) : []
  const subtype = v.name(annot, 'Subtype')
  const rect = v.items(v.array(annot, 'Rect')).map(numberOf)
  const ap = v.dict(annot, 'AP')
  const normal = ap ? v.get(ap, 'N') : undefined
  const type = (subtype && ANNOT_SUBTYPES[subtype]) ?? 'PDAnnot'
  const normalEntries = normal instanceof PDFDict && !(normal instanceof PDFStream) ? normal.entries() : []
  return {
    type,
    page,
    context: `page ${page} annotation /${subtype ?? '?'}`,
    props: {
      Subtype: subtype,
      F: v.number(annot, 'F'),
      width: rect.length === 4 ? Math.abs(rect[2]! - rect[0]!) : 0,
      height: rect.length === 4 ? Math.abs(rect[3]! - rect[1]!) : 0,
      AP: ap
        ? ap
            .keys()
            .map((k) => k.decodeText())
            .join('&')
        : null,
      FT: nameOf(inherited(v, annot, 'FT')),
      N_type: normal instanceof PDFStream ? 'Stream' : normal instanceof PDFDict ? 'Dict' : null,
      containsAppearances:
        normalEntries.length > 0 && normalEntries.every(([, s]) => v.resolve(s) instanceof PDFRawStream),
      Contents: v.text(annot, 'Contents'),
      containsA: v.has(annot, 'A'),
      containsAA: v.has(annot, 'AA'),
      TU: textOf(inherited(v, annot, 'TU')),
      structParentStandardType: structParent ? standardTypeOf(v, catalog, structParent) : null,
      structParentType: structParent ? v.name(structParent, 'S') : null,
      isOutsideCropBox: rect.length === 4 && box.length === 4 && !overlaps(rect, box),
      Alt: structParent ? v.text(structParent, 'Alt') : null,
      containsLang: structParent ? v.has(structParent, 'Lang') : false,
      gContainsCatalogLang: catalogLang(v, catalog),
    },
  }
}

/** Every action reachable from the catalog, pages, annotations and outlines (with Next chains). */
function actions(d: DocumentInput): ModelObject[] {
  const { v } = d
  const out: ModelObject[] = []
  const seen = new Set<PDFDict>()
  const add = (a: PDFObject | undefined, where: string, page?: number) => {
    const list = a instanceof PDFArray ? v.items(a) : a ? [a] : []
    for (const item of list) {
      if (!(item instanceof PDFDict) || seen.has(item) || seen.size > 100_000) continue
      seen.add(item)
      const s = v.name(item, 'S')
      out.push({
        type: s === 'Named' ? 'PDNamedAction' : 'PDAction',
        context: `${where} action /${s ?? '?'}`,
        ...(page ? { page } : {}),
        props: { S: s, N: v.name(item, 'N') },
      })
      add(v.get(item, 'Next'), where, page)
    }
  }
  const addAA = (dict: PDFDict | undefined, where: string, page?: number) => {
    const aa = v.dict(dict, 'AA')
    for (const [, a] of aa?.entries() ?? []) add(v.resolve(a), `${where} /AA`, page)
  }
  const open = v.get(d.catalog, 'OpenAction')
  if (open instanceof PDFDict) add(open, 'catalog /OpenAction')
  addAA(d.catalog, 'catalog')
  for (const [i, page] of d.pages.entries()) {
    addAA(page, `page ${i + 1}`, i + 1)
    for (const annot of v.items(v.array(page, 'Annots'))) {
      if (!(annot instanceof PDFDict)) continue
      for (const key of ACTION_KEYS) add(v.get(annot, key), `page ${i + 1} annotation /${key}`, i + 1)
      addAA(annot, `page ${i + 1} annotation`, i + 1)
    }
  }
  // outline items
  const outlineSeen = new Set<PDFDict>()
  const walkOutline = (item: PDFDict | undefined, depth: number) => {
    for (let node = item; node && !outlineSeen.has(node) && depth < 64; node = v.dict(node, 'Next')) {
      outlineSeen.add(node)
      add(v.get(node, 'A'), 'outline item')
      walkOutline(v.dict(node, 'First'), depth + 1)
    }
  }
  walkOutline(v.dict(v.dict(d.catalog, 'Outlines'), 'First'), 0)
  return out
}

function forms(v: Values, catalog: PDFDict | undefined): ModelObject[] {
  const acro = v.dict(catalog, 'AcroForm')
  if (!acro) return []
  const out: ModelObject[] = [
    {
      type: 'PDAcroForm',
      context: 'catalog /AcroForm',
      props: { NeedAppearances: v.bool(acro, 'NeedAppearances'), containsXFA: v.has(acro, 'XFA') },
    },
  ]
  const seen = new Set<PDFDict>()
  const walk = (fields: PDFArray | undefined, depth: number) => {
    for (const f of v.items(fields)) {
      if (!(f instanceof PDFDict) || seen.has(f) || depth > 64) continue
      seen.add(f)
      out.push({
        type: 'PDFormField',
        context: `form field ${v.text(f, 'T') ?? ''}`.trim(),
        props: { containsAA: v.has(f, 'AA'), TU: v.text(f, 'TU') },
      })
      walk(v.array(f, 'Kids'), depth + 1)
    }
  }
  walk(v.array(acro, 'Fields'), 0)
  return out
}

function optionalContent(v: Values, catalog: PDFDict | undefined): ModelObject[] {
  const ocp = v.dict(catalog, 'OCProperties')
  if (!ocp) return []
  const ocgs = v.items(v.array(ocp, 'OCGs'))
  const configs = [v.dict(ocp, 'D'), ...v.items(v.array(ocp, 'Configs'))].filter(
    (c): c is PDFDict => c instanceof PDFDict,
  )
  const names = configs.map((c) => v.text(c, 'Name'))
  const out: ModelObject[] = []
  for (const [i, config] of configs.entries()) {
    const name = names[i] ?? null
    const order = v.array(config, 'Order')
    let missing: string | null = null
    if (order) {
      const listed = new Set<PDFObject>()
      const collect = (arr: PDFArray, depth: number) => {
        for (const item of v.items(arr)) {
          if (item instanceof PDFArray && depth < 32) collect(item, depth + 1)
          else listed.add(item)
        }
      }
      collect(order, 0)
      const absent = ocgs.filter((g) => !listed.has(g))
      missing =
        absent.length > 0
          ? absent.map((g) => (g instanceof PDFDict ? (v.text(g, 'Name') ?? '?') : '?')).join(', ')
          : null
    }
    out.push({
      type: 'PDOCConfig',
      context: i === 0 ? 'optional content /D' : `optional content /Configs[${i - 1}]`,
      props: {
        Name: name,
        hasDuplicateName: name !== null && names.filter((n) => n === name).length > 1,
        OCGsNotContainedInOrder: missing,
        AS: v.has(config, 'AS') ? 'present' : null,
      },
    })
  }
  return out
}

function permissions(d: DocumentInput): ModelObject[] {
  const { v } = d
  const perms = v.dict(d.catalog, 'Perms')
  const out: ModelObject[] = []
  if (perms) {
    out.push({
      type: 'PDPerms',
      context: 'catalog /Perms',
      props: {
        entries: perms
          .keys()
          .map((k) => k.decodeText())
          .join('&'),
      },
    })
  }
  const docMdp = v.has(perms, 'DocMDP')
  for (const [ref, obj] of d.objects) {
    const dict = obj instanceof PDFDict ? obj : undefined
    if (!dict || v.name(dict, 'Type') !== 'Sig') continue
    for (const sigRef of v.items(v.array(dict, 'Reference'))) {
      if (!(sigRef instanceof PDFDict)) continue
      out.push({
        type: 'PDSigRef',
        context: `${refLabel(ref)} signature reference`,
        props: {
          permsContainDocMDP: docMdp,
          entries: sigRef
            .keys()
            .map((k) => k.decodeText())
            .join('&'),
        },
      })
    }
  }
  return out
}

/** File specifications (dictionaries with /EF or /Type /Filespec) and the files they embed. */
function fileSpecs(d: DocumentInput): ModelObject[] {
  const { v } = d
  const associated = new Set<PDFObject>()
  const noteAF = (dict: PDFDict) => {
    for (const f of v.items(v.array(dict, 'AF'))) associated.add(f)
  }
  for (const [, obj] of d.objects) {
    if (obj instanceof PDFDict) noteAF(obj)
    else if (obj instanceof PDFStream) noteAF(obj.dict)
  }
  const out: ModelObject[] = []
  for (const [ref, obj] of d.objects) {
    if (!(obj instanceof PDFDict) || obj instanceof PDFStream) continue
    const isSpec = v.name(obj, 'Type') === 'Filespec' || v.has(obj, 'EF')
    if (!isSpec) continue
    const ef = v.dict(obj, 'EF')
    out.push({
      type: 'CosFileSpecification',
      context: `${refLabel(ref)} file specification ${v.text(obj, 'UF') ?? v.text(obj, 'F') ?? ''}`.trim(),
      props: {
        containsEF: ef !== undefined,
        F: v.text(obj, 'F'),
        UF: v.text(obj, 'UF'),
        AFRelationship: v.name(obj, 'AFRelationship'),
        isAssociatedFile: associated.has(obj),
      },
    })
    for (const key of ['F', 'UF']) {
      const file = v.stream(ef, key)
      if (!file) continue
      out.push({
        type: 'EmbeddedFile',
        context: `${refLabel(ref)} embedded file /${key}`,
        props: { Subtype: v.name(file.dict, 'Subtype') },
      })
    }
  }
  return out
}

type IccHeader = {
  deviceClass: string
  colorSpace: string
  version: number
}

export function iccHeader(v: Values, stream: PDFRawStream): IccHeader | undefined {
  const bytes = v.decoded(stream)
  if (!bytes || bytes.length < 128) return undefined
  const ascii = (from: number) => String.fromCharCode(...bytes.subarray(from, from + 4))
  return { deviceClass: ascii(12), colorSpace: ascii(16), version: bytes[8]! + (bytes[9]! >> 4) / 10 }
}

function outputIntents(d: DocumentInput): ModelObject[] {
  const { v } = d
  const out: ModelObject[] = []
  const lists = [v.array(d.catalog, 'OutputIntents'), ...d.pages.map((p) => v.array(p, 'OutputIntents'))]
  const profiles = new Set<string>()
  let any = false
  for (const list of lists) {
    for (const intent of v.items(list)) {
      if (!(intent instanceof PDFDict)) continue
      any = true
      out.push({
        type: 'PDOutputIntent',
        context: `output intent /${v.name(intent, 'S') ?? '?'}`,
        props: {
          S: v.name(intent, 'S'),
          containsDestOutputProfileRef: v.has(intent, 'DestOutputProfileRef'),
        },
      })
      const raw = intent.get(PDFName.of('DestOutputProfile'))
      if (!raw) continue
      profiles.add(raw instanceof PDFRef ? raw.toString() : `direct ${profiles.size}`)
      const stream = v.resolve(raw)
      const header = stream instanceof PDFRawStream ? iccHeader(v, stream) : undefined
      out.push({
        type: 'ICCOutputProfile',
        context: `output intent profile ${raw instanceof PDFRef ? refLabel(raw) : ''}`.trim(),
        props: header ?? { deviceClass: null, colorSpace: null, version: null },
      })
    }
  }
  if (any)
    out.push({
      type: 'OutputIntents',
      context: 'output intents',
      props: { sameOutputProfileIndirect: profiles.size <= 1 },
    })
  return out
}

/** The colour space of the PDF/A output intent's profile (`RGB `, `CMYK`, `GRAY`), or null. */
export function outputColorSpace(v: Values, catalog: PDFDict | undefined): string | null {
  for (const intent of v.items(v.array(catalog, 'OutputIntents'))) {
    if (!(intent instanceof PDFDict) || v.name(intent, 'S') !== 'GTS_PDFA1') continue
    const stream = v.stream(intent, 'DestOutputProfile')
    const header = stream ? iccHeader(v, stream) : undefined
    return header?.colorSpace ?? null
  }
  return null
}

const numberOf = (x: PDFObject) => (x instanceof PDFNumber ? x.asNumber() : 0)

/** two rectangles [x1 y1 x2 y2] (corners in any order) share some area */
function overlaps(a: number[], b: number[]): boolean {
  const [ax1, ax2] = [Math.min(a[0]!, a[2]!), Math.max(a[0]!, a[2]!)]
  const [ay1, ay2] = [Math.min(a[1]!, a[3]!), Math.max(a[1]!, a[3]!)]
  const [bx1, bx2] = [Math.min(b[0]!, b[2]!), Math.max(b[0]!, b[2]!)]
  const [by1, by2] = [Math.min(b[1]!, b[3]!), Math.max(b[1]!, b[3]!)]
  return ax1 < bx2 && bx1 < ax2 && ay1 < by2 && by1 < ay2
}

/** Media clip data dictionaries (/S /MCD) anywhere in the file, direct or indirect (ISO 14289-1 7.18.6.2). */
function mediaClips(d: DocumentInput): ModelObject[] {
  const { v } = d
  const out: ModelObject[] = []
  const seen = new Set<PDFDict>()
  const visit = (o: PDFObject | undefined, where: string, depth: number) => {
    if (depth > 32 || out.length > 10_000) return
    if (o instanceof PDFArray) {
      for (let i = 0; i < o.size(); i++) {
        const item = o.get(i)
        if (!(item instanceof PDFRef)) visit(item, where, depth + 1)
      }
      return
    }
    if (!(o instanceof PDFDict) || o instanceof PDFStream || seen.has(o)) return
    seen.add(o)
    if (v.name(o, 'S') === 'MCD') {
      // the alternate description: pairs of language and text, every text non-empty
      const alt = v.items(v.array(o, 'Alt'))
      out.push({
        type: 'PDMediaClip',
        context: `${where} media clip`,
        props: {
          CT: v.text(o, 'CT'),
          hasCorrectAlt:
            alt.length >= 2 &&
            alt.length % 2 === 0 &&
            alt.every((x, i) => i % 2 === 0 || (textOf(x) ?? '') !== ''),
        },
      })
    }
    for (const [, value] of o.entries()) if (!(value instanceof PDFRef)) visit(value, where, depth + 1)
  }
  for (const [ref, obj] of d.objects) visit(obj, refLabel(ref), 0)
  return out
}
