import type { Invoice } from '../model/invoice-schema.ts'
import {
  amount,
  each,
  invoiceRule,
  isNegative,
  isZeroAmount,
  mandatory,
  type Period,
  present,
  type Reasoned,
  type Rule,
  hasReason as reasoned,
} from './rule.ts'

// EN 16931's co-occurrence rules (BR-CO-*) other than the calculations BR-CO-10 ... BR-CO-17,
// which totals.ts checks while completing the model.

const bounded = (p: Period) => present(p.start) || present(p.end)
/** UNTDID 1001 credit note codes: BR-CO-25 is about what an invoice asks to be paid */
const CREDIT_NOTES = ['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']
/** an ISO 3166-1 alpha-2 prefix; Greece uses EL in VAT identifiers */
const countryPrefixed = (id: unknown) => !present(id) || /^[A-Z]{2}/.test(String(id).trim())

export const CO_OCCURRENCE_RULES: readonly Rule[] = [
  invoiceRule(
    'BR-CO-03',
    'tax_point_code',
    'tax_point_code',
    'The value added tax point date (BT-7) and its code (BT-8) are mutually exclusive',
    (i) => !(present(i.tax_point_date) && present(i.tax_point_code)),
  ),
  mandatory(
    'BR-CO-04',
    'lines[].vat_category',
    'Each invoice line (BG-25) shall be categorized with an invoiced item VAT category code (BT-151)',
  ),
  each<Invoice['seller']>(
    'BR-CO-09',
    'seller',
    'The seller VAT identifier (BT-31) shall have a prefix in accordance with ISO 3166-1 alpha-2 by which the country of issue may be identified',
    (s) => countryPrefixed(s.vat_id),
    { field: 'seller.vat_id', at: 'vat_id' },
  ),
  each<Invoice['buyer']>(
    'BR-CO-09',
    'buyer',
    'The buyer VAT identifier (BT-48) shall have a prefix in accordance with ISO 3166-1 alpha-2',
    (b) => countryPrefixed(b.vat_id),
    { field: 'buyer.vat_id', at: 'vat_id' },
  ),
  each<{ vat_id?: string }>(
    'BR-CO-09',
    'tax_representative',
    'The seller tax representative VAT identifier (BT-63) shall have a prefix in accordance with ISO 3166-1 alpha-2',
    (t) => countryPrefixed(t.vat_id),
    { field: 'tax_representative.vat_id', at: 'vat_id' },
  ),
  mandatory(
    'BR-CO-18',
    'vat_breakdown',
    'An invoice shall at least have one VAT breakdown group (BG-23): give it, or give the lines it is computed from',
  ),
  each<Period>(
    'BR-CO-19',
    'invoicing_period',
    'When the invoicing period (BG-14) is used, its start date (BT-73) or its end date (BT-74) or both shall be filled',
    bounded,
  ),
  each<Period>(
    'BR-CO-20',
    'lines[].period',
    'When the invoice line period (BG-26) is used, its start date (BT-134) or its end date (BT-135) or both shall be filled',
    bounded,
  ),
  each<Reasoned>(
    'BR-CO-21',
    'allowances[]',
    'Each document level allowance (BG-20) shall contain a reason (BT-97) or a reason code (BT-98), or both',
    reasoned,
    { at: 'reason' },
  ),
  each<Reasoned>(
    'BR-CO-22',
    'charges[]',
    'Each document level charge (BG-21) shall contain a reason (BT-104) or a reason code (BT-105), or both',
    reasoned,
    { at: 'reason' },
  ),
  each<Reasoned>(
    'BR-CO-23',
    'lines[].allowances[]',
    'Each invoice line allowance (BG-27) shall contain a reason (BT-139) or a reason code (BT-140), or both',
    reasoned,
    { at: 'reason' },
  ),
  each<Reasoned>(
    'BR-CO-24',
    'lines[].charges[]',
    'Each invoice line charge (BG-28) shall contain a reason (BT-144) or a reason code (BT-145), or both',
    reasoned,
    { at: 'reason' },
  ),
  invoiceRule(
    'BR-CO-25',
    'due_date',
    'due_date',
    'When the amount due for payment (BT-115) of an invoice (not a credit note) is positive, the payment due date (BT-9) or the payment terms (BT-20) shall be present',
    (i) => {
      const due = amount(i.totals?.due_payable)
      return (
        CREDIT_NOTES.includes(i.type_code) ||
        due === undefined ||
        isNegative(due) ||
        isZeroAmount(due) ||
        present(i.due_date) ||
        present(i.payment_terms)
      )
    },
  ),
  invoiceRule(
    'BR-CO-26',
    'seller',
    'seller',
    'To identify the seller, the seller identifier (BT-29), the seller legal registration identifier (BT-30) or the seller VAT identifier (BT-31) shall be present',
    (i) =>
      present(i.seller?.identifiers) || present(i.seller?.legal_registration_id) || present(i.seller?.vat_id),
  ),
]
