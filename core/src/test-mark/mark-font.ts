import { existsSync, readFileSync } from 'node:fs'
import { TEST_MARK } from './test-mark-look.ts'

// The TEST mark is drawn in a real font embedded in every marked PDF (PDF/A forbids unembedded
// fonts, the 14 standard ones included). A subset holding only the mark's letters is cut once per
// process from a bold face installed with the service (the image installs fonts-dejavu-core):
// a few KB to embed, no font library to load.

/** Bold sans faces to cut the mark's letters from, first found wins. */
export const MARK_FONT_FILES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
]

export interface MarkFont {
  /** a TrueType font whose glyph 1.. are the distinct letters of the word, in `letters` order */
  bytes: Buffer
  /** PostScript name of the source face */
  name: string
  letters: string[]
  /** advance widths of glyph 0.., in 1/1000 em */
  widths: number[]
  /** outlines of glyph 0.. as SVG path data, in 1/1000 em with y up (images draw these) */
  outlines: string[]
  /** in 1/1000 em */
  bbox: [number, number, number, number]
  ascent: number
  descent: number
  capHeight: number
}

let cached: MarkFont | undefined

/** The mark's font, cut on first use; throws when no face of MARK_FONT_FILES is installed. */
export function markFont(): MarkFont {
  if (cached) return cached
  const file = MARK_FONT_FILES.find((f) => existsSync(f))
  if (!file) throw new Error(`no font for the TEST mark: none of ${MARK_FONT_FILES.join(', ')} is installed`)
  cached = subsetFont(readFileSync(file), [...new Set(TEST_MARK.word)])
  return cached
}

/** Glyph ids of the word's letters in `font`, in the order of the word: 1-based into `letters`. */
export function glyphsOf(font: MarkFont, word: string): number[] {
  return [...word].map((c) => font.letters.indexOf(c) + 1)
}

interface Table {
  offset: number
  length: number
}

/** A TrueType font cut down to .notdef and `letters` (simple glyphs only, hinting kept). */
export function subsetFont(source: Buffer, letters: string[]): MarkFont {
  const tables = new Map<string, Table>()
  const count = source.readUInt16BE(4)
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16
    tables.set(source.toString('latin1', at, at + 4), {
      offset: source.readUInt32BE(at + 8),
      length: source.readUInt32BE(at + 12),
    })
  }
  const need = (tag: string): Table => {
    const t = tables.get(tag)
    if (!t) throw new Error(`the mark's font has no ${tag} table`)
    return t
  }
  const slice = (tag: string) => {
    const t = need(tag)
    return Buffer.from(source.subarray(t.offset, t.offset + t.length))
  }
  const head = slice('head')
  const unitsPerEm = head.readUInt16BE(18)
  const longLoca = head.readInt16BE(50) === 1
  const hhea = slice('hhea')
  const hMetrics = hhea.readUInt16BE(34)
  const hmtx = need('hmtx').offset
  const loca = need('loca').offset
  const glyf = need('glyf').offset
  const glyphAt = (gid: number) => {
    const start = longLoca ? source.readUInt32BE(loca + gid * 4) : source.readUInt16BE(loca + gid * 2) * 2
    const end = longLoca
      ? source.readUInt32BE(loca + gid * 4 + 4)
      : source.readUInt16BE(loca + gid * 2 + 2) * 2
    const data = source.subarray(glyf + start, glyf + end)
    // composite glyphs would need their parts: the faces of MARK_FONT_FILES draw these letters whole
    if (data.length > 0 && data.readInt16BE(0) < 0) throw new Error('the mark letters are composite glyphs')
    return data
  }
  const metricsOf = (gid: number) => {
    const m = Math.min(gid, hMetrics - 1)
    const advance = source.readUInt16BE(hmtx + m * 4)
    const lsb =
      gid < hMetrics
        ? source.readInt16BE(hmtx + gid * 4 + 2)
        : source.readInt16BE(hmtx + hMetrics * 4 + (gid - hMetrics) * 2)
    return { advance, lsb }
  }
  const gids = [0, ...letters.map((l) => cmapLookup(source, need('cmap').offset, l.codePointAt(0) as number))]

  const glyphs = gids.map(glyphAt)
  const newGlyf = Buffer.concat(glyphs.map((g) => pad4(g)))
  const newLoca = Buffer.alloc((gids.length + 1) * 4)
  let at = 0
  glyphs.forEach((g, i) => {
    newLoca.writeUInt32BE(at, i * 4)
    at += pad4(g).length
  })
  newLoca.writeUInt32BE(at, gids.length * 4)
  const metrics = gids.map(metricsOf)
  const newHmtx = Buffer.alloc(gids.length * 4)
  metrics.forEach((m, i) => {
    newHmtx.writeUInt16BE(m.advance, i * 4)
    newHmtx.writeInt16BE(m.lsb, i * 4 + 2)
  })
  head.writeUInt32BE(0, 8) // checkSumAdjustment, set below
  head.writeInt16BE(1, 50) // long loca offsets
  hhea.writeUInt16BE(gids.length, 34)
  const maxp = slice('maxp')
  maxp.writeUInt16BE(gids.length, 4)
  const post = slice('post').subarray(0, 32)
  post.writeUInt32BE(0x00030000, 0) // no glyph names
  const out: [string, Buffer][] = [
    ['OS/2', slice('OS/2')],
    ['cmap', unicodeCmap(letters)],
    ['glyf', newGlyf],
    ['head', head],
    ['hhea', hhea],
    ['hmtx', newHmtx],
    ['loca', newLoca],
    ['maxp', maxp],
    ['post', post],
  ]
  // the glyph programs call the face's hinting functions: those tables go along whole
  for (const tag of ['cvt ', 'fpgm', 'prep']) if (tables.has(tag)) out.push([tag, slice(tag)])
  out.sort(([a], [b]) => (a < b ? -1 : 1))
  const bytes = assemble(out)

  const em = (v: number) => Math.round((v * 1000) / unitsPerEm)
  const os2 = slice('OS/2')
  // sCapHeight exists from OS/2 version 2
  const capHeight = os2.readUInt16BE(0) >= 2 ? os2.readInt16BE(88) : Math.round(unitsPerEm * 0.73)
  return {
    bytes,
    name: postScriptName(source, need('name').offset) ?? 'TestMarkSans-Bold',
    letters,
    widths: metrics.map((m) => em(m.advance)),
    outlines: glyphs.map((g) => outlinePath(g, 1000 / unitsPerEm)),
    bbox: [
      em(head.readInt16BE(36)),
      em(head.readInt16BE(38)),
      em(head.readInt16BE(40)),
      em(head.readInt16BE(42)),
    ],
    ascent: em(hhea.readInt16BE(4)),
    descent: em(hhea.readInt16BE(6)),
    capHeight: em(capHeight),
  }
}

