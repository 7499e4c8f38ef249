import { ParseSpeeds, PDFDocument, PDFName, type PDFPage, PDFRef, PDFString } from '@cantoo/pdf-lib'
import { type MarkFont, markFont } from './mark-font.ts'
import { markLayout } from './mark-layout.ts'
import { TEST_MARK } from './test-mark-look.ts'

// The TEST mark of a test-mode PDF, drawn on every page of the finished file: the page's own
// content, CSS or script never reaches it. It is an overlay content stream after the page's own
// (which pdf-lib wraps in q/Q, so nothing the page leaves in the graphics state carries over),
// marked as an Artifact (PDF/UA: not part of the document's structure), in an embedded font
// (PDF/A), as real text (pdftotext reads "TEST").

const FONT_KEY = 'DocsvcTestMark'
const STATE_KEY = 'DocsvcTestMarkGS'
/** a subset's tag: six capitals (ISO 32000 9.6.4), fixed since the subset is always the same */
const SUBSET_TAG = 'DCSVTM'

/** The PDF with the TEST mark on every page; its metadata, structure and pages otherwise kept. */
export async function stampTestMark(pdf: Uint8Array): Promise<Buffer> {
  // An incremental update: only the pages and the mark's few objects are written, after the
  // original bytes (the print's own objects are not serialised again). Parsed and written
  // without pausing every 100 objects: the pauses cost more than the work on a busy machine (a
  // killable worker, not the event loop, is where long PDFs belong).
  const doc = await PDFDocument.load(pdf, {
    updateMetadata: false,
    forIncrementalUpdate: true,
    parseSpeed: ParseSpeeds.Fastest,
  })
  // pdf-lib finds the object a change belongs to by a scan of all objects, on every change:
  // seconds on a print's thousands of objects. It is told instead, once, which pages changed.
  const snapshot = doc.context.snapshot
  delete doc.context.snapshot
  const changed: PDFRef[] = []
  const font = markFont()
  const fontRef = embedFont(doc, font)
  const stateRef = doc.context.register(
    doc.context.obj({ Type: 'ExtGState', ca: TEST_MARK.opacity, CA: TEST_MARK.opacity }),
  )
  // pages of one size and rotation share one overlay stream
  const overlays = new Map<string, PDFRef>()
  for (const page of doc.getPages()) {
    const box = page.getCropBox()
    const rotation = (((page.getRotation().angle % 360) + 360) % 360) as number
    const key = `${box.x},${box.y},${box.width},${box.height},${rotation}`
    let overlay = overlays.get(key)
    if (!overlay) {
      overlay = doc.context.register(doc.context.flateStream(overlayOperators(font, box, rotation)))
      overlays.set(key, overlay)
    }
    addOverlay(page, overlay, fontRef, stateRef)
    changed.push(page.ref)
    // normalising puts the page's resources and content list in the page itself, unless the
    // list is an object of its own
    const contents = page.node.get(PDFName.of('Contents'))
    if (contents instanceof PDFRef) changed.push(contents)
  }
  if (!snapshot) throw new Error('pdf-lib took no snapshot of the PDF to update')
  snapshot.markRefsForSave(changed)
  // written with the snapshot given, not set on the document: writing changes the new streams'
  // lengths, each a scan again
  const update = await doc.saveIncremental(snapshot, {
    useObjectStreams: endsWithXrefStream(pdf),
    objectsPerTick: Number.POSITIVE_INFINITY,
  })
  return Buffer.concat([pdf, update])
}

/** Whether the file's last cross-reference section is a stream: the update's is then one too. */
function endsWithXrefStream(pdf: Uint8Array): boolean {
  const tail = Buffer.from(pdf.subarray(Math.max(0, pdf.length - 1024))).toString('latin1')
  const offset = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail)?.[1])
  if (!Number.isInteger(offset) || offset >= pdf.length) return false
  return !Buffer.from(pdf.subarray(offset, offset + 4))
    .toString('latin1')
    .startsWith('xref')
}

