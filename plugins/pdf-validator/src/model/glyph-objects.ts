import { PDFDict, PDFName, PDFRawStream } from '@cantoo/pdf-lib'
import { isName, type Operand } from './content-stream.ts'
import { differences } from './encoding-differences.ts'
import type { ModelObject, ModelTypes } from './model-object.ts'
import type { PageUse } from './page-resources.ts'
import type { Values } from './pdf-values.ts'
import { simpleTrueTypeInfo } from './simple-truetype-glyphs.ts'

// The glyphs the text of each page shows (ISO 19005-2 6.2.11.8; ISO 14289-1 7.21.7, 7.21.8): for
// each font and character code, its glyph name as far as .notdef goes, its Unicode value from
// the font's ToUnicode CMap, and the text rendering mode it is drawn with. Modelled for Type 0
// fonts with an Identity CMap and TrueType glyphs, and for Type 3 fonts (what Chromium writes,
// emoji included); glyphs of other fonts are marked unmodelled, which takes the Glyph rules out
// of that document's rulesChecked.

export const GLYPH_TYPES: ModelTypes = {
  Glyph: { props: ['name', 'toUnicode', 'renderingMode'] },
}

export interface FontInfo {
  modelled: boolean
  /** bytes per character code: 2 for Identity CMaps, 1 for simple fonts */
  codeBytes: 1 | 2
  /** a code's Unicode text, null when the font gives none; undefined when the model cannot tell */
  unicode: (code: number) => string | null | undefined
  /** the glyph a code selects: its name (.notdef for none) and a readable id; undefined: cannot tell */
  glyph: (code: number) => { name: string; id: string } | undefined
  label: string
}

interface TextState {
  font: PDFDict | undefined
  tr: number
}

/** glyphs kept per font: one object per distinct code */
const MAX_CODES_PER_FONT = 65_536

export interface GlyphResult {
  objects: ModelObject[]
  /** per font shown: 3 when all its text is invisible (Tr 3), else the first other mode used */
  renderingModes: Map<PDFDict, number>
}

export function glyphObjects(v: Values, use: PageUse, pageResources: (PDFDict | undefined)[]): GlyphResult {
  const out: ModelObject[] = []
  const renderingModes = new Map<PDFDict, number>()
  const fonts = new Map<PDFDict, FontInfo>()
  const seenCodes = new Map<PDFDict, Set<number>>()
  const unmodelledFonts = new Set<PDFDict>()

  const infoOf = (font: PDFDict): FontInfo => {
    const known = fonts.get(font)
    if (known) return known
    const info = fontInfo(v, font)
    fonts.set(font, info)
    return info
  }

  // a page's content streams are one stream cut in pieces (ISO 32000-1 7.8.2): the graphics state
  // stack and the text state carry from one to the next (forms drawn between them have their own)
  let carried: { page: number; state: TextState; stack: TextState[] } | undefined
  for (const c of use.contents) {
    const pageRes = pageResources[c.page - 1]
    const cont = c.isPage && carried?.page === c.page ? carried : undefined
    let state: TextState = cont?.state ?? { font: undefined, tr: 0 }
    const stack: TextState[] = cont?.stack ?? []
    const show = (operand: Operand | undefined) => {
      const font = state.font
      if (!font || !(operand instanceof Uint8Array)) return
      const mode = renderingModes.get(font)
      if (mode === undefined || mode === 3) renderingModes.set(font, state.tr)
      const info = infoOf(font)
      const unmodelled = () => {
        if (unmodelledFonts.has(font)) return
        unmodelledFonts.add(font)
        out.push({ type: 'Glyph', unmodelled: true, page: c.page, context: `${info.label}`, props: {} })
      }
      if (!info.modelled) return unmodelled()
      const codes = seenCodes.get(font) ?? new Set<number>()
      seenCodes.set(font, codes)
      for (let i = 0; i + info.codeBytes - 1 < operand.length; i += info.codeBytes) {
        const code = info.codeBytes === 2 ? (operand[i]! << 8) | operand[i + 1]! : operand[i]!
        // a code seen again with another rendering mode is a different glyph use
        const key = code * 8 + Math.min(state.tr, 7)
        if (codes.has(key) || codes.size >= MAX_CODES_PER_FONT) continue
        codes.add(key)
        const glyph = info.glyph(code)
        const toUnicode = info.unicode(code)
        if (!glyph || toUnicode === undefined) return unmodelled()
        out.push({
          type: 'Glyph',
          page: c.page,
          context: `${info.label} code ${code} (${glyph.id})`,
          props: { name: glyph.name, toUnicode, renderingMode: state.tr },
        })
      }
    }
    for (const { op, operands } of c.ops) {
      if (op === 'q') stack.push(state)
      else if (op === 'Q') state = stack.pop() ?? state
      else if (op === 'Tf' && isName(operands[0])) {
        const name = operands[0].name
        const font = v.dict(v.dict(c.resources, 'Font'), name) ?? v.dict(v.dict(pageRes, 'Font'), name)
        state = { ...state, font }
      } else if (op === 'Tr' && typeof operands[0] === 'number') state = { ...state, tr: operands[0] }
      else if (op === 'Tj' || op === "'") show(operands[0])
      else if (op === '"') show(operands[2])
      else if (op === 'TJ' && Array.isArray(operands[0])) for (const part of operands[0]) show(part)
    }
    if (c.isPage) carried = { page: c.page, state, stack }
  }
  return { objects: out, renderingModes }
}

