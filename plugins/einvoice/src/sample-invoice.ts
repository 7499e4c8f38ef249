import type { Invoice } from './model/invoice-schema.ts'
import type { ProfileId } from './model/profile-matrix.ts'

/** An XRechnung-complete invoice without totals (they are computed), for tests and examples. */
export const SAMPLE_INVOICE: Invoice = {
  number: 'RE-2026-0001',
  issue_date: '2026-11-25',
  type_code: '380',
  currency: 'EUR',
  due_date: '2026-12-09',
  buyer_reference: '04011000-12345-34',
  order_reference: 'PO-4711',
  payment_terms: 'Zahlbar innerhalb von 14 Tagen',
  notes: [{ subject_code: 'AAI', text: 'Danke für Ihren Auftrag & Ihr Vertrauen <3' }],
  seller: {
    name: 'Muster GmbH',
    vat_id: 'DE123456789',
    legal_registration_id: { id: 'HRB 12345' },
    electronic_address: { id: 'billing@muster.example', scheme: 'EM' },
    address: { line1: 'Hauptstraße 1', city: 'Berlin', post_code: '10115', country: 'DE' },
    contact: { name: 'Erika Muster', phone: '+49 30 1234567', email: 'erika@muster.example' },
  },
  buyer: {
    name: 'Beispiel AG',
    electronic_address: { id: 'invoices@beispiel.example', scheme: 'EM' },
    address: { line1: 'Marktplatz 5', city: 'Hamburg', post_code: '20095', country: 'DE' },
  },
  delivery: { date: '2026-11-20' },
  payment: {
    means_code: '58',
    remittance_information: 'RE-2026-0001',
    credit_transfers: [{ account_id: 'DE02120300000000202051', account_name: 'Muster GmbH' }],
  },
  allowances: [
    { amount: '5.00', vat_category: 'S', vat_rate: '19', reason: 'Treuerabatt', reason_code: '95' },
  ],
  lines: [
    {
      id: '1',
      quantity: '3',
      unit: 'H87',
      net_price: '19.99',
      vat_category: 'S',
      vat_rate: '19',
      name: 'Widget',
    },
    {
      id: '2',
      quantity: '1.5',
      unit: 'HUR',
      net_price: '80',
      gross_price: '100',
      price_discount: '20',
      vat_category: 'S',
      vat_rate: '7',
      name: 'Beratung',
      description: 'Beratung vor Ort',
    },
  ],
}

/** What MINIMUM and BASIC_WL accept: the sample without what they do not carry. */
export const sampleInvoiceFor = (id: ProfileId) => {
  if (id === 'MINIMUM') {
    const { notes, payment, delivery, allowances, due_date, payment_terms, ...rest } = SAMPLE_INVOICE
    return {
      ...rest,
      seller: { name: rest.seller.name, vat_id: rest.seller.vat_id!, address: { country: 'DE' } },
      buyer: { name: rest.buyer.name },
    }
  }
  if (id === 'BASIC_WL' || id === 'BASIC') {
    const { seller, lines, payment, ...rest } = SAMPLE_INVOICE
    const { contact, ...sellerRest } = seller
    return {
      ...rest,
      seller: sellerRest,
      payment: { ...payment!, credit_transfers: [{ account_id: 'DE02120300000000202051' }] },
      lines: lines!.map(({ description, ...l }) => l),
    }
  }
  return SAMPLE_INVOICE
}
