import { type PDFDict, PDFRawStream } from '@cantoo/pdf-lib'
import type { Values } from './pdf-values.ts'
import { readTrueType } from './truetype-program.ts'

// A CIDSet (ISO 19005-2 6.2.11.4.2, ISO 14289-1 7.21.4.2) "shall identify all CIDs which are
// present in the font program": every CID whose glyph has an outline in the embedded program must
// have its bit set (bit 0x80 of byte 0 is CID 0). CID 0, the .notdef glyph, is not asked for.
// Read for TrueType CID fonts (glyphs through CIDToGIDMap, outlines from loca); for any other
// program the answer is undefined ("cannot tell") rather than guessed.

/** Whether the CIDSet lists every CID the program has a glyph for; undefined when not readable. */
export function cidSetListsAllGlyphs(
  v: Values,
  cid: PDFDict,
  descriptor: PDFDict | undefined,
): boolean | undefined {
  const cidSet = v.stream(descriptor, 'CIDSet')
  if (!cidSet) return true
  const bits = v.decoded(cidSet)
  const file = v.stream(descriptor, 'FontFile2')
  const bytes = file ? v.decoded(file) : undefined
  const outlined = bytes ? readTrueType(bytes)?.outlined : undefined
  if (!bits || !outlined || v.name(cid, 'Subtype') !== 'CIDFontType2') return undefined
  const listed = (c: number) => c >> 3 < bits.length && (bits[c >> 3]! & (0x80 >> (c & 7))) !== 0
  const map = v.get(cid, 'CIDToGIDMap')
  if (!(map instanceof PDFRawStream)) {
    // Identity: the CID is the glyph id
    for (const gid of outlined) if (gid !== 0 && !listed(gid)) return false
    return true
  }
  const mapBytes = v.decoded(map)
  if (!mapBytes) return undefined
  for (let c = 1; 2 * c + 1 < mapBytes.length; c++) {
    const gid = (mapBytes[2 * c]! << 8) | mapBytes[2 * c + 1]!
    if (gid !== 0 && outlined.has(gid) && !listed(c)) return false
  }
  return true
}
