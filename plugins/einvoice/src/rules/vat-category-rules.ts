import { compare, divide, multiply, parseDecimal, subtract } from '../model/decimal.ts'
import type { Invoice } from '../model/invoice-schema.ts'
import { amount, each, invoiceRule, isNegative, isZeroAmount, present, type Rule } from './rule.ts'

// The VAT category rules of EN 16931, one family per category code (UNTDID 5305): BR-S-* for
// S, BR-Z-* for Z, ... BR-IP-* for M. Families share their numbering: 01 the breakdown the
// category needs, 02–04 the VAT identifiers an item, allowance or charge of it needs, 05–07 its
// rate, 09 the breakdown's tax amount, 10 its exemption reason. The taxable amounts (08) are
// checked by totals.ts with the other calculations.

type Party = Pick<Invoice, 'seller' | 'buyer' | 'tax_representative'>
type Taxed = { vat_category?: string; vat_rate?: string }
type Breakdown = NonNullable<Invoice['vat_breakdown']>[number]

interface Family {
  code: string
  rules: string
  title: string
  /** BR-x-01: Z, E, AE, K, G and O need exactly one breakdown of their category, S, L, M at least one */
  exactlyOne: boolean
  /** BR-x-02 ... 04 */
  identified: (i: Party) => boolean
  identifiedText: string
  /** BR-x-05 ... 07 */
  rate: 'positive' | 'zero' | 'absent' | 'not negative'
  /** BR-x-09: the tax amount is taxable × rate (S, L, M) or zero */
  taxed: boolean
  /** BR-x-10: an exemption reason (code or text) is required, or forbidden */
  exemption: 'required' | 'forbidden'
}

const sellerVat = (i: Party) => present(i.seller?.vat_id) || present(i.tax_representative?.vat_id)
const sellerTax = (i: Party) => sellerVat(i) || present(i.seller?.tax_registration_id)
const SELLER_TAX_TEXT =
  'the seller VAT identifier (BT-31), the seller tax registration identifier (BT-32) or the seller tax representative VAT identifier (BT-63)'
const SELLER_VAT_TEXT =
  'the seller VAT identifier (BT-31) or the seller tax representative VAT identifier (BT-63)'

/** IGIC and IPSI: the Spanish territories' taxes, rated like S but also at zero */
const spanishTerritory = (code: string, rules: string, title: string): Family => ({
  code,
  rules,
  title,
  exactlyOne: false,
  identified: sellerTax,
  identifiedText: SELLER_TAX_TEXT,
  rate: 'not negative',
  taxed: true,
  exemption: 'forbidden',
})

const FAMILIES: readonly Family[] = [
  {
    code: 'S',
    rules: 'S',
    title: 'Standard rated',
    exactlyOne: false,
    identified: sellerTax,
    identifiedText: SELLER_TAX_TEXT,
    rate: 'positive',
    taxed: true,
    exemption: 'forbidden',
  },
  {
    code: 'Z',
    rules: 'Z',
    title: 'Zero rated',
    exactlyOne: true,
    identified: sellerTax,
    identifiedText: SELLER_TAX_TEXT,
    rate: 'zero',
    taxed: false,
    exemption: 'forbidden',
  },
  {
    code: 'E',
    rules: 'E',
    title: 'Exempt from VAT',
    exactlyOne: true,
    identified: sellerTax,
    identifiedText: SELLER_TAX_TEXT,
    rate: 'zero',
    taxed: false,
    exemption: 'required',
  },
  {
    code: 'AE',
    rules: 'AE',
    title: 'Reverse charge',
    exactlyOne: true,
    identified: (i) => sellerTax(i) && (present(i.buyer?.vat_id) || present(i.buyer?.legal_registration_id)),
    identifiedText: `${SELLER_TAX_TEXT}, and the buyer VAT identifier (BT-48) or the buyer legal registration identifier (BT-47)`,
    rate: 'zero',
    taxed: false,
    exemption: 'required',
  },
  {
    code: 'K',
    rules: 'IC',
    title: 'Intra-community supply',
    exactlyOne: true,
    identified: (i) => sellerVat(i) && present(i.buyer?.vat_id),
    identifiedText: `${SELLER_VAT_TEXT}, and the buyer VAT identifier (BT-48)`,
    rate: 'zero',
    taxed: false,
    exemption: 'required',
  },
  {
    code: 'G',
    rules: 'G',
    title: 'Export outside the EU',
    exactlyOne: true,
    identified: sellerVat,
    identifiedText: SELLER_VAT_TEXT,
    rate: 'zero',
    taxed: false,
    exemption: 'required',
  },
  {
    code: 'O',
    rules: 'O',
    title: 'Not subject to VAT',
    exactlyOne: true,
    identified: (i) => !sellerVat(i) && !present(i.buyer?.vat_id),
    identifiedText:
      'none of the seller VAT identifier (BT-31), the seller tax representative VAT identifier (BT-63) and the buyer VAT identifier (BT-48)',
    rate: 'absent',
    taxed: false,
    exemption: 'required',
  },
  spanishTerritory('L', 'IG', 'IGIC (Canary Islands)'),
  spanishTerritory('M', 'IP', 'IPSI (Ceuta and Melilla)'),
]

