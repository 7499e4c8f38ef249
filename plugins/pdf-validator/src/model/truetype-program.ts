// Just enough of a TrueType font program (the OpenType spec's table directory and `cmap` formats
// 0, 4, 6 and 12) to answer what the PDF rules ask: which (platform, encoding) cmap subtables it
// has, and which glyph a character code selects through one of them. Every offset is bounds-checked:
// the program is untrusted bytes, and a table that does not fit reads as absent.

export interface CmapSubtable {
  platform: number
  encoding: number
  /** the glyph id the code selects, 0 (the .notdef glyph) when none */
  glyph: (code: number) => number
}

export interface TrueTypeProgram {
  /** the cmap subtables; undefined when the program has no readable cmap table */
  cmaps: CmapSubtable[] | undefined
  /** glyph ids whose outline has data (loca/glyf); undefined without readable head/maxp/loca */
  outlined: Set<number> | undefined
}

/** The program's tables (tag to offset and length) from its table directory. */
function tableDirectory(bytes: Uint8Array, view: DataView): Map<string, { offset: number; length: number }> {
  const tables = new Map<string, { offset: number; length: number }>()
  const count = view.getUint16(4)
  for (let i = 0; i < count && 12 + 16 * (i + 1) <= bytes.length; i++) {
    const at = 12 + 16 * i
    const offset = view.getUint32(at + 8)
    const length = view.getUint32(at + 12)
    if (offset + length <= bytes.length)
      tables.set(String.fromCharCode(...bytes.subarray(at, at + 4)), { offset, length })
  }
  return tables
}

/** The program's cmap subtables and outlined glyphs; undefined when the bytes are no table directory. */
export function readTrueType(bytes: Uint8Array): TrueTypeProgram | undefined {
  if (bytes.length < 12) return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const tables = tableDirectory(bytes, view)
  return { cmaps: cmapSubtables(bytes, view, tables.get('cmap')), outlined: outlinedGlyphs(view, tables) }
}

function cmapSubtables(
  bytes: Uint8Array,
  view: DataView,
  cmap: { offset: number; length: number } | undefined,
): CmapSubtable[] | undefined {
  if (!cmap || cmap.length < 4) return undefined
  const count = view.getUint16(cmap.offset + 2)
  const cmaps: CmapSubtable[] = []
  for (let k = 0; k < count && cmap.offset + 4 + 8 * (k + 1) <= bytes.length; k++) {
    const record = cmap.offset + 4 + 8 * k
    cmaps.push({
      platform: view.getUint16(record),
      encoding: view.getUint16(record + 2),
      glyph: subtableLookup(view, cmap.offset + view.getUint32(record + 4)),
    })
  }
  return cmaps
}

/** Glyph ids whose `loca` entry spans data in `glyf` (an empty glyph, like a space, has none). */
function outlinedGlyphs(
  view: DataView,
  tables: Map<string, { offset: number; length: number }>,
): Set<number> | undefined {
  const head = tables.get('head')
  const maxp = tables.get('maxp')
  const loca = tables.get('loca')
  if (!head || head.length < 54 || !maxp || maxp.length < 6 || !loca) return undefined
  const long = view.getInt16(head.offset + 50) === 1
  const glyphs = view.getUint16(maxp.offset + 4)
  if ((glyphs + 1) * (long ? 4 : 2) > loca.length) return undefined
  const at = (i: number) =>
    long ? view.getUint32(loca.offset + 4 * i) : 2 * view.getUint16(loca.offset + 2 * i)
  const out = new Set<number>()
  for (let i = 0; i < glyphs; i++) if (at(i + 1) > at(i)) out.add(i)
  return out
}

const NONE = () => 0

/** The code-to-glyph lookup of the subtable at `start`; formats not read select no glyph. */
function subtableLookup(view: DataView, start: number): (code: number) => number {
  const size = view.byteLength
  const u16 = (at: number) => (at + 2 <= size ? view.getUint16(at) : 0)
  const u32 = (at: number) => (at + 4 <= size ? view.getUint32(at) : 0)
  if (start + 2 > size) return NONE
  const format = u16(start)
  if (format === 0)
    return (code) => (code < 256 && start + 6 + code < size ? view.getUint8(start + 6 + code) : 0)
  if (format === 6) {
    const first = u16(start + 6)
    const count = u16(start + 8)
    return (code) => (code >= first && code < first + count ? u16(start + 10 + 2 * (code - first)) : 0)
  }
  if (format === 4) {
    const segments = u16(start + 6) >> 1
    const ends = start + 14
    const starts = ends + 2 * segments + 2
    const deltas = starts + 2 * segments
    const ranges = deltas + 2 * segments
    return (code) => {
      for (let s = 0; s < segments; s++) {
        if (code > u16(ends + 2 * s)) continue
        const first = u16(starts + 2 * s)
        if (code < first) return 0
        const delta = u16(deltas + 2 * s)
        const range = u16(ranges + 2 * s)
        if (range === 0) return (code + delta) & 0xffff
        const glyph = u16(ranges + 2 * s + range + 2 * (code - first))
        return glyph === 0 ? 0 : (glyph + delta) & 0xffff
      }
      return 0
    }
  }
  if (format === 12) {
    const groups = u32(start + 12)
    return (code) => {
      for (let g = 0; g < groups && start + 16 + 12 * (g + 1) <= size; g++) {
        const at = start + 16 + 12 * g
        if (code >= u32(at) && code <= u32(at + 4)) return u32(at + 8) + code - u32(at)
      }
      return 0
    }
  }
  return NONE
}
