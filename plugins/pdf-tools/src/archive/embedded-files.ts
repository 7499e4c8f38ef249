import {
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFHexString,
  PDFName,
  PDFRef,
  PDFStream,
  PDFString,
} from '@cantoo/pdf-lib'
import type { Finding } from '@docsvc/core/sdk'
import { archiveFinding, objectName } from './archive-findings.ts'
import { entryAs, lookupAs, nameOf, textOf } from './pdf-values.ts'

// Embedded files of a PDF/A-3 file are associated files (ISO 19005-3 6.8): each file
// specification has /F and /UF, an /AFRelationship, and its stream a MIME /Subtype and
// /Params /ModDate; the catalog's /AF lists them all. PDF/A-2 embeds only PDF/A files (6.8),
// which nothing here can vouch for: each one is a finding there, which fails the render.

const MIME = /^[-\w+.]+\/[-\w+.]+$/

/** The file specifications of the /EmbeddedFiles name tree and of FileAttachment annotations. */
function embeddedFileSpecs(doc: PDFDocument): PDFRef[] {
  const { context } = doc
  const names = entryAs(doc.catalog, 'Names', PDFDict)
  const root = names ? entryAs(names, 'EmbeddedFiles', PDFDict) : undefined
  const specs: PDFRef[] = []
  const seen = new Set<PDFDict>()
  const stack: (PDFDict | undefined)[] = [root]
  while (stack.length > 0) {
    const node = stack.pop()
    if (!node || seen.has(node)) continue
    seen.add(node)
    const list = entryAs(node, 'Names', PDFArray)
    const pairs = list?.asArray() ?? []
    for (let i = 1; i < pairs.length; i += 2) {
      const spec = pairs[i]
      if (spec instanceof PDFRef) specs.push(spec)
      else if (spec instanceof PDFDict) {
        // a direct specification: made indirect so the catalog's /AF can point at the same one
        const ref = context.register(spec)
        list?.set(i, ref)
        specs.push(ref)
      }
    }
    for (const kid of entryAs(node, 'Kids', PDFArray)?.asArray() ?? [])
      stack.push(lookupAs(context, kid, PDFDict))
  }
  const all = [...specs, ...attachmentAnnotationSpecs(doc)]
  return all.filter((ref, i) => all.findIndex((r) => r.tag === ref.tag) === i)
}

/** The file specifications of FileAttachment annotations (files shown as a pin on a page). */
function attachmentAnnotationSpecs(doc: PDFDocument): PDFRef[] {
  const specs: PDFRef[] = []
  for (const page of doc.getPages()) {
    for (const ref of entryAs(page.node, 'Annots', PDFArray)?.asArray() ?? []) {
      const annot = lookupAs(doc.context, ref, PDFDict)
      if (nameOf(annot?.get(PDFName.of('Subtype'))) !== 'FileAttachment') continue
      const spec = annot?.get(PDFName.of('FS'))
      if (spec instanceof PDFRef) specs.push(spec)
      else if (spec instanceof PDFDict) {
        const indirect = doc.context.register(spec)
        annot?.set(PDFName.of('FS'), indirect)
        specs.push(indirect)
      }
    }
  }
  return specs
}

function pdfDate(date: Date): PDFString {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14)
  return PDFString.of(`D:${iso}Z`)
}

/**
 * Completes one file specification: the attach step wrote the request's relationship and media
 * type; what a file lacks gets the values ISO 19005-3 names for the unknown.
 */
function declare(doc: PDFDocument, spec: PDFDict, now: Date): void {
  const { context } = doc
  const fileName = textOf(spec.get(PDFName.of('UF'))) ?? textOf(spec.get(PDFName.of('F'))) ?? 'attachment'
  if (!spec.get(PDFName.of('F'))) spec.set(PDFName.of('F'), PDFString.of(fileName))
  if (!spec.get(PDFName.of('UF'))) spec.set(PDFName.of('UF'), PDFHexString.fromText(fileName))
  if (!(spec.get(PDFName.of('AFRelationship')) instanceof PDFName))
    spec.set(PDFName.of('AFRelationship'), PDFName.of('Unspecified'))
  const ef = entryAs(spec, 'EF', PDFDict)
  for (const key of ['F', 'UF']) {
    const stream = lookupAs(context, ef?.get(PDFName.of(key)), PDFStream)
    if (!stream) continue
    // 6.8-1: a MIME type, application/octet-stream when it is not known
    if (!MIME.test(nameOf(stream.dict.get(PDFName.of('Subtype'))) ?? ''))
      stream.dict.set(PDFName.of('Subtype'), PDFName.of('application/octet-stream'))
    let params = entryAs(stream.dict, 'Params', PDFDict)
    if (!params) {
      params = context.obj({})
      stream.dict.set(PDFName.of('Params'), params)
    }
    if (!params.get(PDFName.of('ModDate'))) params.set(PDFName.of('ModDate'), pdfDate(now))
  }
}

/**
 * PDF/A-3: declares every embedded file and lists it in the catalog's /AF (kept entries first).
 * PDF/A-2: a finding per embedded file.
 */
export function declareEmbeddedFiles(doc: PDFDocument, part: 2 | 3, findings: Finding[]): number {
  const { context } = doc
  const specs = embeddedFileSpecs(doc)
  if (part === 2) {
    const embedded = specs.filter(
      (ref) => lookupAs(context, ref, PDFDict)?.get(PDFName.of('EF')) !== undefined,
    )
    for (const ref of embedded) {
      const object = objectName(ref)
      findings.push(
        archiveFinding('6.8', 5, 'PDF/A-2 embeds only PDF/A files; this one cannot be vouched for', {
          ...(object ? { object } : {}),
        }),
      )
    }
    return embedded.length
  }
  const now = new Date()
  const af = entryAs(doc.catalog, 'AF', PDFArray) ?? context.obj([])
  const listed = new Set(
    af
      .asArray()
      .filter((r): r is PDFRef => r instanceof PDFRef)
      .map((r) => r.tag),
  )
  for (const ref of specs) {
    const spec = lookupAs(context, ref, PDFDict)
    if (!spec) continue
    declare(doc, spec, now)
    if (!listed.has(ref.tag)) af.push(ref)
  }
  if (af.size() > 0) doc.catalog.set(PDFName.of('AF'), af)
  return specs.length
}
