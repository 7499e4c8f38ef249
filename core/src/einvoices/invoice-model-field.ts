import { Type } from 'typebox'

// The `invoice` field of POST /v1/einvoices and of a render's `output.einvoice`: one description
// and example. Its own schema is the profile's, checked when the render is created.

const EXAMPLE_INVOICE = {
  number: 'RE-2026-0042',
  issue_date: '2026-03-01',
  type_code: '380',
  currency: 'EUR',
  seller: { name: 'Muster GmbH', vat_id: 'DE123456789', address: { country: 'DE' } },
  buyer: { name: 'Beispiel AG', address: { country: 'DE' } },
  lines: [
    {
      id: '1',
      name: 'Consulting',
      quantity: '2',
      unit: 'HUR',
      net_price: '100.00',
      vat_category: 'S',
      vat_rate: '19',
    },
  ],
}

/** `example`: a JSON Pointer to one of its fields as the request sends it */
export const invoiceModelField = (example: string) =>
  Type.Record(Type.String(), Type.Unknown(), {
    description: `The invoice model: EN 16931 business terms (seller, buyer, lines, VAT breakdown, totals), as the profile defines them; see the e-invoice model reference. Problems point into it (\`${example}\`).`,
    examples: [EXAMPLE_INVOICE],
  })
