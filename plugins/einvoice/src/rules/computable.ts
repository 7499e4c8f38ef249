import { decimalText } from '../model/decimal.ts'
import type { Invoice } from '../model/invoice-schema.ts'
import { vatAmount } from '../model/totals.ts'
import { amount } from './rule.ts'

// A read invoice may hold blank amounts (the request schema refuses them before the checks, an
// XML reader cannot): the calculation rules then run on a copy without what cannot be computed,
// and the mandatory-term rules (BR-24, BR-31, BR-45 ...) report the blanks on the invoice itself.

const given = <T extends Record<string, unknown>>(item: T, key: keyof T) => amount(item[key]) !== undefined

/** a group's allowances or charges without those lacking an amount (BR-31, BR-36, BR-41, BR-43) */
function withAmounts<T extends { allowances?: { amount: unknown }[]; charges?: { amount: unknown }[] }>(
  group: T,
  key: 'allowances' | 'charges',
): Partial<T> {
  const list = group[key]
  return list ? ({ [key]: list.filter((a) => given(a, 'amount')) } as Partial<T>) : {}
}

/** The invoice made computable, or undefined when a line's net amount cannot be known. */
export function computableCopy(invoice: Invoice): Invoice | undefined {
  const lines = invoice.lines ?? []
  const lineKnown = (l: (typeof lines)[number]) =>
    given(l, 'net_amount') || (given(l, 'quantity') && given(l, 'net_price'))
  if (!lines.every(lineKnown)) return undefined
  const copy: Invoice = {
    ...invoice,
    ...withAmounts(invoice, 'allowances'),
    ...withAmounts(invoice, 'charges'),
    ...(invoice.lines && {
      lines: invoice.lines.map((l) => ({
        ...l,
        ...withAmounts(l, 'allowances'),
        ...withAmounts(l, 'charges'),
      })),
    }),
    ...(invoice.vat_breakdown && {
      // a blank tax amount is taken as the right one: BR-46 reports it, BR-CO-17 has nothing to
      // compare; a blank taxable amount (BR-45) leaves the tax amount to BT-110's sum (BR-CO-14)
      vat_breakdown: invoice.vat_breakdown
        .filter((b) => given(b, 'taxable_amount') || given(b, 'tax_amount'))
        .map((b) => {
          if (!given(b, 'taxable_amount')) return { ...b, taxable_amount: '' } // totals.ts skips its checks
          if (given(b, 'tax_amount')) return b
          return { ...b, tax_amount: decimalText(vatAmount(amount(b.taxable_amount)!, amount(b.rate))) }
        }),
    }),
    totals: Object.fromEntries(
      Object.entries(invoice.totals ?? {}).filter(([, v]) => amount(v) !== undefined),
    ) as NonNullable<Invoice['totals']>,
  }
  return copy
}
