// resvg 2.6 (its fontdb is built without memmap) reads the whole font file again for each run of
// glyphs it shapes or draws: ~110 reads of 700 KB files, 80 MB copied, for the benchmark card.
// It is given instead a copy of the face with the outlines of the Latin scripts only (a third of
// the size), written once. Every other table stays whole, so glyph ids, metrics, kerning
// and shaping are unchanged and text within those scripts draws exactly the same.

import { createHash } from 'node:crypto'
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { glyphIds, tableDirectory } from './font-file.ts'
import { substitutedGlyphs } from './substituted-glyphs.ts'

/** Code points whose outlines the copy keeps. */
const KEPT: [number, number][] = [
  [0x0000, 0x036f], // Latin, IPA, spacing modifiers, combining marks
  [0x1e00, 0x1eff], // Latin extended additional
  [0x2000, 0x214f], // punctuation, super- and subscripts, currency, letterlike symbols
  [0xfb00, 0xfb06], // Latin ligatures
  [0xfffd, 0xfffd], // replacement character
]

/** Tables that draw or shape glyphs outside glyf/loca: such fonts are given whole. */
const UNTRIMMABLE = ['CFF ', 'CFF2', 'COLR', 'SVG ', 'sbix', 'CBDT', 'EBDT', 'morx', 'mort']

/** Whether every character of a text has its outline in the trimmed copies. */
export function trimmedCovers(text: string): boolean {
  for (const char of text) {
    const cp = char.codePointAt(0) as number
    if (cp >= 0x0370 && !KEPT.some(([from, to]) => cp >= from && cp <= to)) return false
  }
  return true
}

/**
 * Copies are named by their content in a folder of this user's alone, shared by its processes:
 * nothing to clean up, and as many files as there are distinct installed faces.
 */
const FOLDER = join(tmpdir(), `docsvc-canvas-fonts-${process.getuid?.() ?? 'all'}`)
/** Copy by font file, null when the font is not trimmed; one per installed face at most. */
const copies = new Map<string, string | null>()

/** The file to give resvg for a face all of whose text trimmedCovers: its copy, else itself. */
export function trimmedFontFile(file: string): string {
  let copy = copies.get(file)
  // a temp cleaner may have removed the copy since
  if (copy === undefined || (copy !== null && !existsSync(copy))) {
    try {
      const trimmed = trimFont(readFileSync(file))
      copy = trimmed ? writeCopy(trimmed) : null
    } catch {
      copy = null
    }
    copies.set(file, copy)
  }
  return copy ?? file
}

function writeCopy(bytes: Buffer): string {
  mkdirSync(FOLDER, { recursive: true, mode: 0o700 })
  const folder = lstatSync(FOLDER)
  // another user's folder (or a link to one) could hold other fonts under the same names
  if (
    !folder.isDirectory() ||
    (folder.mode & 0o077) !== 0 ||
    folder.uid !== (process.getuid?.() ?? folder.uid)
  )
    throw new Error(`${FOLDER} is not this user's own folder`)
  const path = join(FOLDER, `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.ttf`)
  if (!existsSync(path)) {
    // renamed into place whole: another process never reads half a file
    const partial = `${path}.${process.pid}.partial`
    writeFileSync(partial, bytes)
    renameSync(partial, path)
  }
  return path
}

