import type { Invoice } from '../model/invoice-schema.ts'
import { each, invoiceRule, mandatory, present, type Rule } from './rule.ts'

// XRechnung 3.0's national rules (BR-DE-*) that the model can decide; XRECHNUNG only. BR-DE-21
// (the specification identifier) is the profile's to write.

const XR = ['XRECHNUNG'] as const
type Payment = NonNullable<Invoice['payment']>
const only = { profiles: XR }
/** payment means codes (UNTDID 4461) and the one payment group each needs (BR-DE-23 ... 25) */
const MEANS_GROUPS: readonly [string, readonly string[], 'credit_transfers' | 'card' | 'direct_debit'][] = [
  ['BR-DE-23', ['30', '58'], 'credit_transfers'],
  ['BR-DE-24', ['48', '54', '55'], 'card'],
  ['BR-DE-25', ['59'], 'direct_debit'],
]
const GROUPS = ['credit_transfers', 'card', 'direct_debit'] as const
const TYPE_CODES = ['326', '380', '384', '389', '381', '875', '876', '877']
const TAXED_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'L', 'M']

export const XRECHNUNG_RULES: readonly Rule[] = [
  mandatory('BR-DE-1', 'payment', 'An XRechnung shall contain the payment instructions (BG-16)', XR),
  mandatory('BR-DE-2', 'seller.contact', 'An XRechnung shall contain the seller contact (BG-6)', XR),
  mandatory('BR-DE-3', 'seller.address.city', 'An XRechnung shall contain the seller city (BT-37)', XR),
  mandatory(
    'BR-DE-4',
    'seller.address.post_code',
    'An XRechnung shall contain the seller post code (BT-38)',
    XR,
  ),
  mandatory(
    'BR-DE-5',
    'seller.contact.name',
    'An XRechnung shall contain the seller contact point (BT-41)',
    XR,
  ),
  mandatory(
    'BR-DE-6',
    'seller.contact.phone',
    'An XRechnung shall contain the seller contact telephone number (BT-42)',
    XR,
  ),
  mandatory(
    'BR-DE-7',
    'seller.contact.email',
    'An XRechnung shall contain the seller contact email address (BT-43)',
    XR,
  ),
  mandatory('BR-DE-8', 'buyer.address.city', 'An XRechnung shall contain the buyer city (BT-52)', XR),
  mandatory(
    'BR-DE-9',
    'buyer.address.post_code',
    'An XRechnung shall contain the buyer post code (BT-53)',
    XR,
  ),
  mandatory(
    'BR-DE-10',
    'delivery.address.city',
    'An XRechnung deliver to address (BG-15) shall contain the deliver to city (BT-77)',
    XR,
  ),
  mandatory(
    'BR-DE-11',
    'delivery.address.post_code',
    'An XRechnung deliver to address (BG-15) shall contain the deliver to post code (BT-78)',
    XR,
  ),
  mandatory(
    'BR-DE-14',
    'vat_breakdown[].rate',
    'An XRechnung VAT breakdown (BG-23) shall contain the VAT category rate (BT-119)',
    XR,
  ),
  mandatory(
    'BR-DE-15',
    'buyer_reference',
    'An XRechnung shall contain the buyer reference (BT-10, the Leitweg-ID)',
    XR,
  ),
  invoiceRule(
    'BR-DE-16',
    'seller.vat_id',
    'seller/vat_id',
    'An XRechnung with a VAT category S, Z, E, AE, K, G, L or M shall contain the seller VAT identifier (BT-31), the seller tax registration identifier (BT-32) or the seller tax representative (BG-11)',
    (i) =>
      !(i.vat_breakdown ?? []).some((b) => TAXED_CATEGORIES.includes(b.category)) ||
      present(i.seller?.vat_id) ||
      present(i.seller?.tax_registration_id) ||
      present(i.tax_representative),
    only,
  ),
  invoiceRule(
    'BR-DE-17',
    'type_code',
    'type_code',
    `An XRechnung invoice type code (BT-3) shall be one of ${TYPE_CODES.join(', ')}`,
    (i) => !present(i.type_code) || TYPE_CODES.includes(i.type_code),
    only,
  ),
  invoiceRule(
    'BR-DE-22',
    'attachments',
    'attachments',
    'The filenames of attached documents (BT-125) shall be unique in an XRechnung',
    (i) => {
      const names = (i.attachments ?? []).flatMap((a) => (a.content ? [a.content.filename] : []))
      return new Set(names).size === names.length
    },
    only,
  ),
  ...MEANS_GROUPS.map(([id, codes, group]) =>
    each<Payment>(
      id,
      'payment',
      `With payment means ${codes.join(', ')} (BT-81) an XRechnung shall contain the ${group.replace('_', ' ')} group and no other payment group`,
      (p) => !codes.includes(p.means_code) || GROUPS.every((g) => present(p[g]) === (g === group)),
      { at: group, profiles: XR },
    ),
  ),
  invoiceRule(
    'BR-DE-26',
    'preceding_invoices',
    'preceding_invoices',
    'A corrected invoice (BT-3 = 384) should reference the preceding invoice (BG-3)',
    (i) => i.type_code !== '384' || present(i.preceding_invoices),
    { ...only, severity: 'warning' },
  ),
  mandatory(
    'BR-DE-30',
    'payment.direct_debit.creditor_id',
    'With direct debit (BG-19) an XRechnung shall contain the bank assigned creditor identifier (BT-90)',
    XR,
  ),
  mandatory(
    'BR-DE-31',
    'payment.direct_debit.debited_account_id',
    'With direct debit (BG-19) an XRechnung shall contain the debited account identifier (BT-91)',
    XR,
  ),
]
