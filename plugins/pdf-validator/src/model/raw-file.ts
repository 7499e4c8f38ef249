// What a PDF parser normalises away but PDF/A's file-structure rules (ISO 19005-2 6.1) are
// about: the header line and its binary comment, data after %%EOF, the EOL markers around `xref`,
// `obj`, `stream` and `endstream`, and each stream's real length. Read from the bytes as they
// are, as a latin1 string (one character per byte) so offsets are byte offsets.

export interface RawHeader {
  /** where `%PDF-` starts (-1: nowhere in the first KB) */
  offset: number
  /** the header line up to its EOL */
  line: string
  /** the four bytes after the `%` of the comment line that follows, -1 each when there is none */
  commentBytes: [number, number, number, number]
}

export interface RawIndirect {
  number: number
  generation: number
  offset: number
  /** `N G obj` with single spaces, EOL after `obj`, EOL before and after `endobj` */
  spacingComplies: boolean
  stream?: RawStream
}

export interface RawStream {
  /** the bytes from after the `stream` line to the EOL before `endstream` */
  realLength: number
  /** `stream` is followed by CRLF or LF (not CR alone) */
  streamKeywordCRLFCompliant: boolean
  /** `endstream` is preceded by an EOL */
  endstreamKeywordEOLCompliant: boolean
  /** where the data starts (byte offset) */
  dataOffset: number
}

export interface RawFile {
  header: RawHeader
  /** bytes after the last %%EOF and its single EOL */
  postEOFDataSize: number
  /** per classic `xref` section: `xref` keyword and subsection header each followed by one EOL */
  xrefSections: { offset: number; eolMarkersComply: boolean }[]
  /** the last definition of each object number in the file (incremental updates override) */
  indirects: Map<number, RawIndirect>
}

const isEol = (c: string | undefined) => c === '\r' || c === '\n'

function eolLength(text: string, at: number): number {
  if (text[at] === '\r') return text[at + 1] === '\n' ? 2 : 1
  return text[at] === '\n' ? 1 : 0
}

function readHeader(text: string): RawHeader {
  const offset = text.slice(0, 1024).indexOf('%PDF-')
  if (offset < 0) return { offset: -1, line: '', commentBytes: [-1, -1, -1, -1] }
  let end = offset
  while (end < text.length && !isEol(text[end])) end++
  const line = text.slice(offset, end)
  const next = end + eolLength(text, end)
  const commentBytes: [number, number, number, number] =
    text[next] === '%'
      ? ([1, 2, 3, 4].map((i) => (next + i < text.length ? text.charCodeAt(next + i) : -1)) as [
          number,
          number,
          number,
          number,
        ])
      : [-1, -1, -1, -1]
  return { offset, line, commentBytes }
}

function postEofSize(text: string): number {
  const at = text.lastIndexOf('%%EOF')
  if (at < 0) return text.length
  const after = at + 5
  return text.length - after - eolLength(text, after)
}

function xrefSections(text: string): RawFile['xrefSections'] {
  const sections: RawFile['xrefSections'] = []
  for (const m of text.matchAll(/(?:^|[\r\n])xref(\s*)(\d+)[ ]+(\d+)([ \t\r\n]*)/g)) {
    const firstEol = m[1]!
    const afterHeader = m[4]!
    const single = (s: string) => s === '\n' || s === '\r' || s === '\r\n'
    // the subsection header's EOL: the entries start right after it
    sections.push({ offset: m.index, eolMarkersComply: single(firstEol) && single(afterHeader) })
  }
  return sections
}

function readStream(text: string, from: number, declared: number | undefined): RawStream | undefined {
  const m = /^\s*stream/.exec(text.slice(from, from + 64))
  if (!m) return undefined
  const keywordEnd = from + m[0].length
  const crlfCompliant =
    text[keywordEnd] === '\n' || (text[keywordEnd] === '\r' && text[keywordEnd + 1] === '\n')
  const dataOffset = keywordEnd + eolLength(text, keywordEnd)
  // the declared length is right when EOL + endstream follow it
  if (declared !== undefined && declared >= 0) {
    const end = dataOffset + declared
    const tail = text.slice(end, end + 12)
    if (/^(\r\n|\r|\n)endstream/.test(tail)) {
      return {
        realLength: declared,
        streamKeywordCRLFCompliant: crlfCompliant,
        endstreamKeywordEOLCompliant: true,
        dataOffset,
      }
    }
  }
  const endstream = text.indexOf('endstream', dataOffset)
  if (endstream < 0) return undefined
  let dataEnd = endstream
  if (text[dataEnd - 1] === '\n') dataEnd--
  if (text[dataEnd - 1] === '\r') dataEnd--
  return {
    realLength: Math.max(0, dataEnd - dataOffset),
    streamKeywordCRLFCompliant: crlfCompliant,
    endstreamKeywordEOLCompliant: dataEnd < endstream,
    dataOffset,
  }
}

/**
 * Scans the file's indirect objects. `declaredLength(number)` gives a stream's /Length as the
 * parser resolved it (it may be an indirect object).
 */
export function readRawFile(
  bytes: Uint8Array,
  declaredLength: (objectNumber: number) => number | undefined,
): RawFile {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
  const indirects = new Map<number, RawIndirect>()
  const headers = [...text.matchAll(/(?<=^|[\s>\]})])(\d{1,10})(\s+)(\d{1,5})(\s+)obj(?=[\s<[(/%]|$)/g)]
  for (const [i, m] of headers.entries()) {
    const number = Number(m[1])
    const offset = m.index
    const next = headers[i + 1]?.index ?? text.length
    const headerEnd = offset + m[0].length
    const endobj = text.indexOf('endobj', headerEnd)
    const bodyEnd = endobj < 0 || endobj > next ? next : endobj
    const before = offset > 0 ? text[offset - 1] : '\n'
    const spacingComplies =
      m[2] === ' ' &&
      m[4] === ' ' &&
      isEol(text[headerEnd]) &&
      isEol(before) &&
      endobj >= 0 &&
      endobj <= next &&
      isEol(text[endobj - 1]) &&
      (endobj + 6 >= text.length || isEol(text[endobj + 6]))
    // the first `stream` keyword after the dictionary (bounded: dictionaries are small)
    const window = text.slice(headerEnd, Math.min(bodyEnd, headerEnd + 65536))
    const streamAt = window.indexOf('stream')
    const dictClose = streamAt >= 0 ? window.lastIndexOf('>>', streamAt) : -1
    const stream =
      dictClose >= 0 && /^\s*$/.test(window.slice(dictClose + 2, streamAt))
        ? readStream(text, headerEnd + dictClose + 2, declaredLength(number))
        : undefined
    indirects.set(number, {
      number,
      generation: Number(m[3]),
      offset,
      spacingComplies,
      ...(stream ? { stream } : {}),
    })
  }
  return {
    header: readHeader(text),
    postEOFDataSize: postEofSize(text),
    xrefSections: xrefSections(text),
    indirects,
  }
}
