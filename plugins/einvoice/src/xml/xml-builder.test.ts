import { Value } from 'typebox/value'
import { describe, expect, it } from 'vitest'
import { InvoiceSchema } from '../model/invoice-schema.ts'
import { SAMPLE_INVOICE } from '../sample-invoice.ts'
import { element, group, leaf, xmlDocument } from './xml-builder.ts'
import { parseXml } from './xml-tree.ts'

describe('the XML builder', () => {
  it('escapes text and attributes and leaves out what is missing', () => {
    const xml = xmlDocument(
      element('a', [
        leaf('b', 'x < y & "z"', { c: 'q"\n<' }),
        leaf('d', undefined),
        group('e', [leaf('f', undefined)]),
      ]),
    ).toString('utf8')
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<a>\n  <b c="q&quot;&#10;&lt;">x &lt; y &amp; "z"</b>\n</a>\n',
    )
    const root = parseXml(xml)
    expect(root.one('b')?.text).toBe('x < y & "z"')
    expect(root.one('b')?.attribute('c')).toBe('q"\n<')
  })

  it('refuses characters XML 1.0 cannot carry; the model schema refuses them first', () => {
    expect(() => xmlDocument(element('a', ['bell \u0007']))).toThrow(/cannot carry/)
    expect(Value.Check(InvoiceSchema, { ...SAMPLE_INVOICE, number: 'RE\u0000' })).toBe(false)
    expect(Value.Check(InvoiceSchema, { ...SAMPLE_INVOICE, number: 'RE-1\tÄ€😀' })).toBe(true)
    // a number JSON reads as Infinity (1e400) is refused by the schema, not thrown in the writer
    expect(
      Value.Check(InvoiceSchema, { ...SAMPLE_INVOICE, totals: { prepaid: Number.POSITIVE_INFINITY } }),
    ).toBe(false)
    expect(Value.Check(InvoiceSchema, { ...SAMPLE_INVOICE, totals: { prepaid: 12.5 } })).toBe(true)
  })

  it('reports what a reader did not take, and rejects XML that is not well-formed', () => {
    const root = parseXml('<r xmlns="urn:x" xmlns:p="urn:p"><p:a k="1">v</p:a><b/></r>')
    expect(root.value('a')).toBe('v')
    expect(root.unread()).toEqual(['r/a/@k', 'r/b'])
    expect(() => parseXml('<r><a></r>')).toThrow(/not well-formed/)
  })
})
