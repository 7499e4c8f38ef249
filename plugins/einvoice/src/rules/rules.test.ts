import { describe, expect, it } from 'vitest'
import type { Invoice } from '../model/invoice-schema.ts'
import { checkInvoiceModel } from '../model/model-checks.ts'
import { modelFields, type ProfileId } from '../model/profile-matrix.ts'
import { SAMPLE_INVOICE } from '../sample-invoice.ts'
import { BUSINESS_RULES } from './rule-engine.ts'

const findings = (invoice: Invoice, profile: ProfileId = 'EN16931') =>
  checkInvoiceModel(invoice, profile).map((f) => `${f.severity} ${f.ruleId} ${f.location}`)
const line = SAMPLE_INVOICE.lines![0]!

describe('the business rules on the model', () => {
  it('find nothing in a complete invoice, in every profile', () => {
    for (const profile of ['MINIMUM', 'BASIC_WL', 'BASIC', 'EN16931', 'EXTENDED', 'XRECHNUNG'] as const)
      expect(findings(SAMPLE_INVOICE, profile)).toEqual([])
  })

  it('each name a field of the model (the matrix decides where they run)', () => {
    const paths = new Set(['', ...modelFields().map((f) => f.path)])
    expect(BUSINESS_RULES.filter((r) => !paths.has(r.field)).map((r) => `${r.id} ${r.field}`)).toEqual([])
  })

  it('run the line VAT rules in BASIC, which writes line VAT', () => {
    const invoice = { ...SAMPLE_INVOICE, lines: [{ ...line, vat_rate: '0' }] }
    expect(findings(invoice, 'BASIC')).toContain('error BR-S-05 /lines/0/vat_rate')
  })

  it('name the rule and point at the field', () => {
    const invoice = { ...SAMPLE_INVOICE, lines: [{ ...line, vat_rate: '0' }] }
    expect(findings(invoice)).toContain('error BR-S-05 /lines/0/vat_rate')
  })

  it('run line rules only where lines are written (not in MINIMUM and BASIC_WL)', () => {
    const invoice = { ...SAMPLE_INVOICE, lines: [{ ...line, net_price: '-1', net_amount: '-2' }] }
    expect(findings(invoice, 'EN16931')).toContain('error BR-27 /lines/0/net_price')
    expect(findings(invoice, 'BASIC_WL').filter((f) => f.includes('BR-27'))).toEqual([])
  })

  it('check the VAT category families: an exempt line needs its breakdown with a reason', () => {
    const { allowances, charges, ...rest } = SAMPLE_INVOICE
    const invoice = { ...rest, lines: [{ ...line, vat_category: 'E', vat_rate: '0' }] }
    expect(findings(invoice)).toContain('error BR-E-10 /vat_breakdown/0/exemption_reason')
    const given = {
      ...invoice,
      vat_breakdown: [
        { taxable_amount: '59.97', tax_amount: '0', category: 'E', rate: '0', exemption_reason: 'Exempt' },
      ],
    }
    expect(findings(given)).toEqual([])
  })

  it('require a reason for a document level allowance (BR-33, BR-CO-21)', () => {
    const invoice = {
      ...SAMPLE_INVOICE,
      allowances: [{ amount: '1.00', vat_category: 'S', vat_rate: '19' }],
    }
    expect(findings(invoice)).toEqual(
      expect.arrayContaining(['error BR-33 /allowances/0/reason', 'error BR-CO-21 /allowances/0/reason']),
    )
  })

  it('run the BR-DE rules for XRECHNUNG only', () => {
    const invoice = { ...SAMPLE_INVOICE, type_code: '71' }
    expect(findings(invoice, 'XRECHNUNG')).toContain('error BR-DE-17 /type_code')
    expect(findings(invoice, 'EN16931')).toEqual([])
  })

  it('warn when a full card number is given (BR-51)', () => {
    const invoice = {
      ...SAMPLE_INVOICE,
      payment: { means_code: '48', card: { account_number: '4111111111111111' } },
    }
    expect(findings(invoice)).toContain('warning BR-51 /payment/card/account_number')
  })
})
