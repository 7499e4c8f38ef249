import { contentOperators } from './content-operators.ts'

// PDF/UA-1 7.1 (veraPDF 7.1-3): every piece of content is either real content, inside a
// marked-content sequence of the structure tree, or an Artifact. Chromium tags what the
// accessibility tree holds and leaves the rest unmarked: header and footer templates, CSS
// backgrounds, `<img alt="">`, `aria-hidden` content and presentational SVG. So whatever paints
// outside every marked-content sequence is wrapped in `/Artifact BMC … EMC`.
//
// A wrapper opens just before the first painting operator at marked-content depth 0 (before the
// path construction that operator paints) and closes before the next BDC/BMC, at the end of its
// text object or graphics state level, or at the end of the stream, so each Artifact sequence
// nests properly with BT/ET and q/Q and never holds tagged content (7.1-1, 7.1-2).

/** operators that put marks on the page (text showing, path painting, shadings, XObjects, inline images) */
const PAINTING = new Set([
  'Tj',
  'TJ',
  "'",
  '"',
  'S',
  's',
  'f',
  'F',
  'f*',
  'B',
  'B*',
  'b',
  'b*',
  'sh',
  'Do',
  'BI',
])
const PATH_CONSTRUCTION = new Set(['m', 'l', 'c', 'v', 'y', 'h', 're'])

const OPEN = Buffer.from('/Artifact BMC\n', 'latin1')
const CLOSE = Buffer.from('\nEMC\n', 'latin1')

export interface ArtifactMarking {
  content: Buffer
  /** how many Artifact sequences were added */
  added: number
}

/**
 * The content stream with its unmarked painting wrapped as Artifacts. `holdsTags(name)` says
 * whether the XObject a `Do` draws has marked content of its own (a Form XObject with MCIDs,
 * ISO 32000-1 §14.7.4.3): such a Do is left unwrapped, or its tagged content would sit inside an
 * Artifact (7.1-2).
 */
export function markArtifacts(
  content: Uint8Array,
  holdsTags: (xobject: string) => boolean = () => false,
): ArtifactMarking {
  const parts: Uint8Array[] = []
  let cursor = 0
  let added = 0
  let depth = 0
  let qDepth = 0
  let inText = false
  let pathStart = -1
  let open: { q: number; inText: boolean } | undefined
  const emit = (at: number, marker: Buffer) => {
    parts.push(content.subarray(cursor, at), marker)
    cursor = at
  }
  const close = (at: number) => {
    if (!open) return
    emit(at, CLOSE)
    open = undefined
  }
  for (const { op, start, end } of contentOperators(content)) {
    if (op === 'BDC' || op === 'BMC') {
      close(start)
      depth++
    } else if (op === 'EMC') {
      // a stray EMC must not end our wrapper instead of the sequence it was meant for
      if (depth === 0) close(start)
      else depth--
    } else if (op === 'BT') {
      close(start)
      inText = true
    } else if (op === 'ET') {
      if (open?.inText) close(start)
      inText = false
    } else if (op === 'q') {
      qDepth++
    } else if (op === 'Q') {
      if (open && open.q === qDepth) close(start)
      qDepth = Math.max(0, qDepth - 1)
    } else if (PATH_CONSTRUCTION.has(op)) {
      if (pathStart === -1) pathStart = start
    } else if (op === 'n') {
      // ends a clipping path: it paints nothing
      pathStart = -1
    } else if (PAINTING.has(op)) {
      if (op === 'Do' && depth === 0 && holdsTags(xobjectName(content, start, end))) {
        close(start)
        continue
      }
      if (depth === 0 && !open) {
        emit(Math.max(cursor, pathStart === -1 ? start : pathStart), OPEN)
        open = { q: qDepth, inText }
        added++
      }
      pathStart = -1
    }
  }
  close(content.length)
  parts.push(content.subarray(cursor))
  return { content: Buffer.concat(parts), added }
}

/** the name operand of a `Do` */
function xobjectName(content: Uint8Array, start: number, end: number): string {
  return /\/([^\s/[\]()<>{}%]+)/.exec(Buffer.from(content.subarray(start, end)).toString('latin1'))?.[1] ?? ''
}
