import { constants, inflateSync } from 'node:zlib'

/**
 * Number of pages of a PDF, read from the page tree: the /Count of the root /Pages node (the
 * one without /Parent). Objects inside compressed object streams are read too. Falls back to
 * counting /Type /Page objects when there is no usable tree.
 */
export function countPdfPages(pdf: Buffer): number {
  const whole = pdf.toString('latin1')
  const texts = [whole, ...objectStreams(pdf, whole)]
  let rootCount: number | undefined
  let anyCount = 0
  let leaves = 0
  for (const text of texts) {
    for (const dict of pagesDictionaries(text)) {
      const count = Number(/\/Count\s+(\d+)/.exec(dict)?.[1] ?? Number.NaN)
      if (!Number.isFinite(count)) continue
      anyCount = Math.max(anyCount, count)
      if (!/\/Parent\s/.test(dict)) rootCount = Math.max(rootCount ?? 0, count)
    }
    leaves += text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0
  }
  return rootCount ?? (anyCount || leaves)
}

/** The dictionaries holding `/Type /Pages`, cut at their enclosing `<<` ... `>>`. */
function* pagesDictionaries(text: string): Generator<string> {
  const type = /\/Type\s*\/Pages(?![a-zA-Z])/g
  for (let match = type.exec(text); match; match = type.exec(text)) {
    const start = enclosingOpen(text, match.index)
    const end = matchingClose(text, start)
    if (start >= 0 && end > start) yield text.slice(start, end)
  }
}

function enclosingOpen(text: string, from: number): number {
  let depth = 0
  for (let i = from; i > 0; i--) {
    if (text[i] === '>' && text[i - 1] === '>') {
      depth++
      i--
    } else if (text[i] === '<' && text[i - 1] === '<') {
      if (depth === 0) return i - 1
      depth--
      i--
    }
  }
  return -1
}

function matchingClose(text: string, start: number): number {
  let depth = 0
  for (let i = start; i < text.length - 1; i++) {
    if (text[i] === '<' && text[i + 1] === '<') {
      depth++
      i++
    } else if (text[i] === '>' && text[i + 1] === '>') {
      depth--
      i++
      if (depth === 0) return i + 1
    }
  }
  return -1
}

/** Decompressed contents of /Type /ObjStm streams (PDF 1.5 object streams). */
function objectStreams(pdf: Buffer, text: string): string[] {
  const out: string[] = []
  const marker = /\/Type\s*\/ObjStm/g
  for (let match = marker.exec(text); match; match = marker.exec(text)) {
    const streamAt = text.indexOf('stream', match.index)
    if (streamAt < 0) continue
    let dataStart = streamAt + 'stream'.length
    if (text[dataStart] === '\r') dataStart++
    if (text[dataStart] === '\n') dataStart++
    const dataEnd = text.indexOf('endstream', dataStart)
    if (dataEnd < 0) continue
    try {
      out.push(
        inflateSync(pdf.subarray(dataStart, dataEnd), { finishFlush: constants.Z_SYNC_FLUSH }).toString(
          'latin1',
        ),
      )
    } catch {
      // not Flate, or damaged: the plain objects still count
    }
  }
  return out
}
