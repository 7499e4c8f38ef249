import { type PDFDict, PDFName } from '@cantoo/pdf-lib'
import { differences } from './encoding-differences.ts'
import { glyphNameToUnicode } from './glyph-list.ts'
import type { FontInfo } from './glyph-objects.ts'
import type { Values } from './pdf-values.ts'
import { type CmapSubtable, readTrueType } from './truetype-program.ts'

// The glyphs of a simple TrueType font (ISO 32000-1 9.6.6.4): which glyph of the embedded program a
// one-byte code selects through the program's cmap, and the code's Unicode value (ISO 32000-1
// 9.10.2: the ToUnicode CMap, else the glyph name of a MacRoman or WinAnsi based encoding through
// the Adobe Glyph List). Where neither the PDF nor the program settles a code (no embedded program,
// no usable cmap, an encoding we do not know), the code reads as "cannot tell" and the font's
// glyphs are left unmodelled rather than guessed.

const DECODERS: Record<string, InstanceType<typeof TextDecoder>> = {
  WinAnsiEncoding: new TextDecoder('windows-1252'),
  MacRomanEncoding: new TextDecoder('macintosh'),
}

// codes the two encodings leave without a glyph name (ISO 32000-1 Annex D)
const UNNAMED: Record<string, (code: number) => boolean> = {
  WinAnsiEncoding: (code) => code < 0x20 || [0x7f, 0x81, 0x8d, 0x8f, 0x90, 0x9d].includes(code),
  MacRomanEncoding: (code) => code < 0x20 || code === 0x7f,
}

export function simpleTrueTypeInfo(
  v: Values,
  font: PDFDict,
  toUnicodeMap: Map<number, string> | undefined,
  label: string,
): FontInfo {
  const descriptor = v.dict(font, 'FontDescriptor')
  const file = v.stream(descriptor, 'FontFile2')
  const bytes = file ? v.decoded(file) : undefined
  const program = bytes ? readTrueType(bytes) : undefined
  const symbolic = ((v.number(descriptor, 'Flags') ?? 0) & 4) !== 0
  const encoding = v.get(font, 'Encoding')
  const encodingDict = encoding instanceof PDFName ? undefined : v.dict(font, 'Encoding')
  const base = encoding instanceof PDFName ? encoding.decodeText() : v.name(encodingDict, 'BaseEncoding')
  const names = differences(v, encodingDict)
  const decoder = base ? DECODERS[base] : undefined
  const unnamed = base ? UNNAMED[base] : undefined

  /** the code's Unicode value by its encoding's glyph name; null: none; undefined: cannot tell */
  const byName = (code: number): string | null | undefined => {
    const name = names.get(code)
    if (name !== undefined) return glyphNameToUnicode(name) ?? null
    if (symbolic) return null
    if (!decoder || !unnamed) return undefined
    return unnamed(code) ? null : decoder.decode(Uint8Array.of(code))
  }
  const find = (platform: number, enc: number): CmapSubtable | undefined =>
    program?.cmaps?.find((c) => c.platform === platform && c.encoding === enc)
  const microsoftSymbol = find(3, 0)
  const microsoftUnicode = find(3, 1)
  const mac = find(1, 0)

  /** the glyph id a code selects (ISO 32000-1 9.6.6.4); undefined when the program cannot say */
  const glyphId = (code: number): number | undefined => {
    if (!program?.cmaps) return undefined
    if (symbolic) {
      if (microsoftSymbol) {
        for (const offset of [0, 0xf000, 0xf100, 0xf200]) {
          const gid = microsoftSymbol.glyph(code + offset)
          if (gid) return gid
        }
        return 0
      }
      return mac ? mac.glyph(code) : undefined
    }
    const text = byName(code)
    if (microsoftUnicode && typeof text === 'string') return microsoftUnicode.glyph(text.codePointAt(0)!)
    // a name the AGL does not know can still be found in the Macintosh table by its code
    return mac ? mac.glyph(code) : undefined
  }

  return {
    modelled: true,
    codeBytes: 1,
    unicode: (code) => {
      const mapped = toUnicodeMap?.get(code)
      if (mapped !== undefined) return mapped
      return byName(code)
    },
    glyph: (code) => {
      const gid = glyphId(code)
      if (gid === undefined) return undefined
      // glyph 0 of a TrueType program is its .notdef glyph
      return { name: gid === 0 ? '.notdef' : `gid${gid}`, id: `GID ${gid}` }
    },
    label,
  }
}
