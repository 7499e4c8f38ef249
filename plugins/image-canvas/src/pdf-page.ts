import {
  beginText,
  endText,
  PDFDocument,
  type PDFFont,
  type PDFName,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts,
  setCharacterSqueeze,
  setFontAndSize,
  setTextMatrix,
  setTextRenderingMode,
  showText,
  TextRenderingMode,
} from '@cantoo/pdf-lib'
import type { TextRun } from './layer-context.ts'

const POINTS_PER_CSS_PIXEL = 72 / 96

/**
 * One page the size of the canvas with the picture over all of it, and the text lines again as
 * invisible text at the same places (what OCR'd scans do), so the PDF can be searched and its
 * text extracted. Runs are in CSS pixels of the page. Helvetica stretched to each line's width
 * stands in for the drawn font; characters it cannot encode (outside WinAnsi) are spaces there.
 */
export async function rasterPdf(
  png: Uint8Array,
  page: { width: number; height: number },
  runs: TextRun[],
): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const picture = await doc.embedPng(png)
  const width = page.width * POINTS_PER_CSS_PIXEL
  const height = page.height * POINTS_PER_CSS_PIXEL
  const pdfPage = doc.addPage([width, height])
  pdfPage.drawImage(picture, { x: 0, y: 0, width, height })
  if (runs.length > 0) {
    const font = await doc.embedFont(StandardFonts.Helvetica)
    const key = pdfPage.node.newFontDictionary(font.name, font.ref)
    const charset = new Set(font.getCharacterSet())
    for (const run of runs) {
      const operators = invisibleLine({ font, key, charset }, run, height)
      if (operators) pdfPage.pushOperators(...operators)
    }
  }
  return doc.save()
}

interface PageFont {
  font: PDFFont
  key: PDFName
  /** code points the font can encode */
  charset: Set<number>
}

function invisibleLine({ font, key, charset }: PageFont, run: TextRun, pageHeight: number) {
  // characters Helvetica cannot encode become spaces: the rest of the line stays findable
  const text = Array.from(run.text, (char) => (charset.has(char.codePointAt(0) as number) ? char : ' ')).join(
    '',
  )
  if (text.trim() === '') return undefined
  const encoded = font.encodeText(text)
  const size = run.size * POINTS_PER_CSS_PIXEL
  const natural = font.widthOfTextAtSize(text, size)
  if (natural <= 0) return undefined
  return [
    pushGraphicsState(),
    beginText(),
    setFontAndSize(key, size),
    setTextRenderingMode(TextRenderingMode.Invisible),
    setCharacterSqueeze((100 * run.width * POINTS_PER_CSS_PIXEL) / natural),
    setTextMatrix(1, 0, 0, 1, run.x * POINTS_PER_CSS_PIXEL, pageHeight - run.baseline * POINTS_PER_CSS_PIXEL),
    showText(encoded),
    endText(),
    popGraphicsState(),
  ]
}
