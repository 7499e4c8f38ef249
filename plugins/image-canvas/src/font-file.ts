// The few tables of a TrueType/OpenType font that text layout needs: names, style, vertical
// metrics, the character map and advance widths. resvg draws the text; we only measure it, so
// shaping (kerning, ligatures) is left out: widths come out a little wider, never narrower.

export interface FontFace {
  file: string
  family: string
  weight: number
  italic: boolean
  unitsPerEm: number
  ascender: number
  descender: number
  /** advance width in font units of a code point, or undefined when the font lacks the glyph */
  advance(codePoint: number): number | undefined
}

interface Tables {
  view: DataView
  offsets: Map<string, number>
}

function readTables(bytes: Buffer): Tables {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const count = view.getUint16(4)
  const offsets = new Map<string, number>()
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16
    const tag = String.fromCharCode(
      view.getUint8(at),
      view.getUint8(at + 1),
      view.getUint8(at + 2),
      view.getUint8(at + 3),
    )
    offsets.set(tag, view.getUint32(at + 8))
  }
  return { view, offsets }
}

function table(t: Tables, tag: string): number {
  const at = t.offsets.get(tag)
  if (at === undefined) throw new Error(`font has no ${tag} table`)
  return at
}

/** Preferred family (name id 16) before the legacy family (id 1), English/Windows first. */
function familyName(t: Tables): string {
  const base = table(t, 'name')
  const { view } = t
  const count = view.getUint16(base + 2)
  const strings = base + view.getUint16(base + 4)
  let best: { score: number; value: string } | undefined
  for (let i = 0; i < count; i++) {
    const at = base + 6 + i * 12
    const platform = view.getUint16(at)
    const language = view.getUint16(at + 4)
    const nameId = view.getUint16(at + 6)
    if (nameId !== 1 && nameId !== 16) continue
    const length = view.getUint16(at + 8)
    const start = strings + view.getUint16(at + 10)
    let value = ''
    if (platform === 3 || platform === 0) {
      for (let j = 0; j + 1 < length; j += 2) value += String.fromCharCode(view.getUint16(start + j))
    } else if (platform === 1) {
      for (let j = 0; j < length; j++) value += String.fromCharCode(view.getUint8(start + j))
    } else continue
    const english = platform !== 3 || language === 0x409
    const score = (nameId === 16 ? 4 : 0) + (english ? 2 : 0) + (platform === 3 ? 1 : 0)
    if (!best || score > best.score) best = { score, value }
  }
  if (!best) throw new Error('font has no family name')
  return best.value
}

/** Maps code points to glyph ids from a format 4 (BMP) or format 12 (full Unicode) subtable. */
function glyphLookup(t: Tables): (codePoint: number) => number {
  const base = table(t, 'cmap')
  const { view } = t
  const count = view.getUint16(base + 2)
  let format4: number | undefined
  let format12: number | undefined
  for (let i = 0; i < count; i++) {
    const at = base + 4 + i * 8
    const platform = view.getUint16(at)
    const encoding = view.getUint16(at + 2)
    const sub = base + view.getUint32(at + 4)
    const format = view.getUint16(sub)
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10))
    if (!unicode) continue
    if (format === 12) format12 = sub
    if (format === 4) format4 = sub
  }
  if (format12 !== undefined) {
    const sub = format12
    const groups = view.getUint32(sub + 12)
    return (cp) => {
      let lo = 0
      let hi = groups - 1
      while (lo <= hi) {
        const mid = (lo + hi) >> 1
        const at = sub + 16 + mid * 12
        const start = view.getUint32(at)
        const end = view.getUint32(at + 4)
        if (cp < start) hi = mid - 1
        else if (cp > end) lo = mid + 1
        else return view.getUint32(at + 8) + (cp - start)
      }
      return 0
    }
  }
  if (format4 === undefined) throw new Error('font has no Unicode character map')
  const sub = format4
  const segments = view.getUint16(sub + 6) / 2
  const ends = sub + 14
  const starts = ends + segments * 2 + 2
  const deltas = starts + segments * 2
  const rangeOffsets = deltas + segments * 2
  return (cp) => {
    if (cp > 0xffff) return 0
    for (let s = 0; s < segments; s++) {
      if (cp > view.getUint16(ends + s * 2)) continue
      const start = view.getUint16(starts + s * 2)
      if (cp < start) return 0
      const delta = view.getInt16(deltas + s * 2)
      const rangeOffset = view.getUint16(rangeOffsets + s * 2)
      if (rangeOffset === 0) return (cp + delta) & 0xffff
      const glyph = view.getUint16(rangeOffsets + s * 2 + rangeOffset + (cp - start) * 2)
      return glyph === 0 ? 0 : (glyph + delta) & 0xffff
    }
    return 0
  }
}

/** Glyph id of a code point (0 when the font lacks it), straight from the font's bytes. */
export function glyphIds(bytes: Buffer): (codePoint: number) => number {
  return glyphLookup(readTables(bytes))
}

/** Offset and length of each table by tag. */
export function tableDirectory(bytes: Buffer): Map<string, { offset: number; length: number }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const directory = new Map<string, { offset: number; length: number }>()
  for (let i = 0; i < view.getUint16(4); i++) {
    const at = 12 + i * 16
    directory.set(bytes.toString('latin1', at, at + 4), {
      offset: view.getUint32(at + 8),
      length: view.getUint32(at + 12),
    })
  }
  return directory
}

/** Parses a .ttf/.otf file (single font, not a collection). Throws on anything else. */
export function parseFontFile(file: string, bytes: Buffer): FontFace {
  const t = readTables(bytes)
  const { view } = t
  const head = table(t, 'head')
  const hhea = table(t, 'hhea')
  const hmtx = table(t, 'hmtx')
  const unitsPerEm = view.getUint16(head + 18)
  const macStyle = view.getUint16(head + 44)
  const metricsCount = view.getUint16(hhea + 34)
  const os2 = t.offsets.get('OS/2')
  const weight = os2 !== undefined ? view.getUint16(os2 + 4) : macStyle & 1 ? 700 : 400
  const italic = os2 !== undefined ? (view.getUint16(os2 + 62) & 0x201) !== 0 : (macStyle & 2) !== 0
  const glyphOf = glyphLookup(t)
  const cache = new Map<number, number | undefined>()
  return {
    file,
    family: familyName(t),
    weight,
    italic,
    unitsPerEm,
    ascender: view.getInt16(hhea + 4),
    descender: view.getInt16(hhea + 6),
    advance(cp) {
      if (cache.has(cp)) return cache.get(cp)
      const glyph = glyphOf(cp)
      const value = glyph === 0 ? undefined : view.getUint16(hmtx + Math.min(glyph, metricsCount - 1) * 4)
      cache.set(cp, value)
      return value
    },
  }
}
