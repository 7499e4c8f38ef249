// A PDF content stream read as its operators (ISO 32000-1 §7.8.2, §8.9.7), for the artifact
// rewrite: each operator with the byte span of its operands and itself, so the stream can be
// written back byte for byte with marked-content operators put between operators. Operands are
// skipped by their syntax (strings with escapes and nesting, hex strings, dictionaries, arrays,
// names, comments), never by pattern over the binary, and an inline image's data is stepped over.

export interface ContentOperator {
  /** the operator, e.g. `Tj`, `BDC`, `BI` (an inline image spans BI to EI) */
  op: string
  /** the offset of its first operand (or of itself when it has none) */
  start: number
  /** the offset just past it */
  end: number
}

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20])
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25])

const isRegular = (byte: number) => !WHITESPACE.has(byte) && !DELIMITERS.has(byte)

/** Where a content stream cannot be read as operators (unbalanced string, missing EI). */
export class ContentSyntaxError extends Error {}

/** The operators of a (decoded) content stream, in order. */
export function contentOperators(bytes: Uint8Array): ContentOperator[] {
  const ops: ContentOperator[] = []
  let i = 0
  let operandStart = -1
  const n = bytes.length
  while (i < n) {
    const byte = bytes[i]!
    if (WHITESPACE.has(byte)) {
      i++
      continue
    }
    if (byte === 0x25) {
      // a comment runs to the end of the line; it is neither operand nor operator
      while (i < n && bytes[i] !== 0x0a && bytes[i] !== 0x0d) i++
      continue
    }
    const tokenStart = i
    if (byte === 0x28) i = skipString(bytes, i)
    else if (byte === 0x3c && bytes[i + 1] === 0x3c) i = skipDictionary(bytes, i)
    else if (byte === 0x3c) i = skipHexString(bytes, i)
    else if (byte === 0x5b || byte === 0x5d || byte === 0x7b || byte === 0x7d) i++
    else if (byte === 0x2f) {
      i++
      while (i < n && isRegular(bytes[i]!)) i++
    } else if (byte === 0x3e || byte === 0x29) {
      throw new ContentSyntaxError(`unexpected '${String.fromCharCode(byte)}' at offset ${i}`)
    } else {
      while (i < n && isRegular(bytes[i]!)) i++
      const word = Buffer.from(bytes.subarray(tokenStart, i)).toString('latin1')
      if (!isOperand(word)) {
        const start = operandStart === -1 ? tokenStart : operandStart
        if (word === 'BI') i = skipInlineImage(bytes, i)
        ops.push({ op: word, start, end: i })
        operandStart = -1
        continue
      }
    }
    if (operandStart === -1) operandStart = tokenStart
  }
  return ops
}

function isOperand(word: string): boolean {
  return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(word) || word === 'true' || word === 'false' || word === 'null'
}

function skipString(bytes: Uint8Array, from: number): number {
  let depth = 0
  for (let i = from; i < bytes.length; i++) {
    const byte = bytes[i]
    if (byte === 0x5c) i++
    else if (byte === 0x28) depth++
    else if (byte === 0x29 && --depth === 0) return i + 1
  }
  throw new ContentSyntaxError(`a string at offset ${from} is not closed`)
}

function skipHexString(bytes: Uint8Array, from: number): number {
  const close = bytes.indexOf(0x3e, from)
  if (close === -1) throw new ContentSyntaxError(`a hex string at offset ${from} is not closed`)
  return close + 1
}

/** `<< … >>` (a BDC property list), with the strings and nested dictionaries inside it */
function skipDictionary(bytes: Uint8Array, from: number): number {
  let depth = 0
  let i = from
  while (i < bytes.length) {
    const byte = bytes[i]!
    if (byte === 0x28) i = skipString(bytes, i)
    else if (byte === 0x3c && bytes[i + 1] === 0x3c) {
      depth++
      i += 2
    } else if (byte === 0x3e && bytes[i + 1] === 0x3e) {
      i += 2
      if (--depth === 0) return i
    } else if (byte === 0x3c) i = skipHexString(bytes, i)
    else i++
  }
  throw new ContentSyntaxError(`a dictionary at offset ${from} is not closed`)
}

/**
 * From just after `BI`: past the image's parameters, `ID`, its data and `EI`. The data is binary
 * of unstated length (unless /L or /Length is given, rarely); as readers do, it ends at `EI`
 * between whitespace (or at the end of the stream).
 */
function skipInlineImage(bytes: Uint8Array, from: number): number {
  let i = from
  // the parameters are operands (names, numbers, arrays) up to the ID operator
  for (;;) {
    while (i < bytes.length && WHITESPACE.has(bytes[i]!)) i++
    if (i >= bytes.length) throw new ContentSyntaxError('an inline image has no ID')
    if (bytes[i] === 0x49 && bytes[i + 1] === 0x44 && !isRegular(bytes[i + 2] ?? 0x20)) break
    if (bytes[i] === 0x28) i = skipString(bytes, i)
    else if (bytes[i] === 0x3c && bytes[i + 1] === 0x3c) i = skipDictionary(bytes, i)
    else if (bytes[i] === 0x3c) i = skipHexString(bytes, i)
    else if (isRegular(bytes[i]!)) while (i < bytes.length && isRegular(bytes[i]!)) i++
    else i++
  }
  // one whitespace byte separates ID from the data
  i += 3
  for (let j = i; j + 1 < bytes.length; j++) {
    if (
      bytes[j] === 0x45 &&
      bytes[j + 1] === 0x49 &&
      WHITESPACE.has(bytes[j - 1]!) &&
      (j + 2 >= bytes.length || !isRegular(bytes[j + 2]!))
    )
      return j + 2
  }
  throw new ContentSyntaxError('an inline image has no EI')
}