function pad4(b: Buffer): Buffer {
  return b.length % 4 === 0 ? b : Buffer.concat([b, Buffer.alloc(4 - (b.length % 4))])
}

/** The glyph of a code point by the face's Windows Unicode BMP map (format 4). */
function cmapLookup(font: Buffer, cmap: number, cp: number): number {
  const count = font.readUInt16BE(cmap + 2)
  for (let i = 0; i < count; i++) {
    const rec = cmap + 4 + i * 8
    if (font.readUInt16BE(rec) !== 3 || font.readUInt16BE(rec + 2) !== 1) continue
    const sub = cmap + font.readUInt32BE(rec + 4)
    if (font.readUInt16BE(sub) !== 4) continue
    const segs = font.readUInt16BE(sub + 6) / 2
    const ends = sub + 14
    const starts = ends + segs * 2 + 2
    const deltas = starts + segs * 2
    const ranges = deltas + segs * 2
    for (let s = 0; s < segs; s++) {
      if (font.readUInt16BE(ends + s * 2) < cp) continue
      const start = font.readUInt16BE(starts + s * 2)
      if (start > cp) break
      const delta = font.readInt16BE(deltas + s * 2)
      const range = font.readUInt16BE(ranges + s * 2)
      if (range === 0) return (cp + delta) & 0xffff
      const gid = font.readUInt16BE(ranges + s * 2 + range + (cp - start) * 2)
      return gid === 0 ? 0 : (gid + delta) & 0xffff
    }
  }
  throw new Error(`the mark's font has no glyph for U+${cp.toString(16)}`)
}

/** A (3,1) format 4 map of each letter to its glyph 1.., so viewers that look it up find it. */
function unicodeCmap(letters: string[]): Buffer {
  const pairs = letters
    .map((l, i) => [l.codePointAt(0) as number, i + 1] as const)
    .sort((a, b) => a[0] - b[0])
  const segs = pairs.length + 1
  const sub = Buffer.alloc(16 + segs * 8)
  sub.writeUInt16BE(4, 0)
  sub.writeUInt16BE(sub.length, 2)
  sub.writeUInt16BE(segs * 2, 6)
  const power = 2 ** Math.floor(Math.log2(segs))
  sub.writeUInt16BE(power * 2, 8)
  sub.writeUInt16BE(Math.log2(power), 10)
  sub.writeUInt16BE(segs * 2 - power * 2, 12)
  const ends = 14
  const starts = ends + segs * 2 + 2
  const deltas = starts + segs * 2
  pairs.forEach(([cp, gid], s) => {
    sub.writeUInt16BE(cp, ends + s * 2)
    sub.writeUInt16BE(cp, starts + s * 2)
    sub.writeUInt16BE((gid - cp) & 0xffff, deltas + s * 2)
  })
  const last = segs - 1
  sub.writeUInt16BE(0xffff, ends + last * 2)
  sub.writeUInt16BE(0xffff, starts + last * 2)
  sub.writeUInt16BE(1, deltas + last * 2)
  const header = Buffer.alloc(12)
  header.writeUInt16BE(1, 2)
  header.writeUInt16BE(3, 4)
  header.writeUInt16BE(1, 6)
  header.writeUInt32BE(12, 8)
  return Buffer.concat([header, sub])
}

