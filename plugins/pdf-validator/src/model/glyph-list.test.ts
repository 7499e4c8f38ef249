import { describe, expect, it } from 'vitest'
import { glyphNameToUnicode, inGlyphList } from './glyph-list.ts'

describe('Adobe Glyph List', () => {
  it('maps listed names, the uni and u forms, and nothing else', () => {
    expect(glyphNameToUnicode('grave')).toBe('`')
    expect(glyphNameToUnicode('Euro')).toBe('€')
    // an entry of several code points
    expect(glyphNameToUnicode('dalethatafpatah')).toBe('\u05D3\u05B2')
    expect(glyphNameToUnicode('uni00E9')).toBe('é')
    expect(glyphNameToUnicode('uni00480049')).toBe('HI')
    expect(glyphNameToUnicode('u1F600')).toBe('😀')
    expect(glyphNameToUnicode('grav')).toBeUndefined()
    expect(glyphNameToUnicode('uniD800')).toBeUndefined()
    expect(glyphNameToUnicode('uni00e9')).toBeUndefined()
    expect(inGlyphList('zukatakana')).toBe(true)
    expect(inGlyphList('uni00E9')).toBe(false)
  })
})
