import type { Finding } from '@docsvc/core/sdk'
import {
  add,
  compare,
  type Decimal,
  decimalText,
  divide,
  multiply,
  normalized,
  parseDecimal,
  round,
  subtract,
  sum,
  ZERO,
} from './decimal.ts'
import type { Amount, Invoice, InvoiceLine } from './invoice-schema.ts'

// EN 16931's calculation rules (BR-CO-10 ... BR-CO-17 and the VAT category rules BR-x-08),
// in exact decimals: each total is computed from what it sums when that is given, then compared
// with the total the sender gave (a difference is an error finding with its rule id and a JSON
// Pointer), or filled in when the sender gave none. Computed amounts have two decimals.

const HUNDRED = parseDecimal('100')
const ONE = parseDecimal('1')
const abs = (d: Decimal): Decimal => (d.units < 0n ? { ...d, units: -d.units } : d)

/** VAT category code (UNTDID 5305) → the letters of its EN 16931 rule family (BR-S-08, BR-IC-08...). */
const CATEGORY_RULES: Record<string, string> = {
  S: 'S',
  Z: 'Z',
  E: 'E',
  AE: 'AE',
  K: 'IC',
  G: 'G',
  O: 'O',
  L: 'IG',
  M: 'IP',
}

export interface CompletedInvoice {
  invoice: Invoice
  findings: Finding[]
}

const dec = (value: Amount | undefined): Decimal | undefined =>
  value === undefined ? undefined : parseDecimal(value)
const money = (value: Decimal): string => decimalText(round(value, 2))

/** BT-131: quantity × (net price ÷ base quantity) + line charges − line allowances, to the cent. */
export function lineNetAmount(line: InvoiceLine): Decimal {
  const price = divide(
    multiply(parseDecimal(line.quantity), parseDecimal(line.net_price)),
    dec(line.base_quantity) ?? ONE,
    2,
  )
  const charges = sum((line.charges ?? []).map((c) => parseDecimal(c.amount)))
  const allowances = sum((line.allowances ?? []).map((a) => parseDecimal(a.amount)))
  return subtract(add(price, charges), allowances)
}

/** BT-117 for one breakdown entry: taxable amount × rate ÷ 100, rounded to the cent (BR-CO-17). */
export function vatAmount(taxable: Decimal, rate: Decimal | undefined): Decimal {
  return rate === undefined ? ZERO : divide(multiply(taxable, rate), HUNDRED, 2)
}

interface VatGroup {
  category: string
  rate: Decimal | undefined
  taxable: Decimal
}

const groupKey = (category: string, rate: Decimal | undefined) =>
  `${category}|${rate === undefined ? '' : decimalText(normalized(rate))}`

/** BT-116 per VAT category and rate: line net amounts + document charges − document allowances. */
function vatGroups(invoice: Invoice, lineNets: readonly Decimal[]): Map<string, VatGroup> {
  const groups = new Map<string, VatGroup>()
  const addTo = (category: string, rateValue: Amount | undefined, amount: Decimal) => {
    const rate = dec(rateValue)
    const key = groupKey(category, rate)
    const group = groups.get(key) ?? { category, rate, taxable: ZERO }
    groups.set(key, { ...group, taxable: add(group.taxable, amount) })
  }
  for (const [i, line] of (invoice.lines ?? []).entries())
    addTo(line.vat_category, line.vat_rate, lineNets[i]!)
  for (const c of invoice.charges ?? []) addTo(c.vat_category, c.vat_rate, parseDecimal(c.amount))
  for (const a of invoice.allowances ?? [])
    addTo(a.vat_category, a.vat_rate, subtract(ZERO, parseDecimal(a.amount)))
  return groups
}

/**
 * The invoice with line net amounts, VAT breakdown and totals filled in where not given, and
 * the findings where a given value differs from what it must be.
 */