const RATE_TEXT = {
  positive: 'shall be greater than zero',
  zero: 'shall be 0 (zero)',
  absent: 'shall not be given',
  'not negative': 'shall be 0 (zero) or greater',
} as const

function rateHolds(kind: Family['rate'], rate: unknown): boolean {
  const value = amount(rate)
  if (kind === 'absent') return !present(rate)
  if (kind === 'positive') return value !== undefined && !isNegative(value) && !isZeroAmount(value)
  if (kind === 'zero') return isZeroAmount(value)
  return value !== undefined && !isNegative(value)
}

const ITEMS = [
  ['lines[]', 'an invoice line', 'BT-151', 'BT-152', '02', '05'],
  ['allowances[]', 'a document level allowance', 'BT-95', 'BT-96', '03', '06'],
  ['charges[]', 'a document level charge', 'BT-102', 'BT-103', '04', '07'],
] as const

const usesCategory = (i: Invoice, code: string) =>
  [...(i.lines ?? []), ...(i.allowances ?? []), ...(i.charges ?? [])].some((x) => x.vat_category === code)

const HUNDRED = parseDecimal('100')
const ONE = parseDecimal('1')
const MINUS_ONE = parseDecimal('-1')

function familyRules(f: Family): Rule[] {
  const id = (n: string) => `BR-${f.rules}-${n}`
  const of = (x: Taxed) => x.vat_category !== f.code
  const breakdowns = (i: Invoice) => (i.vat_breakdown ?? []).filter((b) => b.category === f.code).length
  const rules: Rule[] = [
    invoiceRule(
      id('01'),
      'vat_breakdown',
      'vat_breakdown',
      `An invoice with a line, document level allowance or charge of VAT category "${f.title}" (${f.code}) shall contain ${f.exactlyOne ? 'exactly one VAT breakdown (BG-23)' : 'at least one VAT breakdown (BG-23)'} with that category`,
      (i) => !usesCategory(i, f.code) || (f.exactlyOne ? breakdowns(i) === 1 : breakdowns(i) >= 1),
    ),
  ]
  for (const [path, what, category, rate, idNumber, rateNumber] of ITEMS) {
    const field = `${path}.vat_category`
    rules.push(
      each<Taxed>(
        id(idNumber),
        path,
        `An invoice with ${what} of VAT category "${f.title}" (${category} = ${f.code}) shall contain ${f.identifiedText}`,
        (x, i) => of(x) || f.identified(i),
        { field, at: 'vat_category' },
      ),
      each<Taxed>(
        id(rateNumber),
        path,
        `In ${what} of VAT category "${f.title}" (${category} = ${f.code}) the VAT rate (${rate}) ${RATE_TEXT[f.rate]}`,
        (x) => of(x) || rateHolds(f.rate, x.vat_rate),
        { field: `${path}.vat_rate`, at: 'vat_rate' },
      ),
    )
  }
  rules.push(
    each<Breakdown>(
      id('09'),
      'vat_breakdown[]',
      f.taxed
        ? `The VAT category tax amount (BT-117) of a "${f.title}" breakdown shall equal its taxable amount (BT-116) × its rate (BT-119) ÷ 100, rounded to two decimals (within one currency unit)`
        : `The VAT category tax amount (BT-117) of a "${f.title}" breakdown shall be 0 (zero)`,
      (b) => b.category !== f.code || taxHolds(f, b),
      { at: 'tax_amount' },
    ),
    each<Breakdown>(
      id('10'),
      'vat_breakdown[]',
      f.exemption === 'required'
        ? `A "${f.title}" VAT breakdown shall have a VAT exemption reason code (BT-121) or text (BT-120)`
        : `A "${f.title}" VAT breakdown shall not have a VAT exemption reason code (BT-121) or text (BT-120)`,
      (b) =>
        b.category !== f.code ||
        (present(b.exemption_reason) || present(b.exemption_reason_code)) === (f.exemption === 'required'),
      { at: 'exemption_reason' },
    ),
  )
  return rules
}

