import { describe, expect, it } from 'vitest'
import { shownStrings } from './marked-text.ts'
import { decodeShown, parseToUnicode } from './to-unicode.ts'

const CMAP = `/CIDInit /ProcSet findresource begin 12 dict begin begincmap
1 begincodespacerange <0000> <FFFF> endcodespacerange
2 beginbfchar <0003> <0020> <002B> <0048> endbfchar
2 beginbfrange <0024> <0025> <0041> <0050> <0051> [<00E4> <D83DDE00>] endbfrange
endcmap end end`

describe('ToUnicode CMaps', () => {
  it('reads bfchar, counting and listed bfrange entries, and surrogate pairs', () => {
    const cmap = parseToUnicode(CMAP)
    expect(cmap.lengths).toEqual([2])
    expect(decodeShown(cmap, Buffer.from('002b00030024002500500051', 'hex'))).toBe('H AB\u00e4\u{1f600}')
  })

  it('skips codes it has no text for instead of inventing any', () => {
    expect(decodeShown(parseToUnicode(CMAP), Buffer.from('0099002b', 'hex'))).toBe('H')
  })
})

describe('shown strings', () => {
  it('decodes literal strings with escapes and nesting, and hex strings, among other operands', () => {
    const ops = Buffer.from('[(a\\(b\\)) -120 (c\\101\\\\) <00 2B>] TJ', 'latin1')
    expect(shownStrings(ops, 0, ops.length).map((b) => b.toString('latin1'))).toEqual([
      'a(b)',
      'cA\\',
      '\u0000+',
    ])
  })
})