export function completeInvoice(invoice: Invoice): CompletedInvoice {
  const findings: Finding[] = []
  const mismatch = (ruleId: string, location: string, given: Decimal, expected: Decimal, what: string) => {
    if (compare(given, expected) !== 0)
      findings.push({
        ruleId,
        severity: 'error',
        location,
        message: `${what} is ${decimalText(given)} but must be ${decimalText(expected)}`,
      })
  }
  const lines = invoice.lines ?? []
  const hasLines = lines.length > 0
  const lineNets = lines.map((line) => dec(line.net_amount) ?? lineNetAmount(line))
  const completedLines = lines.map((line, i) =>
    line.net_amount === undefined ? { ...line, net_amount: money(lineNets[i]!) } : line,
  )

  // VAT breakdown (BG-23): computed from the lines; a given one is checked entry by entry
  const groups = hasLines ? vatGroups(invoice, lineNets) : undefined
  let breakdown = invoice.vat_breakdown
  if (breakdown) {
    breakdown.forEach((entry, i) => {
      // blank only in a read invoice's computable copy (rules/computable.ts): nothing to check
      // this entry against, its tax amount still counts for BT-110 (BR-CO-14)
      if (entry.taxable_amount === '') return
      const taxable = parseDecimal(entry.taxable_amount)
      const rate = dec(entry.rate)
      // BR-CO-17 accepts a difference of up to one currency unit (the EN 16931 validation
      // artefacts since 1.3: -72.50 at 19 % may be -12.78 ... -14.78), e.g. forint amounts
      // rounded to whole units; a larger one is an error
      const expectedTax = vatAmount(taxable, rate)
      const given = parseDecimal(entry.tax_amount)
      if (compare(abs(subtract(given, expectedTax)), ONE) > 0)
        mismatch(
          'BR-CO-17',
          `/vat_breakdown/${i}/tax_amount`,
          given,
          expectedTax,
          'VAT category tax amount (BT-117)',
        )
      const group = groups?.get(groupKey(entry.category, rate))
      if (groups && group) {
        const family = CATEGORY_RULES[entry.category]
        if (family)
          mismatch(
            `BR-${family}-08`,
            `/vat_breakdown/${i}/taxable_amount`,
            taxable,
            group.taxable,
            `VAT category taxable amount (BT-116) of ${entry.category}`,
          )
      }
    })
  } else if (groups) {
    breakdown = [...groups.values()].map((g) => ({
      taxable_amount: money(g.taxable),
      tax_amount: money(vatAmount(g.taxable, g.rate)),
      category: g.category,
      ...(g.rate === undefined ? {} : { rate: decimalText(normalized(g.rate)) }),
    }))
  }

  const given = invoice.totals ?? {}
  const totals: Record<string, string> = {}
  const total = (
    key: keyof NonNullable<Invoice['totals']>,
    ruleId: string,
    what: string,
    computed: Decimal | undefined,
  ) => {
    const value = dec(given[key])
    if (value !== undefined && computed !== undefined)
      mismatch(ruleId, `/totals/${key}`, value, computed, what)
    const result = value ?? (computed === undefined ? undefined : round(computed, 2))
    if (given[key] !== undefined) totals[key] = String(given[key])
    else if (result !== undefined) totals[key] = decimalText(result)
    return result
  }
  const lineTotal = total(
    'line_total',
    'BR-CO-10',
    'Sum of invoice line net amount (BT-106)',
    hasLines ? sum(lineNets) : undefined,
  )
  const allowanceTotal = total(
    'allowance_total',
    'BR-CO-11',
    'Sum of allowances on document level (BT-107)',
    invoice.allowances ? sum(invoice.allowances.map((a) => parseDecimal(a.amount))) : undefined,
  )
  const chargeTotal = total(
    'charge_total',
    'BR-CO-12',
    'Sum of charges on document level (BT-108)',
    invoice.charges ? sum(invoice.charges.map((c) => parseDecimal(c.amount))) : undefined,
  )
  const taxExclusive = total(
    'tax_exclusive',
    'BR-CO-13',
    'Invoice total amount without VAT (BT-109)',
    lineTotal === undefined
      ? undefined
      : add(subtract(lineTotal, allowanceTotal ?? ZERO), chargeTotal ?? ZERO),
  )
  const vatTotal = total(
    'vat_total',
    'BR-CO-14',
    'Invoice total VAT amount (BT-110)',
    breakdown ? sum(breakdown.map((b) => parseDecimal(b.tax_amount))) : undefined,
  )
  if (given.vat_total_tax_currency !== undefined)
    totals.vat_total_tax_currency = String(given.vat_total_tax_currency)
  const taxInclusive = total(
    'tax_inclusive',
    'BR-CO-15',
    'Invoice total amount with VAT (BT-112)',
    taxExclusive === undefined || vatTotal === undefined ? undefined : add(taxExclusive, vatTotal),
  )
  const prepaid = dec(given.prepaid)
  const rounding = dec(given.rounding)
  if (given.prepaid !== undefined) totals.prepaid = String(given.prepaid)
  if (given.rounding !== undefined) totals.rounding = String(given.rounding)
  total(
    'due_payable',
    'BR-CO-16',
    'Amount due for payment (BT-115)',
    taxInclusive === undefined ? undefined : add(subtract(taxInclusive, prepaid ?? ZERO), rounding ?? ZERO),
  )

  const completed: Invoice = { ...invoice, totals }
  if (hasLines) completed.lines = completedLines
  if (breakdown) completed.vat_breakdown = breakdown
  return { invoice: completed, findings }
}

/**
 * BT-148 when only BT-147 is given: gross = net + discount (EN 16931: BT-146 = BT-148 − BT-147).
 * CII can only carry a price discount inside the gross price.
 */
export function grossPriceOf(line: InvoiceLine): string | undefined {
  if (line.gross_price !== undefined) return String(line.gross_price)
  if (line.price_discount === undefined) return undefined
  return decimalText(add(parseDecimal(line.net_price), parseDecimal(line.price_discount)))
}
