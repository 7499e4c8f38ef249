// A JPEG 2000 image's JP2 header (ISO/IEC 15444-1 Annex I) as ISO 19005-2 6.2.8.3 asks about it:
// channels and bit depth (ihdr), colour specifications (colr) and per-channel depths (bpcc).

export interface Jp2Header {
  nrColorChannels: number | null
  nrColorSpaceSpecs: number
  nrColorSpacesWithApproxField: number
  colrMethod: number | null
  colrEnumCS: number | null
  bpccBoxPresent: boolean
  bitDepth: number | null
}

interface Box {
  type: string
  start: number
  end: number
}

function boxes(bytes: Uint8Array, from: number, to: number): Box[] {
  const out: Box[] = []
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let at = from
  while (at + 8 <= to && out.length < 4096) {
    let length = view.getUint32(at)
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8))
    let header = 8
    if (length === 1 && at + 16 <= to) {
      length = Number(view.getBigUint64(at + 8))
      header = 16
    } else if (length === 0) length = to - at
    if (length < header || at + length > to) break
    out.push({ type, start: at + header, end: at + length })
    at += length
  }
  return out
}

export function readJp2Header(bytes: Uint8Array): Jp2Header {
  const header: Jp2Header = {
    nrColorChannels: null,
    nrColorSpaceSpecs: 0,
    nrColorSpacesWithApproxField: 0,
    colrMethod: null,
    colrEnumCS: null,
    bpccBoxPresent: false,
    bitDepth: null,
  }
  const jp2h = boxes(bytes, 0, bytes.length).find((b) => b.type === 'jp2h')
  if (!jp2h) return header
  const colrs: { method: number; approx: number; enumCS: number | null }[] = []
  for (const b of boxes(bytes, jp2h.start, jp2h.end)) {
    if (b.type === 'ihdr' && b.end - b.start >= 14) {
      header.nrColorChannels = (bytes[b.start + 8]! << 8) | bytes[b.start + 9]!
      const bpc = bytes[b.start + 10]!
      header.bitDepth = bpc === 255 ? null : (bpc & 0x7f) + 1
    } else if (b.type === 'colr' && b.end - b.start >= 3) {
      const method = bytes[b.start]!
      const enumCS =
        method === 1 && b.end - b.start >= 7
          ? new DataView(bytes.buffer, bytes.byteOffset).getUint32(b.start + 3)
          : null
      colrs.push({ method, approx: bytes[b.start + 2]!, enumCS })
    } else if (b.type === 'bpcc') header.bpccBoxPresent = true
  }
  header.nrColorSpaceSpecs = colrs.length
  header.nrColorSpacesWithApproxField = colrs.filter((c) => c.approx === 1).length
  // the colour specification a reader uses: the only one, else the first marked as approximate
  const chosen = colrs.length === 1 ? colrs[0] : (colrs.find((c) => c.approx === 1) ?? colrs[0])
  header.colrMethod = chosen?.method ?? null
  header.colrEnumCS = chosen?.enumCS ?? null
  return header
}