function addOverlay(page: PDFPage, overlay: PDFRef, fontRef: PDFRef, stateRef: PDFRef): void {
  const annots = PDFName.of('Annots')
  const hadAnnots = page.node.has(annots)
  const { Font, ExtGState } = page.node.normalizedEntries()
  // fixed names: a page that already uses them gets ours, the mark always draws as itself
  Font.set(PDFName.of(FONT_KEY), fontRef)
  ExtGState.set(PDFName.of(STATE_KEY), stateRef)
  page.node.addContentStream(overlay)
  // normalising gives every page an annotation list; an empty one is noise (PDF/UA checkers
  // look at pages with annotations)
  if (!hadAnnots) page.node.delete(annots)
}

/** The word centred on the visible box, upright as the page is shown (its /Rotate undone). */
function overlayOperators(
  font: MarkFont,
  box: { x: number; y: number; width: number; height: number },
  rotation: number,
): string {
  const turned = rotation === 90 || rotation === 270
  const { glyphs, size, spacing, width, capHeight } = markLayout(
    font,
    turned ? box.height : box.width,
    turned ? box.width : box.height,
  )
  // counter-clockwise by the page's rotation: the viewer turns it back clockwise
  const a = (rotation * Math.PI) / 180
  const cos = Math.round(Math.cos(a))
  const sin = Math.round(Math.sin(a))
  const cx = box.x + box.width / 2
  const cy = box.y + box.height / 2
  const x = cx - (cos * width) / 2 + (sin * capHeight) / 2
  const y = cy - (sin * width) / 2 - (cos * capHeight) / 2
  const { r, g, b } = TEST_MARK.color
  const hex = glyphs.map((id) => id.toString(16).padStart(4, '0')).join('')
  const n = (v: number) => Number(v.toFixed(3)).toString()
  return [
    'q',
    '/Artifact <</Type /Pagination /Subtype /Watermark>> BDC',
    `/${STATE_KEY} gs`,
    `${n(r / 255)} ${n(g / 255)} ${n(b / 255)} rg`,
    'BT',
    `/${FONT_KEY} ${n(size)} Tf`,
    `${n(spacing)} Tc`,
    `${cos} ${sin} ${-sin} ${cos} ${n(x)} ${n(y)} Tm`,
    `<${hex}> Tj`,
    'ET',
    'EMC',
    'Q',
    '',
  ].join('\n')
}

/** The subset as a Type 0 font with Identity encoding (glyph id = code) and a ToUnicode map. */
function embedFont(doc: PDFDocument, font: MarkFont): PDFRef {
  const { context } = doc
  const baseFont = `${SUBSET_TAG}+${font.name}`
  const file = context.register(context.flateStream(font.bytes, { Length1: font.bytes.length }))
  const descriptor = context.register(
    context.obj({
      Type: 'FontDescriptor',
      FontName: baseFont,
      Flags: 4, // symbolic: the glyphs are reached by id, not by a standard encoding
      FontBBox: font.bbox,
      ItalicAngle: 0,
      Ascent: font.ascent,
      Descent: font.descent,
      CapHeight: font.capHeight,
      StemV: 120,
      FontFile2: file,
    }),
  )
  const cidFont = context.register(
    context.obj({
      Type: 'Font',
      Subtype: 'CIDFontType2',
      BaseFont: baseFont,
      CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
      FontDescriptor: descriptor,
      DW: font.widths[0] ?? 1000,
      W: [0, font.widths],
      CIDToGIDMap: 'Identity',
    }),
  )
  const toUnicode = context.register(context.flateStream(toUnicodeMap(font)))
  return context.register(
    context.obj({
      Type: 'Font',
      Subtype: 'Type0',
      BaseFont: baseFont,
      Encoding: 'Identity-H',
      DescendantFonts: [cidFont],
      ToUnicode: toUnicode,
    }),
  )
}

function toUnicodeMap(font: MarkFont): string {
  const hex4 = (v: number) => v.toString(16).padStart(4, '0')
  const lines = font.letters.map((l, i) => `<${hex4(i + 1)}> <${hex4(l.codePointAt(0) as number)}>`)
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
    `${lines.length} beginbfchar`,
    ...lines,
    'endbfchar',
    'endcmap',
    'CMapName currentdict /CMapResource defineresource pop',
    'end',
    'end',
  ].join('\n')
}