function fontInfo(v: Values, font: PDFDict): FontInfo {
  const label = `font ${v.name(font, 'BaseFont') ?? v.name(font, 'Name') ?? '?'}`
  const toUnicodeStream = v.stream(font, 'ToUnicode')
  const program = toUnicodeStream ? v.decoded(toUnicodeStream) : undefined
  const toUnicode = program
    ? readToUnicode(Buffer.from(program).toString('latin1'))
    : new Map<number, string>()
  const unicode = (code: number) => toUnicode.get(code) ?? null
  const encoding = v.get(font, 'Encoding')
  const subtype = v.name(font, 'Subtype')
  if (subtype === 'Type3') {
    // a Type 3 glyph is the procedure its Differences name selects in CharProcs
    const names = differences(v, encoding instanceof PDFDict ? encoding : undefined)
    const procs = v.dict(font, 'CharProcs')
    return {
      modelled: true,
      codeBytes: 1,
      unicode,
      glyph: (code) => {
        const name = names.get(code)
        return { name: name && procs && v.has(procs, name) ? name : '.notdef', id: name ?? 'no name' }
      },
      label,
    }
  }
  if (subtype === 'TrueType')
    return simpleTrueTypeInfo(v, font, toUnicodeStream ? toUnicode : undefined, label)
  const identity =
    encoding instanceof PDFName &&
    (encoding.decodeText() === 'Identity-H' || encoding.decodeText() === 'Identity-V')
  const cid = v.items(v.array(font, 'DescendantFonts'))[0]
  if (
    subtype !== 'Type0' ||
    !identity ||
    !(cid instanceof PDFDict) ||
    v.name(cid, 'Subtype') !== 'CIDFontType2'
  ) {
    return { modelled: false, codeBytes: 1, unicode, glyph: () => undefined, label }
  }
  const map = v.get(cid, 'CIDToGIDMap')
  const mapBytes = map instanceof PDFRawStream ? v.decoded(map) : undefined
  const cidToGid = mapBytes
    ? (x: number) => (2 * x + 1 < mapBytes.length ? (mapBytes[2 * x]! << 8) | mapBytes[2 * x + 1]! : 0)
    : (x: number) => x
  return {
    modelled: true,
    codeBytes: 2,
    unicode,
    glyph: (code) => {
      const gid = cidToGid(code)
      // glyph 0 of a TrueType font is its .notdef glyph
      return { name: gid === 0 ? '.notdef' : `gid${gid}`, id: `CID ${code}, GID ${gid}` }
    },
    label,
  }
}

const utf16 = (hex: string) =>
  Buffer.from(hex.length % 4 ? hex.padEnd(hex.length + (4 - (hex.length % 4)), '0') : hex, 'hex')
    .swap16()
    .toString('utf16le')

/** A ToUnicode CMap's bfchar and bfrange mappings (ISO 32000-1 9.10.3), code to text. */
export function readToUnicode(program: string): Map<number, string> {
  const map = new Map<number, string>()
  for (const block of program.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const m of (block[1] ?? '').matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>/g))
      map.set(Number.parseInt(m[1]!, 16), utf16(m[2]!))
  }
  for (const block of program.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const m of (block[1] ?? '').matchAll(
      /<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]*>|\[[^\]]*\])/g,
    )) {
      const lo = Number.parseInt(m[1]!, 16)
      const hi = Math.min(Number.parseInt(m[2]!, 16), lo + 65_535)
      const dst = m[3]!
      if (dst.startsWith('[')) {
        const items = [...dst.matchAll(/<([0-9A-Fa-f]*)>/g)].map((x) => x[1]!)
        for (let code = lo; code <= hi && code - lo < items.length; code++)
          map.set(code, utf16(items[code - lo]!))
      } else {
        const base = dst.slice(1, -1)
        if (base.length < 4) continue
        const head = base.slice(0, -4)
        const last = Number.parseInt(base.slice(-4), 16)
        for (let code = lo; code <= hi; code++)
          map.set(code, utf16(head + (last + code - lo).toString(16).padStart(4, '0').slice(-4)))
      }
    }
  }
  return map
}
