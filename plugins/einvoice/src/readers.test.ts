import { describe, expect, it } from 'vitest'
import { einvoiceProfile } from './profiles.ts'
import { readInvoiceXml } from './read-invoice.ts'
import { SAMPLE_INVOICE } from './sample-invoice.ts'

const cii = () =>
  einvoiceProfile('EN16931').writeXml(SAMPLE_INVOICE, { syntax: 'cii', test: false }).toString('utf8')

describe('the readers drop nothing without a word', () => {
  it('lists a repeated term that says something else (a second payment terms text)', () => {
    const xml = cii().replace(
      '<ram:SpecifiedTradePaymentTerms>',
      '<ram:SpecifiedTradePaymentTerms><ram:Description>Skonto 2 %</ram:Description></ram:SpecifiedTradePaymentTerms><ram:SpecifiedTradePaymentTerms>',
    )
    const read = readInvoiceXml(xml)
    expect(read.invoice.payment_terms).toBe('Skonto 2 %')
    expect(read.unread).toEqual([
      'CrossIndustryInvoice/SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/SpecifiedTradePaymentTerms/Description',
    ])
  })

  it('lists what a party holds beyond its role (a payee address)', () => {
    const xml = cii().replace(
      '<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>',
      '<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode><ram:PayeeTradeParty><ram:Name>Factor AG</ram:Name><ram:PostalTradeAddress><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress></ram:PayeeTradeParty>',
    )
    const read = readInvoiceXml(xml)
    expect(read.invoice.payee).toEqual({ name: 'Factor AG' })
    expect(read.unread).toEqual([
      'CrossIndustryInvoice/SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/PayeeTradeParty/PostalTradeAddress',
    ])
  })

  it('answers a problem for what is not an invoice', () => {
    expect(() => readInvoiceXml('<Order/>')).toThrow(/not a CII or UBL invoice: the root element is Order/)
    expect(() => readInvoiceXml('<Invoice>')).toThrow(/not XML/)
    const laughs = '<!DOCTYPE r [<!ENTITY a "AAAA"><!ENTITY b "&a;&a;&a;">]><Invoice>&b;</Invoice>'
    expect(() => readInvoiceXml(laughs)).toThrow(/DOCTYPE is not accepted/)
  })
})
