// Test helper only: the veraPDF PDF/A-2B/-3B rules (../shared/verapdf-profiles) that touch what
// Chromium prints and what the PDF/A step changes, checked on qpdf's reading of a file. Each
// break is `clause-test: what`, as veraPDF names its rules.
import type { PdfDict, PdfStructure } from './pdf-structure.fixture.ts'

const PDF_STRING = /^[ub]:/
const text = (value: unknown) => (typeof value === 'string' ? value.replace(PDF_STRING, '') : undefined)

function xmpValue(packet: string, property: string): string | undefined {
  const element = new RegExp(`<${property}>(?:<rdf:Alt>|<rdf:Seq>)?(?:<rdf:li[^>]*>)?([^<]*)<`).exec(packet)
  return element?.[1]
}

function headerBreaks(pdf: PdfStructure): string[] {
  const breaks: string[] = []
  const [header = '', comment = ''] = pdf.head.toString('latin1').split('\n')
  if (!/^%PDF-1\.[0-7]$/.test(header)) breaks.push(`6.1.2-1: header ${JSON.stringify(header)}`)
  const binary = [...comment.slice(1, 5)].filter((c) => c.charCodeAt(0) > 127)
  if (!comment.startsWith('%') || binary.length < 4)
    breaks.push('6.1.2-2: no binary comment after the header')
  const id = pdf.trailer['/ID']
  if (!Array.isArray(id) || id.length !== 2 || String(id[0]).length !== String(id[1]).length)
    breaks.push('6.1.3-1: no trailer /ID of two strings')
  if (pdf.trailer['/Encrypt'] !== undefined) breaks.push('6.1.3-2: encrypted')
  return breaks
}

function outputIntentBreaks(pdf: PdfStructure): string[] {
  const intents = pdf.resolve(pdf.catalog['/OutputIntents'])
  if (!Array.isArray(intents) || intents.length === 0)
    return ['6.2.4.3-2: no output intent (DeviceRGB is used)']
  const breaks: string[] = []
  for (const entry of intents) {
    const intent = pdf.resolve(entry) as PdfDict
    if (intent['/S'] !== '/GTS_PDFA1') continue
    const ref = intent['/DestOutputProfile']
    const profile = pdf.resolve(ref) as PdfDict | undefined
    if (typeof ref !== 'string' || !profile || profile['/N'] !== 3) {
      breaks.push('6.2.3-1: the PDF/A output intent has no 3-component ICC profile')
      continue
    }
    const icc = pdf.streamBytes(ref)
    const deviceClass = icc.subarray(12, 16).toString('latin1')
    const space = icc.subarray(16, 20).toString('latin1')
    if (!['mntr', 'prtr'].includes(deviceClass) || space !== 'RGB ' || (icc[8] ?? 9) >= 5)
      breaks.push(`6.2.3-1: profile ${deviceClass}/${space} version ${icc[8]}`)
    return breaks
  }
  return ['6.2.4.3-2: no GTS_PDFA1 output intent']
}

function metadataBreaks(pdf: PdfStructure, part: 2 | 3): string[] {
  const ref = pdf.catalog['/Metadata']
  if (typeof ref !== 'string') return ['6.6.2.1-1: no metadata stream']
  const packet = pdf.streamBytes(ref).toString('utf8')
  const breaks: string[] = []
  const head = /<\?xpacket begin[^>]*>/.exec(packet)?.[0] ?? ''
  if (/\b(bytes|encoding)=/.test(head)) breaks.push('6.6.2.1-2/3: bytes or encoding in the packet header')
  if (xmpValue(packet, 'pdfaid:part') !== String(part)) breaks.push(`6.6.4-2: pdfaid:part is not ${part}`)
  if (xmpValue(packet, 'pdfaid:conformance') !== 'B') breaks.push('6.6.4-3: pdfaid:conformance is not B')
  const info = pdf.resolve(pdf.trailer['/Info']) as PdfDict | undefined
  for (const [key, property] of [
    ['/Title', 'dc:title'],
    ['/Producer', 'pdf:Producer'],
    ['/Creator', 'xmp:CreatorTool'],
  ] as const) {
    if (text(info?.[key]) !== xmpValue(packet, property))
      breaks.push(`6.6.3: Info ${key} ${JSON.stringify(text(info?.[key]))} is not XMP ${property}`)
  }
  return breaks
}

