// A font's ToUnicode CMap (ISO 32000-1 §9.10.3): character codes to Unicode text, for reading
// what a marked-content sequence says. Only what a ToUnicode CMap may hold is read:
// codespace ranges (the code lengths), bfchar and bfrange entries; a CMap is text.

export interface ToUnicode {
  /** the code lengths in bytes, longest first */
  lengths: number[]
  map: Map<string, string>
}

const HEX = /<([0-9a-fA-F\s]*)>/g

function hexBytes(hex: string): Buffer {
  const clean = hex.replace(/\s+/g, '')
  return Buffer.from(clean.length % 2 ? `${clean}0` : clean, 'hex')
}

/** UTF-16BE bytes as text */
function utf16(bytes: Buffer): string {
  let out = ''
  for (let i = 0; i + 1 < bytes.length; i += 2) out += String.fromCharCode(bytes.readUInt16BE(i))
  return out
}

function sections(cmap: string, kind: string): string[] {
  const found: string[] = []
  const pattern = new RegExp(`begin${kind}([\\s\\S]*?)end${kind}`, 'g')
  for (const [, body] of cmap.matchAll(pattern)) found.push(body ?? '')
  return found
}

export function parseToUnicode(cmap: string): ToUnicode {
  const lengths = new Set<number>()
  for (const body of sections(cmap, 'codespacerange'))
    for (const [, hex] of body.matchAll(HEX)) lengths.add(hexBytes(hex ?? '').length)
  const map = new Map<string, string>()
  for (const body of sections(cmap, 'bfchar')) {
    const hexes = [...body.matchAll(HEX)].map(([, h]) => hexBytes(h ?? ''))
    for (let i = 0; i + 1 < hexes.length; i += 2) map.set(hexes[i]!.toString('hex'), utf16(hexes[i + 1]!))
  }
  for (const body of sections(cmap, 'bfrange')) {
    // <lo> <hi> <dst> or <lo> <hi> [<dst> <dst> …]
    const entry = /<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(<[0-9a-fA-F\s]*>|\[[^\]]*\])/g
    for (const [, lo, hi, dst] of body.matchAll(entry)) {
      const low = hexBytes(lo!)
      const size = low.length
      const from = low.readUIntBE(0, size)
      const to = hexBytes(hi!).readUIntBE(0, size)
      if (to < from || to - from > 0xffff) continue
      const list = dst!.startsWith('[')
        ? [...dst!.matchAll(HEX)].map(([, h]) => hexBytes(h ?? ''))
        : undefined
      const base = list ? undefined : hexBytes(dst!.slice(1, -1))
      for (let code = from; code <= to; code++) {
        const key = Buffer.alloc(size)
        key.writeUIntBE(code, 0, size)
        let text: string | undefined
        if (list) text = list[code - from] ? utf16(list[code - from]!) : undefined
        else if (base && base.length >= 2) {
          // the last byte of the destination counts up with the code
          const value = Buffer.from(base)
          value.writeUInt16BE(value.readUInt16BE(value.length - 2) + (code - from), value.length - 2)
          text = utf16(value)
        }
        if (text !== undefined) map.set(key.toString('hex'), text)
      }
    }
  }
  return { lengths: lengths.size > 0 ? [...lengths].sort((a, b) => b - a) : [1, 2], map }
}

/** the text of a shown string's bytes (codes not in the map are left out) */
export function decodeShown(toUnicode: ToUnicode, bytes: Uint8Array): string {
  let out = ''
  let i = 0
  while (i < bytes.length) {
    let matched = false
    for (const length of toUnicode.lengths) {
      if (i + length > bytes.length) continue
      const text = toUnicode.map.get(Buffer.from(bytes.subarray(i, i + length)).toString('hex'))
      if (text !== undefined) {
        out += text
        i += length
        matched = true
        break
      }
    }
    if (!matched) i += toUnicode.lengths[toUnicode.lengths.length - 1] ?? 1
  }
  return out
}