function checksum(b: Buffer): number {
  const padded = pad4(b)
  let sum = 0
  for (let i = 0; i < padded.length; i += 4) sum = (sum + padded.readUInt32BE(i)) >>> 0
  return sum
}

/** An sfnt file of the tables, sorted by tag, with their checksums and head's adjustment. */
function assemble(tables: [string, Buffer][]): Buffer {
  const n = tables.length
  const power = 2 ** Math.floor(Math.log2(n))
  const dir = Buffer.alloc(12 + n * 16)
  dir.writeUInt32BE(0x00010000, 0)
  dir.writeUInt16BE(n, 4)
  dir.writeUInt16BE(power * 16, 6)
  dir.writeUInt16BE(Math.log2(power), 8)
  dir.writeUInt16BE(n * 16 - power * 16, 10)
  let offset = dir.length
  const bodies: Buffer[] = []
  tables.forEach(([tag, data], i) => {
    const at = 12 + i * 16
    dir.write(tag, at, 'latin1')
    dir.writeUInt32BE(checksum(data), at + 4)
    dir.writeUInt32BE(offset, at + 8)
    dir.writeUInt32BE(data.length, at + 12)
    bodies.push(pad4(data))
    offset += pad4(data).length
  })
  const file = Buffer.concat([dir, ...bodies])
  const headAt = dir.readUInt32BE(12 + tables.findIndex(([t]) => t === 'head') * 16 + 8)
  file.writeUInt32BE((0xb1b0afba - checksum(file)) >>> 0, headAt + 8)
  return file
}

/** Name id 6 (PostScript name) of the face, from a Macintosh Roman record. */
function postScriptName(font: Buffer, name: number): string | undefined {
  const count = font.readUInt16BE(name + 2)
  const strings = name + font.readUInt16BE(name + 4)
  for (let i = 0; i < count; i++) {
    const rec = name + 6 + i * 12
    if (font.readUInt16BE(rec) !== 1 || font.readUInt16BE(rec + 6) !== 6) continue
    const start = strings + font.readUInt16BE(rec + 10)
    return font.toString('latin1', start, start + font.readUInt16BE(rec + 8)).replace(/[^\x21-\x7e]/g, '')
  }
  return undefined
}

/** A simple glyph's contours as SVG path data (quadratic curves), scaled by `scale`. */
function outlinePath(glyph: Buffer, scale: number): string {
  if (glyph.length === 0) return ''
  const contours = glyph.readInt16BE(0)
  const ends: number[] = []
  for (let i = 0; i < contours; i++) ends.push(glyph.readUInt16BE(10 + i * 2))
  const count = (ends.at(-1) ?? -1) + 1
  let at = 10 + contours * 2
  at += 2 + glyph.readUInt16BE(at) // instructions
  const flags: number[] = []
  while (flags.length < count) {
    const flag = glyph.readUInt8(at++)
    flags.push(flag)
    if (flag & 8) for (let r = glyph.readUInt8(at++); r > 0; r--) flags.push(flag)
  }
  const coords = (short: number, same: number) => {
    const values: number[] = []
    let v = 0
    for (const flag of flags) {
      if (flag & short) v += (flag & same ? 1 : -1) * glyph.readUInt8(at++)
      else if (!(flag & same)) {
        v += glyph.readInt16BE(at)
        at += 2
      }
      values.push(v)
    }
    return values
  }
  const xs = coords(2, 16)
  const ys = coords(4, 32)
  const n = (v: number) => Number((v * scale).toFixed(1)).toString()
  const pt = (x: number, y: number) => `${n(x)} ${n(y)}`
  let d = ''
  let first = 0
  for (const last of ends) {
    const points = []
    for (let i = first; i <= last; i++) points.push({ x: xs[i]!, y: ys[i]!, on: (flags[i]! & 1) === 1 })
    first = last + 1
    if (points.length === 0) continue
    // start on a point on the curve: the first, the last, or the midpoint of the two
    const p0 = points[0]!
    const pl = points.at(-1)!
    const start = p0.on ? p0 : pl.on ? pl : { x: (p0.x + pl.x) / 2, y: (p0.y + pl.y) / 2, on: true }
    const rest = p0.on ? points.slice(1) : pl.on ? points.slice(0, -1) : points
    d += `M${pt(start.x, start.y)}`
    let control: { x: number; y: number } | undefined
    for (const p of [...rest, start]) {
      if (p.on) {
        d += control ? `Q${pt(control.x, control.y)} ${pt(p.x, p.y)}` : `L${pt(p.x, p.y)}`
        control = undefined
      } else {
        if (control) {
          const mid = { x: (control.x + p.x) / 2, y: (control.y + p.y) / 2 }
          d += `Q${pt(control.x, control.y)} ${pt(mid.x, mid.y)}`
        }
        control = p
      }
    }
    d += 'Z'
  }
  return d
}
