import { decodePDFRawStream, PDFDict, type PDFPage, PDFRawStream } from '@cantoo/pdf-lib'
import { contentOperators } from './content-operators.ts'
import { pageContent } from './page-content.ts'
import { name } from './structure-tree.ts'
import { decodeShown, parseToUnicode, type ToUnicode } from './to-unicode.ts'

// The text shown inside given marked-content sequences (by MCID) of a page, read through each
// font's ToUnicode CMap: what a link says, for its /Contents. A font without a ToUnicode CMap
// gives no text (its codes cannot be read as characters), so the caller falls back.

const LITERAL_ESCAPES: Record<number, number> = {
  110: 0x0a,
  114: 0x0d,
  116: 0x09,
  98: 0x08,
  102: 0x0c,
}

/** the strings among an operator's operands (Tj, TJ, ', "), as bytes */
export function shownStrings(bytes: Uint8Array, start: number, end: number): Buffer[] {
  const out: Buffer[] = []
  let i = start
  while (i < end) {
    const byte = bytes[i]
    if (byte === 0x28) {
      const chars: number[] = []
      let depth = 1
      i++
      while (i < end && depth > 0) {
        const c = bytes[i]!
        if (c === 0x5c) {
          const next = bytes[++i]!
          if (next >= 0x30 && next <= 0x37) {
            let octal = ''
            while (octal.length < 3 && bytes[i]! >= 0x30 && bytes[i]! <= 0x37)
              octal += String.fromCharCode(bytes[i++]!)
            chars.push(Number.parseInt(octal, 8) & 0xff)
            continue
          }
          if (next === 0x0d || next === 0x0a) {
            // a line continuation
            if (next === 0x0d && bytes[i + 1] === 0x0a) i++
          } else chars.push(LITERAL_ESCAPES[next] ?? next)
        } else if (c === 0x28) {
          depth++
          chars.push(c)
        } else if (c === 0x29) {
          if (--depth > 0) chars.push(c)
        } else chars.push(c)
        i++
      }
      out.push(Buffer.from(chars))
    } else if (byte === 0x3c) {
      const close = bytes.indexOf(0x3e, i)
      const hex = Buffer.from(bytes.subarray(i + 1, close))
        .toString('latin1')
        .replace(/\s+/g, '')
      out.push(Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex'))
      i = close + 1
    } else i++
  }
  return out
}

/** parsed CMaps by their stream: pages share fonts, and a CMap is parsed once */
const parsed = new WeakMap<PDFRawStream, ToUnicode>()

function fontToUnicode(
  page: PDFPage,
  fontName: string,
  cache: Map<string, ToUnicode | undefined>,
): ToUnicode | undefined {
  if (cache.has(fontName)) return cache.get(fontName)
  let found: ToUnicode | undefined
  try {
    const fonts = page.node.Resources()?.lookup(name('Font'))
    const font = fonts instanceof PDFDict ? fonts.lookup(name(fontName)) : undefined
    const stream = font instanceof PDFDict ? font.lookup(name('ToUnicode')) : undefined
    if (stream instanceof PDFRawStream) {
      found =
        parsed.get(stream) ??
        parseToUnicode(Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1'))
      parsed.set(stream, found)
    }
  } catch {
    found = undefined
  }
  cache.set(fontName, found)
  return found
}

/** MCID → the text shown in its sequence on the page, for the MCIDs asked for */
export function markedTexts(page: PDFPage, wanted: ReadonlySet<number>): Map<number, string> {
  const texts = new Map<number, string>()
  const content = pageContent(page)
  if (!content) return texts
  const fonts = new Map<string, ToUnicode | undefined>()
  const stack: (number | undefined)[] = []
  let font: ToUnicode | undefined
  for (const { op, start, end } of contentOperators(content)) {
    if (op === 'BDC') {
      const operands = content.subarray(start, end).toString('latin1')
      const mcid = /\/MCID\s+(\d+)/.exec(operands)?.[1]
      stack.push(mcid === undefined ? undefined : Number(mcid))
    } else if (op === 'BMC') stack.push(undefined)
    else if (op === 'EMC') stack.pop()
    else if (op === 'Tf') {
      const fontName = /\/([^\s/[\]()<>{}%]+)/.exec(content.subarray(start, end).toString('latin1'))?.[1]
      font = fontName ? fontToUnicode(page, fontName, fonts) : undefined
    } else if (op === 'Tj' || op === 'TJ' || op === "'" || op === '"') {
      const mcid = stack.findLast((m) => m !== undefined)
      if (mcid === undefined || !wanted.has(mcid) || !font) continue
      const shown = shownStrings(content, start, end)
      // `"` takes two numbers before its string: only strings are collected anyway
      const text = shown.map((s) => decodeShown(font!, s)).join('')
      texts.set(mcid, (texts.get(mcid) ?? '') + text)
    }
  }
  return texts
}
