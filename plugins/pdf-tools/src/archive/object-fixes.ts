import {
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFName,
  PDFNumber,
  type PDFRef,
  PDFStream,
} from '@cantoo/pdf-lib'
import type { Finding } from '@docsvc/core/sdk'
import { archiveFinding, objectName } from './archive-findings.ts'
import { entryAs, lookupAs, nameOf } from './pdf-values.ts'

// One pass over the file's objects for the rules about single objects (ISO 19005-2 6.1.7,
// 6.2.5, 6.2.8, 6.2.9, 6.2.11): what only a screen or a press reads (interpolation, transfer
// functions, halftone names, alternate images) goes; subset-font bookkeeping that must otherwise
// be complete (CIDSet, CharSet) goes, as PDF/A-2 allows; what would change the drawing is a
// finding.

function filterNames(dict: PDFDict): string[] {
  const filter = dict.get(PDFName.of('Filter'))
  if (filter instanceof PDFName) return [filter.decodeText()]
  if (filter instanceof PDFArray)
    return filter.asArray().flatMap((f) => (f instanceof PDFName ? [f.decodeText()] : []))
  return []
}

function fixImage(dict: PDFDict): void {
  // 6.2.8: no alternates, no OPI, no interpolation (a viewer's smoothing, not the image's content)
  for (const key of ['Alternates', 'OPI']) dict.delete(PDFName.of(key))
  if (dict.get(PDFName.of('Interpolate')) !== undefined) dict.delete(PDFName.of('Interpolate'))
}

function fixExtGState(dict: PDFDict): void {
  // 6.2.5: transfer functions and halftone phases are press settings
  dict.delete(PDFName.of('TR'))
  dict.delete(PDFName.of('HTP'))
  const tr2 = dict.get(PDFName.of('TR2'))
  if (tr2 !== undefined && nameOf(tr2) !== 'Default') dict.set(PDFName.of('TR2'), PDFName.of('Default'))
  const halftone = entryAs(dict, 'HT', PDFDict)
  halftone?.delete(PDFName.of('HalftoneName'))
}

function fixFontDescriptor(dict: PDFDict): void {
  // 6.2.11.4.2: CIDSet and CharSet, when present, must list every glyph of the subset; both
  // are optional in PDF 1.7 and PDF/A-2, so they go rather than being checked glyph by glyph
  dict.delete(PDFName.of('CIDSet'))
  dict.delete(PDFName.of('CharSet'))
}

function fixFont(doc: PDFDocument, dict: PDFDict): void {
  const subtype = nameOf(dict.get(PDFName.of('Subtype')))
  if (subtype === 'CIDFontType2' && dict.get(PDFName.of('CIDToGIDMap')) === undefined) {
    // 6.2.11.3.2: the entry must be there; its default meaning is Identity
    dict.set(PDFName.of('CIDToGIDMap'), PDFName.of('Identity'))
  }
  if (subtype === 'TrueType') {
    const descriptor = lookupAs(doc.context, dict.get(PDFName.of('FontDescriptor')), PDFDict)
    const flags = (descriptor && entryAs(descriptor, 'Flags', PDFNumber))?.asNumber() ?? 0
    // 6.2.11.6-3: a symbolic TrueType font's codes are glyph codes of its own cmap, no /Encoding
    if ((flags & 4) !== 0) dict.delete(PDFName.of('Encoding'))
  }
}

/** Fixes what it can in every indirect object; findings for the rest. */
export function fixObjects(doc: PDFDocument, findings: Finding[]): void {
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    const dict = object instanceof PDFStream ? object.dict : object instanceof PDFDict ? object : undefined
    if (!dict) continue
    const type = nameOf(dict.get(PDFName.of('Type')))
    const subtype = nameOf(dict.get(PDFName.of('Subtype')))
    if (object instanceof PDFStream) checkStream(dict, ref, findings)
    if (subtype === 'Image') fixImage(dict)
    else if (subtype === 'Form') fixForm(dict, ref, findings)
    else if (subtype === 'PS') findings.push(archiveFinding('6.2.9', 3, 'a PostScript XObject', at(ref)))
    if (type === 'ExtGState') fixExtGState(dict)
    else if (type === 'FontDescriptor') fixFontDescriptor(dict)
    else if (type === 'Font') fixFont(doc, dict)
  }
}

function fixForm(dict: PDFDict, ref: PDFRef, findings: Finding[]): void {
  dict.delete(PDFName.of('OPI'))
  if (dict.get(PDFName.of('PS')) !== undefined || nameOf(dict.get(PDFName.of('Subtype2'))) === 'PS')
    findings.push(archiveFinding('6.2.9', 1, 'a form XObject carries PostScript', at(ref)))
  if (dict.get(PDFName.of('Ref')) !== undefined)
    findings.push(archiveFinding('6.2.9', 2, 'a reference XObject (content of another file)', at(ref)))
}

function checkStream(dict: PDFDict, ref: PDFRef, findings: Finding[]): void {
  if (['F', 'FFilter', 'FDecodeParms'].some((key) => dict.get(PDFName.of(key)) !== undefined))
    findings.push(archiveFinding('6.1.7.1', 3, 'a stream whose data is in an external file', at(ref)))
  if (filterNames(dict).some((f) => f === 'LZWDecode' || f === 'LZW'))
    findings.push(archiveFinding('6.1.7.2', 1, 'a stream compressed with LZW', at(ref)))
}

function at(ref: PDFRef): { object: string } {
  return { object: objectName(ref) ?? '' }
}
