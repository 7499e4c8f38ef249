import { describe, expect, it } from 'vitest'
import { ContentSyntaxError, contentOperators } from './content-operators.ts'
import { markArtifacts } from './mark-artifacts.ts'

const mark = (content: string) => {
  const out = markArtifacts(Buffer.from(content, 'latin1'))
  return { text: out.content.toString('latin1').replace(/\s+/g, ' ').trim(), added: out.added }
}

describe('content operators', () => {
  it('reads operators past strings with parentheses, escapes and operator names inside', () => {
    const ops = contentOperators(
      Buffer.from('BT (a \\) Tj (b) BDC) Tj [(x) -20 (EMC)] TJ ET % BT comment\nq', 'latin1'),
    )
    expect(ops.map((o) => o.op)).toEqual(['BT', 'Tj', 'TJ', 'ET', 'q'])
  })

  it('steps over property lists and inline image data that looks like operators', () => {
    const image = Buffer.concat([
      Buffer.from('/Span <</ActualText (x>>) /Nested <<>> >> BDC BI /W 2 /H 1 /BPC 8 /CS /G ID ', 'latin1'),
      Buffer.from([0x42, 0x54, 0x20, 0x45, 0x4d]),
      Buffer.from(' EI EMC', 'latin1'),
    ])
    expect(contentOperators(image).map((o) => o.op)).toEqual(['BDC', 'BI', 'EMC'])
  })

  it('refuses a stream it cannot read rather than guess', () => {
    expect(() => contentOperators(Buffer.from('(open Tj'))).toThrow(ContentSyntaxError)
    expect(() => contentOperators(Buffer.from('BI /W 1 ID xx'))).toThrow(ContentSyntaxError)
  })
})

describe('artifact marking', () => {
  it('wraps unmarked painting and leaves tagged content alone', () => {
    expect(mark('/P <</MCID 0>> BDC BT (a) Tj ET EMC 0 0 10 10 re f')).toEqual({
      text: '/P <</MCID 0>> BDC BT (a) Tj ET EMC /Artifact BMC 0 0 10 10 re f EMC',
      added: 1,
    })
  })

  it('opens before the path it paints, not between construction and painting', () => {
    expect(mark('q 1 0 0 1 5 5 cm 0 0 m 10 10 l S Q').text).toBe(
      'q 1 0 0 1 5 5 cm /Artifact BMC 0 0 m 10 10 l S EMC Q',
    )
  })

  it('leaves clipping paths and state alone, and nests with text objects and q/Q', () => {
    expect(mark('0 0 5 5 re W n BT /F1 9 Tf (h) Tj ET').text).toBe(
      '0 0 5 5 re W n BT /F1 9 Tf /Artifact BMC (h) Tj EMC ET',
    )
    expect(mark('q /X1 Do Q /P <</MCID 1>> BDC /X2 Do EMC').text).toBe(
      'q /Artifact BMC /X1 Do EMC Q /P <</MCID 1>> BDC /X2 Do EMC',
    )
  })

  it('adds nothing to content that is all tagged or already an artifact', () => {
    const tagged = '/Artifact BMC 0 0 1 1 re f EMC /P <</MCID 0>> BDC BT (a) Tj ET EMC'
    expect(mark(tagged)).toEqual({ text: tagged, added: 0 })
  })

  it('does not let a stray EMC close its wrapper', () => {
    expect(mark('0 0 1 1 re f EMC').text).toBe('/Artifact BMC 0 0 1 1 re f EMC EMC')
  })
})

describe('artifact marking around Form XObjects', () => {
  it('leaves a form with its own tagged content unwrapped, and wraps a plain one', () => {
    const out = markArtifacts(Buffer.from('/Fx1 Do /Fx2 Do', 'latin1'), (name) => name === 'Fx1')
    expect(out.content.toString('latin1').replace(/\s+/g, ' ').trim()).toBe(
      '/Fx1 Do /Artifact BMC /Fx2 Do EMC',
    )
  })
})