function objectBreaks(pdf: PdfStructure): string[] {
  const breaks: string[] = []
  for (const [ref, dict] of pdf.dicts) {
    const subtype = dict['/Subtype']
    if (dict['/Type'] === '/Annot' || (subtype === '/Link' && dict['/Rect'])) {
      const flags = typeof dict['/F'] === 'number' ? dict['/F'] : undefined
      if (subtype !== '/Popup' && flags === undefined) breaks.push(`6.3.2-1: ${ref} has no /F`)
      if (flags !== undefined && ((flags & 4) === 0 || (flags & (1 | 2 | 32 | 256)) !== 0))
        breaks.push(`6.3.2-2: ${ref} /F ${flags}`)
      const ap = pdf.resolve(dict['/AP']) as PdfDict | undefined
      if (!ap && subtype !== '/Popup' && subtype !== '/Link') breaks.push(`6.3.3-1: ${ref} has no /AP`)
      if (ap && Object.keys(ap).some((k) => k !== '/N')) breaks.push(`6.3.3-2: ${ref} /AP has more than /N`)
      if (dict['/AA'] !== undefined) breaks.push(`6.5.2: ${ref} has /AA`)
    }
    if (dict['/Type'] === '/Page' && dict['/AA'] !== undefined) breaks.push(`6.5.2-2: page ${ref} has /AA`)
    if (dict['/S'] === '/JavaScript') breaks.push(`6.5.1-1: ${ref} is a JavaScript action`)
    if (subtype === '/Image' && dict['/Interpolate'] === true) breaks.push(`6.2.8-3: ${ref} interpolates`)
    if (dict['/Type'] === '/FontDescriptor' && dict['/CIDSet'] !== undefined)
      breaks.push(`6.2.11.4.2-2: ${ref} keeps a CIDSet`)
    if (subtype === '/CIDFontType2' && dict['/CIDToGIDMap'] === undefined)
      breaks.push(`6.2.11.3.2-1: ${ref} has no CIDToGIDMap`)
    if (dict['/Type'] === '/Font') breaks.push(...fontBreaks(pdf, ref, dict))
  }
  if (pdf.catalog['/AA'] !== undefined) breaks.push('6.5.2-1: the catalog has /AA')
  if (pdf.catalog['/NeedsRendering'] !== undefined) breaks.push('6.4.2-2: NeedsRendering')
  return breaks
}

const SIMPLE_FONTS = new Set(['/Type1', '/MMType1', '/TrueType', '/Type3'])
const FONT_FILES = ['/FontFile', '/FontFile2', '/FontFile3']

/** 6.2.11.2 (simple fonts' widths cover FirstChar..LastChar), 6.2.11.4.1 (programs embedded). */
function fontBreaks(pdf: PdfStructure, ref: string, font: PdfDict): string[] {
  const breaks: string[] = []
  const subtype = String(font['/Subtype'])
  if (SIMPLE_FONTS.has(subtype)) {
    const widths = pdf.resolve(font['/Widths']) as unknown[] | undefined
    const first = Number(font['/FirstChar'])
    const last = Number(font['/LastChar'])
    if (!widths || widths.length !== last - first + 1)
      breaks.push(`6.2.11.2-6: ${ref} widths do not cover its codes`)
  }
  if (subtype !== '/Type3' && subtype !== '/Type0') {
    const descriptor = pdf.resolve(font['/FontDescriptor']) as PdfDict | undefined
    if (!FONT_FILES.some((key) => descriptor?.[key] !== undefined))
      breaks.push(`6.2.11.4.1-1: ${ref} (${String(font['/BaseFont'])}) is not embedded`)
  }
  return breaks
}

/** The file specifications of the /EmbeddedFiles name tree (one level, as pdf-lib writes it). */
export function embeddedFileSpecs(pdf: PdfStructure): { ref: string; spec: PdfDict }[] {
  const names = pdf.resolve(pdf.catalog['/Names']) as PdfDict | undefined
  const tree = pdf.resolve(names?.['/EmbeddedFiles']) as PdfDict | undefined
  const pairs = (pdf.resolve(tree?.['/Names']) as string[] | undefined) ?? []
  return pairs.filter((_, i) => i % 2 === 1).map((ref) => ({ ref, spec: pdf.resolve(ref) as PdfDict }))
}

function associatedFileBreaks(pdf: PdfStructure): string[] {
  const breaks: string[] = []
  const af = (pdf.resolve(pdf.catalog['/AF']) as unknown[] | undefined) ?? []
  for (const { ref, spec } of embeddedFileSpecs(pdf)) {
    if (!af.includes(ref)) breaks.push(`6.8-4: ${ref} is not in the catalog's /AF`)
    if (!spec['/F'] || !spec['/UF']) breaks.push(`6.8-2: ${ref} lacks /F or /UF`)
    if (typeof spec['/AFRelationship'] !== 'string') breaks.push(`6.8-3: ${ref} has no AFRelationship`)
    const ef = pdf.resolve(spec['/EF']) as PdfDict | undefined
    const stream = pdf.resolve(ef?.['/F']) as PdfDict | undefined
    const mime = String(stream?.['/Subtype'] ?? '')
      .replace(/^\//, '')
      .replace(/#2[fF]/g, '/')
    if (!/^[-\w+.]+\/[-\w+.]+$/.test(mime)) breaks.push(`6.8-1: ${ref} has MIME type ${JSON.stringify(mime)}`)
    const params = pdf.resolve(stream?.['/Params']) as PdfDict | undefined
    if (!params?.['/ModDate']) breaks.push(`6.8: ${ref} has no /Params /ModDate`)
  }
  return breaks
}

/** Every break of the checked rules; empty for a conforming file. */
export function pdfaRuleBreaks(pdf: PdfStructure, part: 2 | 3): string[] {
  return [
    ...headerBreaks(pdf),
    ...outputIntentBreaks(pdf),
    ...metadataBreaks(pdf, part),
    ...objectBreaks(pdf),
    ...(part === 3 ? associatedFileBreaks(pdf) : embeddedFileSpecs(pdf).map(() => '6.8-5: an embedded file')),
  ]
}
