import { describe, expect, it } from 'vitest'
import { attrs, num, placed, xmlText } from './svg-markup.ts'

describe('svg markup', () => {
  it('escapes text and attribute values and drops characters XML forbids', () => {
    expect(xmlText('a < b & c > d\u0000\u0007')).toBe('a &lt; b &amp; c &gt; d')
    expect(attrs({ fill: '"/><script>', x: 1.23456, skipped: undefined })).toBe(
      ' fill="&quot;/&gt;&lt;script&gt;" x="1.235"',
    )
  })

  it('writes only finite numbers', () => {
    expect(num(Number.NaN)).toBe('0')
    expect(num(Number.POSITIVE_INFINITY)).toBe('0')
    expect(num(-0.0004)).toBe('0')
  })

  it('wraps a layer in opacity and rotation only when it has them', () => {
    expect(placed('<rect/>', {}, { x: 5, y: 5 })).toBe('<rect/>')
    expect(placed('<rect/>', { opacity: 1, rotation: 0 }, { x: 5, y: 5 })).toBe('<rect/>')
    expect(placed('<rect/>', { opacity: 0.5, rotation: 90 }, { x: 5, y: 6 })).toBe(
      '<g opacity="0.5" transform="rotate(90 5 6)"><rect/></g>',
    )
    expect(placed('', { opacity: 0.5 }, { x: 0, y: 0 })).toBe('')
  })
})
