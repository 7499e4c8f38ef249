import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { readTrueType } from './truetype-program.ts'

const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'

describe.skipIf(!existsSync(FONT))('the TrueType reader', () => {
  const bytes = new Uint8Array(readFileSync(FONT))

  it('finds glyphs through the Unicode cmap and tells outlined glyphs from empty ones', () => {
    const program = readTrueType(bytes)
    const unicode = program?.cmaps?.find((c) => c.platform === 3 && c.encoding === 1)
    const a = unicode?.glyph(0x41) ?? 0
    const space = unicode?.glyph(0x20) ?? 0
    expect(a).toBeGreaterThan(0)
    expect(space).toBeGreaterThan(0)
    expect(program?.outlined?.has(a)).toBe(true)
    // a space has an advance but no outline
    expect(program?.outlined?.has(space)).toBe(false)
    expect(unicode?.glyph(0xe000)).toBe(0)
  })

  it('reads truncated or garbled programs as absent tables, never throwing', () => {
    for (const length of [0, 11, 12, 100, 1000, 20_000, bytes.length - 1]) {
      expect(() => {
        const program = readTrueType(bytes.subarray(0, length))
        for (const c of program?.cmaps ?? []) for (const code of [0, 0x41, 0xffff, 0x10ffff]) c.glyph(code)
      }).not.toThrow()
    }
    const garbled = bytes.slice()
    for (let i = 12; i < 400; i += 7) garbled[i] = 0xff
    expect(() => {
      const program = readTrueType(garbled)
      for (const c of program?.cmaps ?? []) c.glyph(0x41)
    }).not.toThrow()
  })
})
