import { spawnSync } from 'node:child_process'
import { Value } from 'typebox/value'
import { describe, expect, it } from 'vitest'
import { PROFILE_IDS } from './model/profile-matrix.ts'
import { TEST_NOTE } from './profile-guidelines.ts'
import { einvoiceProfile, syntaxesOf } from './profiles.ts'
import { readInvoiceXml } from './read-invoice.ts'
import { XSD } from './sample-files.ts'
import { sampleInvoiceFor as forProfile, SAMPLE_INVOICE } from './sample-invoice.ts'

const XMLLINT = spawnSync('xmllint', ['--version']).status === 0
const xsdErrors = (xml: Buffer, xsd: string) => {
  const run = spawnSync('xmllint', ['--noout', '--nonet', '--schema', xsd, '-'], {
    input: xml,
    encoding: 'utf8',
  })
  return run.status === 0 ? '' : run.stderr
}

describe('the six profiles write CII', () => {
  for (const id of PROFILE_IDS) {
    it(`${id}: schema, checks, XSD-valid CII with its guideline id, read back`, () => {
      const profile = einvoiceProfile(id)
      const model = forProfile(id)
      expect([...Value.Errors(profile.modelSchema, model)].map((e) => e.instancePath)).toEqual([])
      expect(profile.checkModel(model)).toEqual([])
      const xml = profile.writeXml(model, { syntax: 'cii', test: false })
      if (XMLLINT) expect(xsdErrors(xml, XSD.cii)).toBe('')
      const read = readInvoiceXml(xml)
      expect(read.profile).toBe(id)
      expect(read.unread).toEqual([])
      expect(read.invoice.number).toBe('RE-2026-0001')
      expect(read.invoice.totals?.due_payable).toBe(id === 'MINIMUM' ? '199.76' : '193.81')
      expect(Boolean(read.invoice.lines)).toBe(!['MINIMUM', 'BASIC_WL'].includes(id))
      expect(syntaxesOf(id)).toEqual(['EN16931', 'XRECHNUNG'].includes(id) ? ['cii', 'ubl'] : ['cii'])
    })
  }

  it('computes the totals MINIMUM writes from the lines it does not write', () => {
    const xml = einvoiceProfile('MINIMUM').writeXml(forProfile('MINIMUM'), { syntax: 'cii', test: false })
    const { invoice } = readInvoiceXml(xml)
    // 3 × 19.99 at 19 % and 1.5 × 80 at 7 %: 179.97 + 11.39 + 8.40
    expect(invoice.totals).toEqual({
      tax_exclusive: '179.97',
      vat_total: '19.79',
      tax_inclusive: '199.76',
      due_payable: '199.76',
    })
  })

  it('marks test renders: the TEST note first (not MINIMUM), TestIndicator for EXTENDED', () => {
    for (const id of PROFILE_IDS) {
      const read = readInvoiceXml(einvoiceProfile(id).writeXml(forProfile(id), { syntax: 'cii', test: true }))
      expect(read.invoice.notes?.[0]?.text === TEST_NOTE, id).toBe(id !== 'MINIMUM')
      expect(read.test, id).toBe(id === 'EXTENDED')
    }
  })

  it('refuses UBL for the CII-only profiles, and a second preceding invoice in CII', () => {
    expect(() => einvoiceProfile('BASIC').writeXml(SAMPLE_INVOICE, { syntax: 'ubl', test: false })).toThrow(
      /BASIC is written as cii, not ubl/,
    )
    const twoPreceding = {
      ...SAMPLE_INVOICE,
      preceding_invoices: [{ number: 'A' }, { number: 'B' }],
    }
    expect(() => einvoiceProfile('EN16931').writeXml(twoPreceding, { syntax: 'cii', test: false })).toThrow(
      /one preceding invoice/,
    )
  })

  it('names the XML file after the invoice number unless one is asked for', () => {
    const profile = einvoiceProfile('EN16931')
    expect(profile.filename(SAMPLE_INVOICE, null)).toBe('RE-2026-0001.xml')
    expect(profile.filename(SAMPLE_INVOICE, 'rechnung')).toBe('rechnung.xml')
  })
})

describe('EN16931 and XRECHNUNG write UBL 2.1', () => {
  for (const id of ['EN16931', 'XRECHNUNG'] as const)
    for (const typeCode of ['380', '381'])
      it(`${id}: type code ${typeCode} is an XSD-valid ${typeCode === '381' ? 'CreditNote' : 'Invoice'} that reads back`, () => {
        const model = { ...SAMPLE_INVOICE, type_code: typeCode }
        const xml = einvoiceProfile(id).writeXml(model, { syntax: 'ubl', test: true })
        const credit = typeCode === '381'
        expect(xml.toString('utf8')).toContain(credit ? '<CreditNote xmlns=' : '<Invoice xmlns=')
        if (XMLLINT) expect(xsdErrors(xml, credit ? XSD.ublCreditNote : XSD.ublInvoice)).toBe('')
        const read = readInvoiceXml(xml)
        expect(read.unread).toEqual([])
        expect(read.profile).toBe(id)
        expect(read.invoice.notes?.[0]?.text).toBe(TEST_NOTE)
        expect(read.invoice.notes?.[1]).toEqual(SAMPLE_INVOICE.notes?.[0])
        // BT-9 sits in PaymentMeans in a credit note, in DueDate in an invoice: it comes back either way
        expect(read.invoice.due_date).toBe('2026-12-09')
        expect(read.invoice.totals?.due_payable).toBe('193.81')
        expect(read.invoice.lines?.[1]).toMatchObject({
          net_amount: '120.00',
          gross_price: '100',
          price_discount: '20',
        })
      })
})
