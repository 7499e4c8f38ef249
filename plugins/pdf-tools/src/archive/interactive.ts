import {
  PDFArray,
  type PDFContext,
  PDFDict,
  type PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFRef,
} from '@cantoo/pdf-lib'
import type { Finding } from '@docsvc/core/sdk'
import { archiveFinding, objectName } from './archive-findings.ts'
import { entryAs, lookupAs, nameOf, textOf } from './pdf-values.ts'

// What PDF/A-2/-3 forbids of a document's interactive parts (ISO 19005-2 6.3, 6.4, 6.5, 6.9,
// 6.10, 6.11), made right in place: what only changes how a viewer behaves (additional actions,
// scripts, hidden-flag bits) is removed or set; what would change what is printed (an annotation
// without an appearance) is a finding, never a silent change.

const ALLOWED_ACTIONS = new Set(['GoTo', 'GoToR', 'GoToE', 'Thread', 'URI', 'Named', 'SubmitForm'])
const ALLOWED_NAMED = new Set(['NextPage', 'PrevPage', 'FirstPage', 'LastPage'])
const FORBIDDEN_ANNOTATIONS = new Set(['3D', 'Sound', 'Screen', 'Movie', 'RichMedia'])
// F bits (ISO 32000-1 12.5.3): Invisible 1, Hidden 2, Print 4, NoView 32, ToggleNoView 256
const PRINT = 4
const NOT_SHOWN = 1 | 2 | 32 | 256

/**
 * Whether PDF/A allows an action (6.5.1): JavaScript, Launch, media, Hide and the rest are not;
 * an allowed action keeps only the allowed actions of its /Next chain. Each action is judged once
 * (`judged`), so chains that share actions or loop back cost one visit each.
 */
function allowedAction(
  context: PDFContext,
  value: unknown,
  judged = new Map<PDFDict, boolean>(),
  depth = 0,
): boolean {
  const action = lookupAs(context, value as PDFObject | undefined, PDFDict)
  if (!action || depth > 32) return false
  const known = judged.get(action)
  if (known !== undefined) return known
  // a chain that comes back to an action being judged is a loop: the repeat is dropped
  judged.set(action, false)
  const kind = nameOf(action.get(PDFName.of('S')))
  if (!kind || !ALLOWED_ACTIONS.has(kind)) return false
  if (kind === 'Named' && !ALLOWED_NAMED.has(nameOf(action.get(PDFName.of('N'))) ?? '')) return false
  const next = action.get(PDFName.of('Next'))
  if (next !== undefined) {
    const list = lookupAs(context, next, PDFArray)
    const kept = (list ? list.asArray() : [next]).filter((n) => allowedAction(context, n, judged, depth + 1))
    if (kept.length === 0) action.delete(PDFName.of('Next'))
    else action.set(PDFName.of('Next'), kept.length === 1 ? kept[0]! : context.obj(kept))
  }
  judged.set(action, true)
  return true
}

/** Keeps a dictionary's /A only when PDF/A allows it. */
function sanitizeAction(context: PDFContext, dict: PDFDict): void {
  const action = dict.get(PDFName.of('A'))
  if (action !== undefined && !allowedAction(context, action)) dict.delete(PDFName.of('A'))
}

function fixAnnotation(context: PDFContext, ref: unknown, page: number, findings: Finding[]): boolean {
  const annot = lookupAs(context, ref as PDFObject | undefined, PDFDict)
  if (!annot) return true
  const object = objectName(ref instanceof PDFRef ? ref : undefined)
  const where = { page, ...(object ? { object } : {}) }
  const subtype = nameOf(annot.get(PDFName.of('Subtype'))) ?? ''
  // 6.3.1: these types are not allowed at all; they play media, which an archive cannot keep
  if (FORBIDDEN_ANNOTATIONS.has(subtype)) return false
  annot.delete(PDFName.of('AA'))
  if (subtype === 'Widget') annot.delete(PDFName.of('A'))
  else sanitizeAction(context, annot)
  const flags = entryAs(annot, 'F', PDFNumber)?.asNumber()
  if (subtype !== 'Popup' || flags !== undefined) {
    annot.set(PDFName.of('F'), PDFNumber.of(((flags ?? 0) | PRINT) & ~NOT_SHOWN))
  }
  const ap = entryAs(annot, 'AP', PDFDict)
  if (ap) {
    // 6.3.3-2: only the normal appearance; rollover and down appearances are for screens
    for (const key of ap.keys()) if (key.decodeText() !== 'N') ap.delete(key)
  } else if (subtype !== 'Popup' && subtype !== 'Link' && !zeroSized(context, annot)) {
    findings.push(
      archiveFinding('6.3.3', 1, `a ${subtype || 'untyped'} annotation has no appearance stream`, where),
    )
  }
  return true
}

