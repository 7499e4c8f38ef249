// A content stream's operators with their operands (ISO 32000-1 7.8.2): numbers, names
// (`{ name }`), strings (bytes), arrays and inline dictionaries. Inline image data (BI ... ID
// data EI) is skipped, not read as operators. Hostile input is bounded by the stream's length:
// every step advances at least one byte.

export type Operand =
  | number
  | boolean
  | null
  | { name: string }
  | Uint8Array
  | Operand[]
  | { dict: Record<string, Operand> }

export interface Operation {
  op: string
  operands: Operand[]
}

const WHITE = new Set([0, 9, 10, 12, 13, 32])
const DELIM = new Set([40, 41, 60, 62, 91, 93, 123, 125, 47, 37])

/** Every PDF operator of ISO 32000-1 Annex A: anything else is an undefined operator. */
export const PDF_OPERATORS = new Set(
  (
    'b B b* B* BDC BI BMC BT BX c cm CS cs d d0 d1 Do DP EI EMC ET EX f F f* G g gs h i ID j J K k l m M MP n ' +
    'q Q re RG rg ri s S SC sc SCN scn sh T* Tc Td TD Tf Tj TJ TL Tm Tr Ts Tw Tz v w W W* y \' "'
  ).split(' '),
)

export function parseContent(
  bytes: Uint8Array,
  onOperation: (o: Operation) => void,
  onHexString: (written: string) => void = () => {},
  limit = 5_000_000,
): void {
  let i = 0
  const n = bytes.length
  let operands: Operand[] = []
  let count = 0

  const skipWhite = () => {
    while (i < n) {
      const c = bytes[i]!
      if (WHITE.has(c)) i++
      else if (c === 37) {
        while (i < n && bytes[i] !== 10 && bytes[i] !== 13) i++
      } else break
    }
  }

  const readToken = (): Operand | { op: string } | undefined => {
    skipWhite()
    if (i >= n) return undefined
    const c = bytes[i]!
    if (c === 40) return readLiteral()
    if (c === 60) {
      if (bytes[i + 1] === 60) {
        i += 2
        return readDict()
      }
      i++
      const start = i
      while (i < n && bytes[i] !== 62) i++
      const written = Buffer.from(bytes.subarray(start, i)).toString('latin1')
      onHexString(written)
      const hex = written.replace(/[^0-9A-Fa-f]/g, '')
      i++
      return Uint8Array.from(Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex'))
    }
    if (c === 91) {
      i++
      const arr: Operand[] = []
      for (let guard = 0; guard < 1_000_000; guard++) {
        skipWhite()
        if (i >= n) break
        if (bytes[i] === 93) {
          i++
          break
        }
        const t = readToken()
        if (t === undefined) break
        if (typeof t === 'object' && t !== null && 'op' in t) continue
        arr.push(t)
      }
      return arr
    }
    if (c === 47) {
      i++
      const start = i
      while (i < n && !WHITE.has(bytes[i]!) && !DELIM.has(bytes[i]!)) i++
      return { name: decodeName(Buffer.from(bytes.subarray(start, i)).toString('latin1')) }
    }
    if (c === 93 || c === 62 || c === 41 || c === 123 || c === 125) {
      i++
      return { op: String.fromCharCode(c) }
    }
    const start = i
    while (i < n && !WHITE.has(bytes[i]!) && !DELIM.has(bytes[i]!)) i++
    if (i === start) i++
    const word = Buffer.from(bytes.subarray(start, i)).toString('latin1')
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) return Number(word)
    if (word === 'true' || word === 'false') return word === 'true'
    if (word === 'null') return null
    return { op: word }
  }

  const readLiteral = (): Uint8Array => {
    i++
    let depth = 1
    const out: number[] = []
    while (i < n && depth > 0) {
      const c = bytes[i]!
      if (c === 92) {
        i = readEscape(i + 1, out)
        continue
      }
      if (c === 40) depth++
      if (c === 41 && --depth === 0) {
        i++
        break
      }
      out.push(c)
      i++
    }
    return Uint8Array.from(out)
  }

  // a literal string's escapes (ISO 32000-1 7.3.4.2): the named ones, one to three octal digits
  // (the character code, as in `(\001)`), and a backslash before an end of line, which joins lines
  const readEscape = (at: number, out: number[]): number => {
    const e = bytes[at]
    if (e === undefined) return at
    const named = ESCAPES[e]
    if (named !== undefined) {
      out.push(named)
      return at + 1
    }
    if (e >= 48 && e <= 55) {
      let code = 0
      let k = at
      while (k < at + 3 && k < n && bytes[k]! >= 48 && bytes[k]! <= 55) code = code * 8 + bytes[k++]! - 48
      out.push(code & 0xff)
      return k
    }
    if (e === 13) return bytes[at + 1] === 10 ? at + 2 : at + 1
    if (e === 10) return at + 1
    // any other escaped character stands for itself
    out.push(e)
    return at + 1
  }

  const readDict = (): { dict: Record<string, Operand> } => {
    const dict: Record<string, Operand> = {}
    for (let guard = 0; guard < 100_000; guard++) {
      skipWhite()
      if (i >= n) break
      if (bytes[i] === 62 && bytes[i + 1] === 62) {
        i += 2
        break
      }
      const key = readToken()
      if (!key || typeof key !== 'object' || !('name' in key)) continue
      const value = readToken()
      if (value !== undefined && !(typeof value === 'object' && value !== null && 'op' in value))
        dict[key.name] = value
    }
    return { dict }
  }

  while (i < n && count < limit) {
    const t = readToken()
    if (t === undefined) break
    if (typeof t === 'object' && t !== null && 'op' in t) {
      count++
      if (t.op === 'BI') {
        const dict: Record<string, Operand> = {}
        for (let guard = 0; guard < 10_000; guard++) {
          const k = readToken()
          if (k === undefined || (typeof k === 'object' && k !== null && 'op' in k)) break
          const val = readToken()
          if (
            k &&
            typeof k === 'object' &&
            'name' in k &&
            val !== undefined &&
            !(typeof val === 'object' && val !== null && 'op' in val)
          ) {
            dict[k.name] = val
          }
        }
        // the image data runs to whitespace + EI + whitespace
        i++
        while (
          i < n &&
          !(
            WHITE.has(bytes[i - 1]!) &&
            bytes[i] === 69 &&
            bytes[i + 1] === 73 &&
            (i + 2 >= n || WHITE.has(bytes[i + 2]!))
          )
        )
          i++
        i += 2
        onOperation({ op: 'BI', operands: [{ dict }] })
        operands = []
        continue
      }
      onOperation({ op: t.op, operands })
      operands = []
    } else {
      operands.push(t)
    }
  }
}

function decodeName(raw: string): string {
  return raw.replace(/#([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
}

export function isName(o: Operand | undefined): o is { name: string } {
  return typeof o === 'object' && o !== null && 'name' in o
}

const ESCAPES: Record<number, number> = { 110: 10, 114: 13, 116: 9, 98: 8, 102: 12 }
