import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { add, decimalText, parseDecimal, subtract, sum } from './decimal.ts'
import type { Invoice } from './invoice-schema.ts'
import { completeInvoice } from './totals.ts'

const base: Invoice = {
  number: 'RE-1',
  issue_date: '2026-11-25',
  type_code: '380',
  currency: 'EUR',
  seller: { name: 'Muster GmbH', address: { country: 'DE' } },
  buyer: { name: 'Beispiel AG' },
}

const line = (id: string, quantity: string, price: string, category = 'S', rate: string | null = '19') => ({
  id,
  quantity,
  unit: 'H87',
  net_price: price,
  vat_category: category,
  ...(rate === null ? {} : { vat_rate: rate }),
  name: `item ${id}`,
})

describe('totals and VAT breakdown', () => {
  it('computes what is not given, to the cent', () => {
    const { invoice, findings } = completeInvoice({
      ...base,
      lines: [line('1', '3', '0.10'), line('2', '1', '9.99', 'S', '7'), line('3', '2', '5', 'E', '0')],
      allowances: [{ amount: '1.00', vat_category: 'S', vat_rate: '19', reason: 'Rabatt' }],
      charges: [{ amount: '4.90', vat_category: 'S', vat_rate: '19', reason: 'Fracht' }],
      totals: { prepaid: '10' },
    })
    expect(findings).toEqual([])
    expect(invoice.lines?.map((l) => l.net_amount)).toEqual(['0.30', '9.99', '10.00'])
    expect(invoice.vat_breakdown).toEqual([
      { category: 'S', rate: '19', taxable_amount: '4.20', tax_amount: '0.80' },
      { category: 'S', rate: '7', taxable_amount: '9.99', tax_amount: '0.70' },
      { category: 'E', rate: '0', taxable_amount: '10.00', tax_amount: '0.00' },
    ])
    expect(invoice.totals).toEqual({
      line_total: '20.29',
      allowance_total: '1.00',
      charge_total: '4.90',
      tax_exclusive: '24.19',
      vat_total: '1.50',
      tax_inclusive: '25.69',
      prepaid: '10',
      due_payable: '15.69',
    })
  })

  it('names the rule and the JSON Pointer of every given total that is wrong', () => {
    const { findings } = completeInvoice({
      ...base,
      lines: [line('1', '2', '10')],
      vat_breakdown: [{ category: 'S', rate: '19', taxable_amount: '20.00', tax_amount: '2.70' }],
      totals: {
        line_total: '21',
        tax_exclusive: '20',
        vat_total: '2.70',
        tax_inclusive: '23.80',
        due_payable: '23',
      },
    })
    expect(findings.map((f) => [f.ruleId, f.location])).toEqual([
      ['BR-CO-17', '/vat_breakdown/0/tax_amount'],
      ['BR-CO-10', '/totals/line_total'],
      ['BR-CO-13', '/totals/tax_exclusive'],
      ['BR-CO-15', '/totals/tax_inclusive'],
      ['BR-CO-16', '/totals/due_payable'],
    ])
    expect(findings[0]!.message).toBe('VAT category tax amount (BT-117) is 2.70 but must be 3.80')
  })

  it('accepts a VAT amount within one currency unit, as the official BR-CO-17 does', () => {
    const breakdown = (tax: string) =>
      completeInvoice({
        ...base,
        vat_breakdown: [{ category: 'S', rate: '19.00', taxable_amount: '-72.50', tax_amount: tax }],
      }).findings.map((f) => f.ruleId)
    expect(breakdown('-13.78')).toEqual([])
    expect(breakdown('-12.78')).toEqual([])
    expect(breakdown('-14.78')).toEqual([])
    expect(breakdown('-12.77')).toEqual(['BR-CO-17'])
    expect(breakdown('-14.79')).toEqual(['BR-CO-17'])
  })

  it('checks a given taxable amount against its category (BR-S-08, BR-IC-08)', () => {
    const { findings } = completeInvoice({
      ...base,
      lines: [line('1', '1', '10'), line('2', '1', '5', 'K', null)],
      vat_breakdown: [
        { category: 'S', rate: '19', taxable_amount: '11.00', tax_amount: '2.09' },
        { category: 'K', taxable_amount: '4.00', tax_amount: '0' },
      ],
    })
    expect(findings.map((f) => f.ruleId)).toEqual(['BR-S-08', 'BR-IC-08'])
  })

  it('keeps MINIMUM totals as given when there are no lines to sum', () => {
    const { invoice, findings } = completeInvoice({
      ...base,
      totals: { tax_exclusive: '100', vat_total: '19', tax_inclusive: '119', due_payable: '119' },
    })
    expect(findings).toEqual([])
    expect(invoice.totals).toEqual({
      tax_exclusive: '100',
      vat_total: '19',
      tax_inclusive: '119',
      due_payable: '119',
    })
  })

  it('holds the sum rules exactly for generated invoices', () => {
    const amount = fc
      .integer({ min: 0, max: 10_000_000 })
      .map((c) => decimalText({ units: BigInt(c), scale: 2 }))
    const genLine = fc.record({
      quantity: fc.integer({ min: 1, max: 1000 }).map(String),
      net_price: amount,
      vat: fc.constantFrom(['S', '19'], ['S', '7'], ['Z', '0'], ['E', '0']),
    })
    fc.assert(
      fc.property(
        fc.array(genLine, { minLength: 1, maxLength: 20 }),
        fc.array(amount, { maxLength: 3 }),
        amount,
        (ls, allowances, prepaid) => {
          const { invoice, findings } = completeInvoice({
            ...base,
            lines: ls.map((l, i) => line(String(i + 1), l.quantity, l.net_price, l.vat[0], l.vat[1])),
            allowances: allowances.map((a) => ({ amount: a, vat_category: 'S', vat_rate: '19' })),
            totals: { prepaid },
          })
          expect(findings).toEqual([])
          const t = invoice.totals!
          const d = (v: string | number | undefined) => parseDecimal(v ?? '0')
          const nets = invoice.lines!.map((l) => d(l.net_amount))
          expect(d(t.line_total)).toEqual(sum(nets)) // BR-CO-10
          expect(d(t.tax_exclusive)).toEqual(subtract(d(t.line_total), d(t.allowance_total))) // BR-CO-13
          expect(d(t.vat_total)).toEqual(sum(invoice.vat_breakdown!.map((b) => d(b.tax_amount)))) // BR-CO-14
          expect(d(t.tax_inclusive)).toEqual(add(d(t.tax_exclusive), d(t.vat_total))) // BR-CO-15
          expect(d(t.due_payable)).toEqual(subtract(d(t.tax_inclusive), d(prepaid))) // BR-CO-16
          // the breakdown's taxable amounts add up to the amount without VAT
          expect(sum(invoice.vat_breakdown!.map((b) => d(b.taxable_amount)))).toEqual(d(t.tax_exclusive))
          // and re-checking the completed invoice finds nothing
          expect(completeInvoice(invoice).findings).toEqual([])
        },
      ),
      { numRuns: 200 },
    )
  })
})
