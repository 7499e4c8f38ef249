import { PDFDocument, PDFName, PDFNumber } from '@cantoo/pdf-lib'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { ghostscriptPdf, qpdfRewrite } from '../testing/foreign-pdfs.ts'
import { pdfFonts, pdfInfo, pdfPagePng, pdfPages, pdfPageTexts, qpdfCheck } from '../testing/pdf-readers.ts'
import { stampTestImage } from './image-test-mark.ts'
import { stampTestMark } from './pdf-test-mark.ts'

// The mark on finished files, read back by independent tools: poppler's text and fonts, qpdf's
// structure check, mupdf's drawing, sharp's pixels.

/** Pixels clearly more red than green: the mark's colour. */
async function reddish(image: Buffer): Promise<number> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  let count = 0
  for (let i = 0; i < data.length; i += info.channels) if (data[i]! - data[i + 1]! > 40) count++
  return count
}

/** Three pages: plain, turned by /Rotate 90, and one whose content leaves its graphics state spoiled. */
async function awkwardPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create()
  doc.addPage([595, 842]).drawText('plain page', { x: 50, y: 780 })
  const turned = doc.addPage([595, 842])
  turned.drawText('turned page', { x: 50, y: 780 })
  turned.node.set(PDFName.of('Rotate'), PDFNumber.of(90))
  const spoiled = doc.addPage([842, 595])
  spoiled.drawText('spoiled page', { x: 50, y: 500 })
  // no q/Q: invisible text, white fill, a near-zero scale and an empty clip stay in force after it
  spoiled.node.addContentStream(
    doc.context.register(doc.context.stream('3 Tr 1 1 1 rg 0.001 0 0 0.001 0 0 cm 0 0 0 0 re W n')),
  )
  doc.catalog.set(PDFName.of('MarkInfo'), doc.context.obj({ Marked: true }))
  return Buffer.from(await doc.save())
}

describe('the TEST mark on a PDF', () => {
  it('draws TEST on every page as text, upright, in an embedded subset font, as an Artifact', async () => {
    const source = await awkwardPdf()
    const marked = await stampTestMark(source)
    const texts = pdfPageTexts(marked)
    expect(texts).toHaveLength(3)
    for (const [i, text] of texts.entries()) expect(text, `page ${i + 1}`).toMatch(/\bTEST\b/)
    expect(pdfFonts(marked)).toContainEqual({
      name: 'DCSVTM+DejaVuSans-Bold',
      type: 'CID TrueType',
      embedded: true,
    })
    expect(qpdfCheck(marked).ok).toBe(true)
    // drawn, not only extractable: visible on every page, the spoiled one included
    for (const page of [1, 2, 3])
      expect(await reddish(pdfPagePng(marked, page)), `page ${page}`).toBeGreaterThan(300)
    expect(await reddish(pdfPagePng(source, 3))).toBe(0)
    const content = qpdfRewrite(marked, ['--qdf', '--object-streams=disable']).toString('latin1')
    expect(content).toContain('/Artifact <</Type /Pagination /Subtype /Watermark>> BDC')
    // no empty annotation lists left behind on pages that had none
    const plain = ghostscriptPdf(['one', 'two'])
    const annots = (pdf: Buffer) => qpdfRewrite(pdf, ['--qdf']).toString('latin1').split('/Annots').length - 1
    expect(annots(plain)).toBe(0)
    expect(annots(await stampTestMark(plain))).toBe(0)
    expect(pdfPages(marked).map((p) => p.rotation)).toEqual([0, 90, 0])
  })

  it('marks pages whose resources are inherited from the page tree', async () => {
    const doc = await PDFDocument.create()
    for (const text of ['first', 'second']) doc.addPage([300, 300]).drawText(text, { x: 20, y: 250 })
    const saved = await PDFDocument.load(await doc.save())
    const [first] = saved.getPages()
    // the first page's resources move up to the page tree
    const resources = first!.node.get(PDFName.of('Resources'))!
    first!.node.delete(PDFName.of('Resources'))
    saved.catalog.Pages().set(PDFName.of('Resources'), resources)
    const source = Buffer.from(await saved.save({ useObjectStreams: false }))
    expect(pdfPageTexts(source).map((p) => p.trim())).toEqual(['first', 'second'])
    const marked = await stampTestMark(source)
    expect(pdfPageTexts(marked).map((p) => p.replace(/\s+/g, ' ').trim())).toEqual([
      'first TEST',
      'second TEST',
    ])
  })

  it('updates a file with compressed cross-references and object streams in kind', async () => {
    const packed = qpdfRewrite(await awkwardPdf(), ['--object-streams=generate'])
    const marked = await stampTestMark(packed)
    expect(qpdfCheck(marked).ok).toBe(true)
    for (const [i, text] of pdfPageTexts(marked).entries()) expect(text, `page ${i + 1}`).toMatch(/\bTEST\b/)
    // the update's cross-reference section is a stream like the file's own
    const last = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(marked.toString('latin1'))![1])
    expect(marked.subarray(last, last + 4).toString('latin1')).not.toBe('xref')
  })

  it('appends to the file: the original bytes, metadata and tagging stay as they were', async () => {
    const source = await awkwardPdf()
    const marked = await stampTestMark(source)
    expect(marked.subarray(0, source.length).equals(source)).toBe(true)
    const before = pdfInfo(source)
    const after = pdfInfo(marked)
    for (const field of ['Producer', 'Creator', 'CreationDate', 'ModDate', 'Tagged', 'Pages']) {
      expect(after[field], field).toBe(before[field])
    }
  })
})

describe('the TEST mark on images', () => {
  const size = { width: 600, height: 300 }
  const white = (format: 'png' | 'jpeg' | 'webp') =>
    sharp({ create: { ...size, channels: 3, background: '#ffffff' } })
      .toFormat(format)
      .toBuffer()

  it('composites the same mark onto PNG, JPEG and WebP, keeping format and size', async () => {
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const marked = await stampTestImage(await white(format), format)
      expect(await sharp(marked).metadata(), format).toMatchObject({ format, ...size })
      expect(await reddish(marked), format).toBeGreaterThan(8000)
    }
  })

  it('keeps a transparent PNG transparent around the mark, and marks tiny images too', async () => {
    const clear = await sharp({
      create: { ...size, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer()
    const marked = await stampTestImage(clear, 'png')
    const { data } = await sharp(marked).raw().toBuffer({ resolveWithObject: true })
    expect(data[3]).toBe(0) // the corner
    let drawn = 0
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) drawn++
    expect(drawn).toBeGreaterThan(8000)
    const tiny = await sharp({ create: { width: 3, height: 2, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer()
    expect((await sharp(await stampTestImage(tiny, 'png')).metadata()).width).toBe(3)
  })
})