function taxHolds(f: Family, b: Breakdown): boolean {
  const tax = amount(b.tax_amount)
  if (tax === undefined) return true // BR-46 reports it
  if (!f.taxed) return isZeroAmount(tax)
  const taxable = amount(b.taxable_amount)
  const rate = amount(b.rate)
  if (taxable === undefined || rate === undefined) return true // BR-45, BR-48
  // one currency unit of difference is accepted, as BR-CO-17 accepts it (totals.ts)
  const difference = subtract(tax, divide(multiply(taxable, rate), HUNDRED, 2))
  return compare(difference, ONE) <= 0 && compare(difference, MINUS_ONE) >= 0
}

const notO = (x: Taxed) => x.vat_category === 'O'
const hasO = (i: Invoice) => (i.vat_breakdown ?? []).some((b) => b.category === 'O')

/** Rules only one category has: the intra-community supply's delivery, "not subject to VAT" alone. */
const CATEGORY_SPECIFIC: readonly Rule[] = [
  invoiceRule(
    'BR-IC-11',
    'delivery.date',
    'delivery/date',
    'An invoice with an "Intra-community supply" VAT breakdown shall have the actual delivery date (BT-72) or the invoicing period (BG-14)',
    (i) =>
      !(i.vat_breakdown ?? []).some((b) => b.category === 'K') ||
      present(i.delivery?.date) ||
      present(i.invoicing_period),
  ),
  invoiceRule(
    'BR-IC-12',
    'delivery.address.country',
    'delivery/address/country',
    'An invoice with an "Intra-community supply" VAT breakdown shall have the deliver to country code (BT-80)',
    (i) => !(i.vat_breakdown ?? []).some((b) => b.category === 'K') || present(i.delivery?.address?.country),
  ),
  invoiceRule(
    'BR-O-11',
    'vat_breakdown',
    'vat_breakdown',
    'An invoice with a "Not subject to VAT" (O) VAT breakdown shall not contain other VAT breakdowns',
    (i) => !hasO(i) || (i.vat_breakdown ?? []).every((b) => b.category === 'O'),
  ),
  each<Taxed>(
    'BR-O-12',
    'lines[]',
    'In an invoice with a "Not subject to VAT" (O) VAT breakdown every invoice line shall have the VAT category code (BT-151) O',
    (x, i) => !hasO(i) || notO(x),
    { field: 'lines[].vat_category', at: 'vat_category' },
  ),
  each<Taxed>(
    'BR-O-13',
    'allowances[]',
    'In an invoice with a "Not subject to VAT" (O) VAT breakdown every document level allowance shall have the VAT category code (BT-95) O',
    (x, i) => !hasO(i) || notO(x),
    { at: 'vat_category' },
  ),
  each<Taxed>(
    'BR-O-14',
    'charges[]',
    'In an invoice with a "Not subject to VAT" (O) VAT breakdown every document level charge shall have the VAT category code (BT-102) O',
    (x, i) => !hasO(i) || notO(x),
    { at: 'vat_category' },
  ),
]

export const VAT_CATEGORY_RULES: readonly Rule[] = [...FAMILIES.flatMap(familyRules), ...CATEGORY_SPECIFIC]