function zeroSized(context: PDFContext, annot: PDFDict): boolean {
  const rect = lookupAs(context, annot.get(PDFName.of('Rect')), PDFArray)
  if (!rect || rect.size() < 4) return true
  const [x1, y1, x2, y2] = rect.asArray().map((n) => lookupAs(context, n, PDFNumber)?.asNumber() ?? 0)
  return x1 === x2 && y1 === y2
}

/** Pages: annotations' flags, actions and appearances; no /AA or /PresSteps (6.5.2, 6.10). */
export function fixPages(doc: PDFDocument, findings: Finding[]): void {
  const { context } = doc
  doc.getPages().forEach((page, index) => {
    const node = page.node
    node.delete(PDFName.of('AA'))
    node.delete(PDFName.of('PresSteps'))
    const annots = entryAs(node, 'Annots', PDFArray)
    if (!annots) return
    const kept = annots.asArray().filter((ref) => {
      if (fixAnnotation(context, ref, index + 1, findings)) return true
      // gone from the file too, not only from the page: the object alone would still be one
      if (ref instanceof PDFRef) context.delete(ref)
      return false
    })
    if (kept.length !== annots.size()) node.set(PDFName.of('Annots'), context.obj(kept))
  })
}

/** Outline items keep their destinations; their actions follow 6.5.1. */
function fixOutline(context: PDFContext, first: unknown): void {
  const seen = new Set<PDFDict>()
  const stack = [first]
  while (stack.length > 0) {
    const item = lookupAs(context, stack.pop() as PDFObject | undefined, PDFDict)
    if (!item || seen.has(item)) continue
    seen.add(item)
    sanitizeAction(context, item)
    stack.push(item.get(PDFName.of('Next')), item.get(PDFName.of('First')))
  }
}

/** The catalog and the document-wide dictionaries (6.4, 6.5.2, 6.9, 6.10, 6.11). */
export function fixCatalog(doc: PDFDocument, findings: Finding[]): void {
  const { context, catalog } = doc
  for (const key of ['AA', 'NeedsRendering', 'Requirements']) catalog.delete(PDFName.of(key))
  const open = catalog.get(PDFName.of('OpenAction'))
  if (open !== undefined && !(context.lookup(open) instanceof PDFArray) && !allowedAction(context, open))
    catalog.delete(PDFName.of('OpenAction'))
  const outlines = entryAs(catalog, 'Outlines', PDFDict)
  if (outlines) fixOutline(context, outlines.get(PDFName.of('First')))
  const names = entryAs(catalog, 'Names', PDFDict)
  names?.delete(PDFName.of('JavaScript'))
  names?.delete(PDFName.of('AlternatePresentations'))
  const form = entryAs(catalog, 'AcroForm', PDFDict)
  if (form) {
    form.delete(PDFName.of('XFA'))
    // 6.4.1-3: a viewer must not redraw fields; those without an appearance are findings (6.3.3)
    form.delete(PDFName.of('NeedAppearances'))
    for (const field of entryAs(form, 'Fields', PDFArray)?.asArray() ?? []) {
      lookupAs(context, field, PDFDict)?.delete(PDFName.of('AA'))
    }
  }
  fixOptionalContent(doc, findings)
}

/** 6.9: each configuration has a unique, non-empty /Name and no /AS. */
function fixOptionalContent(doc: PDFDocument, findings: Finding[]): void {
  const { context } = doc
  const properties = entryAs(doc.catalog, 'OCProperties', PDFDict)
  if (!properties) return
  const configs = [
    properties.get(PDFName.of('D')),
    ...(entryAs(properties, 'Configs', PDFArray)?.asArray() ?? []),
  ]
  const used = new Set<string>()
  configs.forEach((ref, i) => {
    const config = lookupAs(context, ref, PDFDict)
    if (!config) {
      if (i === 0)
        findings.push(archiveFinding('6.9', 1, 'optional content has no default configuration (/D)'))
      return
    }
    config.delete(PDFName.of('AS'))
    let label = textOf(config.lookup(PDFName.of('Name'))) ?? ''
    if (label === '' || used.has(label)) label = `${label || 'Configuration'} ${i + 1}`
    used.add(label)
    config.set(PDFName.of('Name'), PDFHexString.fromText(label))
  })
}