/** The font with the outlines of glyphs outside KEPT emptied, or undefined when it cannot be. */
export function trimFont(bytes: Buffer): Buffer | undefined {
  const tables = tableDirectory(bytes)
  const glyf = tables.get('glyf')
  const loca = tables.get('loca')
  const head = tables.get('head')
  const maxp = tables.get('maxp')
  if (!glyf || !loca || !head || !maxp || UNTRIMMABLE.some((tag) => tables.has(tag))) return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const glyphCount = view.getUint16(maxp.offset + 4)
  const longOffsets = view.getInt16(head.offset + 50) === 1
  const start = (id: number) =>
    longOffsets ? view.getUint32(loca.offset + id * 4) : view.getUint16(loca.offset + id * 2) * 2

  const kept = new Set<number>([0])
  const glyphOf = glyphIds(bytes)
  for (const [from, to] of KEPT) for (let cp = from; cp <= to; cp++) kept.add(glyphOf(cp))
  for (const id of substitutedGlyphs(view, tables.get('GSUB')?.offset)) kept.add(id)
  // composite glyphs are drawn from other glyphs
  const pending = [...kept]
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (id >= glyphCount) continue
    for (const part of components(view, glyf.offset + start(id), start(id + 1) - start(id)))
      if (!kept.has(part)) {
        kept.add(part)
        pending.push(part)
      }
  }

  // outlines of the kept glyphs, with long offsets in loca
  const newLoca = Buffer.alloc((glyphCount + 1) * 4)
  const outlines: Buffer[] = []
  let size = 0
  for (let id = 0; id < glyphCount; id++) {
    newLoca.writeUInt32BE(size, id * 4)
    const length = start(id + 1) - start(id)
    if (!kept.has(id) || length <= 0) continue
    const padded = (length + 3) & ~3
    outlines.push(bytes.subarray(glyf.offset + start(id), glyf.offset + start(id) + length))
    outlines.push(Buffer.alloc(padded - length))
    size += padded
  }
  newLoca.writeUInt32BE(size, glyphCount * 4)

  const out = new Map<string, Buffer>()
  for (const [tag, { offset, length }] of tables) out.set(tag, bytes.subarray(offset, offset + length))
  out.set('glyf', Buffer.concat(outlines, size))
  out.set('loca', newLoca)
  const newHead = Buffer.from(bytes.subarray(head.offset, head.offset + head.length))
  newHead.writeInt16BE(1, 50)
  out.set('head', newHead)
  // glyph names (version 2) are not drawn; version 3 keeps the header alone
  const post = out.get('post')
  if (post && post.length > 32 && post.readUInt32BE(0) === 0x00020000) {
    const header = Buffer.from(post.subarray(0, 32))
    header.writeUInt32BE(0x00030000, 0)
    out.set('post', header)
  }
  return assemble(bytes.subarray(0, 12), out)
}

/** Glyph ids a composite glyph is made of (none for a simple or empty one). */
function components(view: DataView, at: number, length: number): number[] {
  if (length <= 0 || view.getInt16(at) >= 0) return []
  const parts: number[] = []
  let p = at + 10
  for (;;) {
    const flags = view.getUint16(p)
    parts.push(view.getUint16(p + 2))
    p += flags & 0x1 ? 8 : 6
    if (flags & 0x8) p += 2
    else if (flags & 0x40) p += 4
    else if (flags & 0x80) p += 8
    if (!(flags & 0x20)) return parts
  }
}

/** An sfnt file of the tables, in the given order (the original's, sorted by tag), checksummed. */
function assemble(header: Buffer, tables: Map<string, Buffer>): Buffer {
  let total = 12 + tables.size * 16
  for (const data of tables.values()) total += (data.length + 3) & ~3
  const out = Buffer.alloc(total)
  header.copy(out, 0)
  let offset = 12 + tables.size * 16
  let entry = 12
  let headAt = -1
  for (const [tag, data] of tables) {
    if (tag === 'head') headAt = offset
    out.write(tag, entry, 'latin1')
    data.copy(out, offset)
    if (tag === 'head') out.writeUInt32BE(0, offset + 8)
    out.writeUInt32BE(checksum(out, offset, data.length), entry + 4)
    out.writeUInt32BE(offset, entry + 8)
    out.writeUInt32BE(data.length, entry + 12)
    offset += (data.length + 3) & ~3
    entry += 16
  }
  out.writeUInt32BE((0xb1b0afba - checksum(out, 0, total)) >>> 0, headAt + 8)
  return out
}

function checksum(bytes: Buffer, from: number, length: number): number {
  let sum = 0
  for (let i = 0; i < length; i += 4) sum = (sum + bytes.readUInt32BE(from + i)) >>> 0
  return sum
}
