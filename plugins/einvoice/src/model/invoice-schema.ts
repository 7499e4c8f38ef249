import { type Static, type TSchema, Type } from 'typebox'
import { code, date, decimal, group, identifier, list, text } from './field-kinds.ts'

// The syntax-neutral invoice model: EN 16931 (EN 16931-1:2017) business groups and terms with
// names a developer reads. One schema for every profile; what each profile carries and requires
// is the field matrix (profile-matrix.ts), which derives each profile's schema from this one.

const Address = (g: string, t: readonly [string, string, string, string, string, string, string]) =>
  group(g, 'Postal address', {
    line1: Type.Optional(text(t[0], 'Address line 1', 'Hauptstraße 1')),
    line2: Type.Optional(text(t[1], 'Address line 2', 'Gebäude B')),
    line3: Type.Optional(text(t[2], 'Address line 3', '3. Stock')),
    city: Type.Optional(text(t[3], 'City', 'Berlin')),
    post_code: Type.Optional(text(t[4], 'Post code', '10115')),
    country_subdivision: Type.Optional(text(t[5], 'Country subdivision', 'Berlin')),
    country: code(t[6], 'Country code (ISO 3166-1 alpha-2)', 'DE'),
  })

const Contact = (g: string, t: readonly [string, string, string]) =>
  group(g, 'Contact', {
    name: Type.Optional(text(t[0], 'Contact point', 'Erika Muster')),
    phone: Type.Optional(text(t[1], 'Telephone number', '+49 30 1234567')),
    email: Type.Optional(text(t[2], 'Email address', 'billing@example.com')),
  })

const Seller = group('BG-4', 'Seller', {
  name: text('BT-27', 'Seller name', 'Muster GmbH'),
  trading_name: Type.Optional(text('BT-28', 'Seller trading name', 'Muster')),
  identifiers: Type.Optional(
    list('BT-29', 'Seller identifiers', identifier('BT-29', 'Seller identifier', '4000001123452', '0088')),
  ),
  legal_registration_id: Type.Optional(
    identifier('BT-30', 'Seller legal registration identifier', 'HRB 12345', '0002'),
  ),
  vat_id: Type.Optional(text('BT-31', 'Seller VAT identifier', 'DE123456789', 40)),
  tax_registration_id: Type.Optional(
    text('BT-32', 'Seller tax registration identifier', '201/113/40209', 40),
  ),
  additional_legal_info: Type.Optional(text('BT-33', 'Seller additional legal information', 'Sitz Berlin')),
  electronic_address: Type.Optional(
    identifier('BT-34', 'Seller electronic address', 'billing@example.com', 'EM'),
  ),
  address: Address('BG-5', ['BT-35', 'BT-36', 'BT-162', 'BT-37', 'BT-38', 'BT-39', 'BT-40']),
  contact: Type.Optional(Contact('BG-6', ['BT-41', 'BT-42', 'BT-43'])),
})

const Buyer = group('BG-7', 'Buyer', {
  name: text('BT-44', 'Buyer name', 'Beispiel AG'),
  trading_name: Type.Optional(text('BT-45', 'Buyer trading name', 'Beispiel')),
  identifier: Type.Optional(identifier('BT-46', 'Buyer identifier', '4000001987658', '0088')),
  legal_registration_id: Type.Optional(
    identifier('BT-47', 'Buyer legal registration identifier', 'HRB 54321', '0002'),
  ),
  vat_id: Type.Optional(text('BT-48', 'Buyer VAT identifier', 'DE987654321', 40)),
  electronic_address: Type.Optional(
    identifier('BT-49', 'Buyer electronic address', 'invoices@example.org', 'EM'),
  ),
  address: Type.Optional(Address('BG-8', ['BT-50', 'BT-51', 'BT-163', 'BT-52', 'BT-53', 'BT-54', 'BT-55'])),
  contact: Type.Optional(Contact('BG-9', ['BT-56', 'BT-57', 'BT-58'])),
})

const Payee = group('BG-10', 'Payee', {
  name: text('BT-59', 'Payee name', 'Factoring AG'),
  identifier: Type.Optional(identifier('BT-60', 'Payee identifier', '4000001555555', '0088')),
  legal_registration_id: Type.Optional(
    identifier('BT-61', 'Payee legal registration identifier', 'HRB 99999', '0002'),
  ),
})

const TaxRepresentative = group('BG-11', 'Seller tax representative party', {
  name: text('BT-62', 'Seller tax representative name', 'Steuer Vertreter GmbH'),
  vat_id: text('BT-63', 'Seller tax representative VAT identifier', 'DE111222333', 40),
  address: Address('BG-12', ['BT-64', 'BT-65', 'BT-164', 'BT-66', 'BT-67', 'BT-68', 'BT-69']),
})

const Period = (g: string, start: string, end: string, title: string) =>
  group(g, title, {
    start: Type.Optional(date(start, `${title}: start date`, '2026-11-01')),
    end: Type.Optional(date(end, `${title}: end date`, '2026-11-30')),
  })

const Delivery = group('BG-13', 'Delivery information', {
  party_name: Type.Optional(text('BT-70', 'Deliver to party name', 'Lager Nord')),
  location_id: Type.Optional(identifier('BT-71', 'Deliver to location identifier', '4000001000005', '0088')),
  date: Type.Optional(date('BT-72', 'Actual delivery date', '2026-11-20')),
  address: Type.Optional(Address('BG-15', ['BT-75', 'BT-76', 'BT-165', 'BT-77', 'BT-78', 'BT-79', 'BT-80'])),
})

const CreditTransfer = group('BG-17', 'Credit transfer', {
  account_id: text('BT-84', 'Payment account identifier (IBAN)', 'DE02120300000000202051', 60),
  account_name: Type.Optional(text('BT-85', 'Payment account name', 'Muster GmbH')),
  service_provider_id: Type.Optional(
    text('BT-86', 'Payment service provider identifier (BIC)', 'BYLADEM1001', 20),
  ),
})

const Payment = group('BG-16', 'Payment instructions', {
  means_code: code('BT-81', 'Payment means type code (UNTDID 4461)', '58'),
  means_text: Type.Optional(text('BT-82', 'Payment means text', 'SEPA credit transfer')),
  remittance_information: Type.Optional(text('BT-83', 'Remittance information', 'RE-2026-0001', 140)),
  credit_transfers: Type.Optional(list('BG-17', 'Credit transfers', CreditTransfer)),
  card: Type.Optional(
    group('BG-18', 'Payment card information', {
      account_number: text('BT-87', 'Payment card primary account number (last digits only)', '1234', 20),
      holder_name: Type.Optional(text('BT-88', 'Payment card holder name', 'Erika Muster')),
    }),
  ),
  direct_debit: Type.Optional(
    group('BG-19', 'Direct debit', {
      mandate_id: Type.Optional(text('BT-89', 'Mandate reference identifier', 'MANDATE-7')),
      creditor_id: Type.Optional(text('BT-90', 'Bank assigned creditor identifier', 'DE98ZZZ09999999999')),
      debited_account_id: Type.Optional(
        text('BT-91', 'Debited account identifier', 'DE02500105170137075030'),
      ),
    }),
  ),
})

/** BG-20/BG-21 (document) and BG-27/BG-28 (line) share a shape; the terms differ. */
const AllowanceCharge = <V extends Record<string, TSchema>>(
  g: string,
  title: string,
  t: { amount: string; base: string; percentage: string; reason: string; reasonCode: string },
  vat: V,
) =>
  group(g, title, {
    amount: decimal(t.amount, `${title}: amount`, '10.00'),
    base_amount: Type.Optional(decimal(t.base, `${title}: base amount`, '100.00')),
    percentage: Type.Optional(decimal(t.percentage, `${title}: percentage`, '10')),
    ...vat,
    reason: Type.Optional(text(t.reason, `${title}: reason`, 'Discount')),
    reason_code: Type.Optional(code(t.reasonCode, `${title}: reason code`, '95')),
  })

const documentVat = (title: string, category: string, rate: string) => ({
  vat_category: code(category, `${title}: VAT category code`, 'S'),
  vat_rate: Type.Optional(decimal(rate, `${title}: VAT rate`, '19')),
})

const DocumentAllowance = AllowanceCharge(
  'BG-20',
  'Document level allowance',
  { amount: 'BT-92', base: 'BT-93', percentage: 'BT-94', reason: 'BT-97', reasonCode: 'BT-98' },
  documentVat('Document level allowance', 'BT-95', 'BT-96'),
)
const DocumentCharge = AllowanceCharge(
  'BG-21',
  'Document level charge',
  { amount: 'BT-99', base: 'BT-100', percentage: 'BT-101', reason: 'BT-104', reasonCode: 'BT-105' },
  documentVat('Document level charge', 'BT-102', 'BT-103'),
)
const LineAllowance = AllowanceCharge(
  'BG-27',
  'Invoice line allowance',
  { amount: 'BT-136', base: 'BT-137', percentage: 'BT-138', reason: 'BT-139', reasonCode: 'BT-140' },
  {},
)
const LineCharge = AllowanceCharge(
  'BG-28',
  'Invoice line charge',
  { amount: 'BT-141', base: 'BT-142', percentage: 'BT-143', reason: 'BT-144', reasonCode: 'BT-145' },
  {},
)

const Totals = group('BG-22', 'Document totals (computed when not given, checked when given)', {
  line_total: Type.Optional(decimal('BT-106', 'Sum of invoice line net amount', '100.00')),
  allowance_total: Type.Optional(decimal('BT-107', 'Sum of allowances on document level', '0.00')),
  charge_total: Type.Optional(decimal('BT-108', 'Sum of charges on document level', '0.00')),
  tax_exclusive: Type.Optional(decimal('BT-109', 'Invoice total amount without VAT', '100.00')),
  vat_total: Type.Optional(decimal('BT-110', 'Invoice total VAT amount', '19.00')),
  vat_total_tax_currency: Type.Optional(
    decimal('BT-111', 'Invoice total VAT amount in accounting currency (BT-6)', '19.00'),
  ),
  tax_inclusive: Type.Optional(decimal('BT-112', 'Invoice total amount with VAT', '119.00')),
  prepaid: Type.Optional(decimal('BT-113', 'Paid amount', '0.00')),
  rounding: Type.Optional(decimal('BT-114', 'Rounding amount', '0.00')),
  due_payable: Type.Optional(decimal('BT-115', 'Amount due for payment', '119.00')),
})

const VatBreakdown = group(
  'BG-23',
  'VAT breakdown (computed from lines and document allowances/charges when not given)',
  {
    taxable_amount: decimal('BT-116', 'VAT category taxable amount', '100.00'),
    tax_amount: decimal('BT-117', 'VAT category tax amount', '19.00'),
    category: code('BT-118', 'VAT category code (UNTDID 5305)', 'S'),
    rate: Type.Optional(decimal('BT-119', 'VAT category rate', '19')),
    exemption_reason: Type.Optional(text('BT-120', 'VAT exemption reason text', 'Reverse charge')),
    exemption_reason_code: Type.Optional(code('BT-121', 'VAT exemption reason code (VATEX)', 'VATEX-EU-AE')),
  },
)

const Attachment = group('BG-24', 'Additional supporting document', {
  id: text('BT-122', 'Supporting document reference', 'TIMESHEET-11'),
  description: Type.Optional(text('BT-123', 'Supporting document description', 'Timesheet November')),
  uri: Type.Optional(text('BT-124', 'External document location', 'https://example.com/timesheet.pdf', 2000)),
  content: Type.Optional(
    group('BT-125', 'Attached document', {
      data: Type.String({
        maxLength: 20_000_000,
        description: 'BT-125 Attached document, base64',
        examples: ['JVBERi0xLjcK'],
        'x-term': 'BT-125',
      }),
      mime_code: text('BT-125-1', 'Attached document MIME code', 'application/pdf', 100),
      filename: text('BT-125-2', 'Attached document filename', 'timesheet.pdf', 200),
    }),
  ),
})

const Line = group('BG-25', 'Invoice line', {
  id: text('BT-126', 'Invoice line identifier', '1', 100),
  note: Type.Optional(text('BT-127', 'Invoice line note', 'Shipped in two parcels')),
  object_identifier: Type.Optional(identifier('BT-128', 'Invoice line object identifier', 'OBJ-1', 'AAA')),
  quantity: decimal('BT-129', 'Invoiced quantity', '2'),
  unit: code('BT-130', 'Invoiced quantity unit of measure (UN/ECE Rec 20/21)', 'H87'),
  net_amount: Type.Optional(decimal('BT-131', 'Invoice line net amount (computed when not given)', '19.90')),
  order_line_reference: Type.Optional(text('BT-132', 'Referenced purchase order line reference', '3', 100)),
  accounting_reference: Type.Optional(text('BT-133', 'Invoice line Buyer accounting reference', '4711')),
  period: Type.Optional(Period('BG-26', 'BT-134', 'BT-135', 'Invoice line period')),
  allowances: Type.Optional(list('BG-27', 'Invoice line allowances', LineAllowance)),
  charges: Type.Optional(list('BG-28', 'Invoice line charges', LineCharge)),
  net_price: decimal('BT-146', 'Item net price', '9.95'),
  price_discount: Type.Optional(decimal('BT-147', 'Item price discount', '0.05')),
  gross_price: Type.Optional(decimal('BT-148', 'Item gross price', '10.00')),
  base_quantity: Type.Optional(decimal('BT-149', 'Item price base quantity', '1')),
  base_quantity_unit: Type.Optional(code('BT-150', 'Item price base quantity unit of measure', 'H87')),
  vat_category: code('BT-151', 'Invoiced item VAT category code', 'S'),
  vat_rate: Type.Optional(decimal('BT-152', 'Invoiced item VAT rate', '19')),
  name: text('BT-153', 'Item name', 'Widget'),
  description: Type.Optional(text('BT-154', 'Item description', 'A blue widget', 10_000)),
  seller_item_id: Type.Optional(text('BT-155', "Item Seller's identifier", 'W-1', 200)),
  buyer_item_id: Type.Optional(text('BT-156', "Item Buyer's identifier", 'B-77', 200)),
  standard_item_id: Type.Optional(identifier('BT-157', 'Item standard identifier', '4000001123452', '0160')),
  classifications: Type.Optional(
    list(
      'BT-158',
      'Item classification identifiers',
      group('BT-158', 'Item classification identifier', {
        id: text('BT-158', 'Item classification identifier', '43211503', 200),
        scheme: code('BT-158-1', 'Item classification scheme (UNTDID 7143)', 'STI'),
        version: Type.Optional(text('BT-158-2', 'Scheme version', '19.0501', 40)),
      }),
    ),
  ),
  origin_country: Type.Optional(code('BT-159', 'Item country of origin', 'DE')),
  attributes: Type.Optional(
    list(
      'BG-32',
      'Item attributes',
      group('BG-32', 'Item attribute', {
        name: text('BT-160', 'Item attribute name', 'Colour'),
        value: text('BT-161', 'Item attribute value', 'Blue'),
      }),
    ),
  ),
})

export const InvoiceSchema = group('EN 16931', 'Invoice', {
  number: text('BT-1', 'Invoice number', 'RE-2026-0001', 200),
  issue_date: date('BT-2', 'Invoice issue date', '2026-11-25'),
  type_code: code('BT-3', 'Invoice type code (UNTDID 1001: 380 invoice, 381 credit note, ...)', '380'),
  currency: code('BT-5', 'Invoice currency code (ISO 4217)', 'EUR'),
  tax_currency: Type.Optional(code('BT-6', 'VAT accounting currency code', 'EUR')),
  tax_point_date: Type.Optional(date('BT-7', 'Value added tax point date', '2026-11-25')),
  tax_point_code: Type.Optional(code('BT-8', 'Value added tax point date code (UNTDID 2005)', '5')),
  due_date: Type.Optional(date('BT-9', 'Payment due date', '2026-12-09')),
  buyer_reference: Type.Optional(
    text('BT-10', 'Buyer reference (XRechnung: Leitweg-ID)', '04011000-12345-34', 200),
  ),
  project_reference: Type.Optional(
    group('BT-11', 'Project reference', {
      id: text('BT-11', 'Project reference', 'PRJ-9', 200),
      name: Type.Optional(text('BT-11-0', 'Project name (CII only; UBL carries the id)', 'Neubau')),
    }),
  ),
  contract_reference: Type.Optional(text('BT-12', 'Contract reference', 'CON-2026-3', 200)),
  order_reference: Type.Optional(text('BT-13', 'Purchase order reference', 'PO-4711', 200)),
  sales_order_reference: Type.Optional(text('BT-14', 'Sales order reference', 'SO-815', 200)),
  receiving_advice_reference: Type.Optional(text('BT-15', 'Receiving advice reference', 'RA-1', 200)),
  despatch_advice_reference: Type.Optional(text('BT-16', 'Despatch advice reference', 'DA-1', 200)),
  tender_reference: Type.Optional(text('BT-17', 'Tender or lot reference', 'LOT-2', 200)),
  invoiced_object: Type.Optional(identifier('BT-18', 'Invoiced object identifier', 'METER-42', 'AAA')),
  buyer_accounting_reference: Type.Optional(text('BT-19', 'Buyer accounting reference', '4711-0815', 200)),
  payment_terms: Type.Optional(text('BT-20', 'Payment terms', 'Payable within 14 days')),
  notes: Type.Optional(
    list(
      'BG-1',
      'Invoice notes',
      group('BG-1', 'Invoice note', {
        subject_code: Type.Optional(code('BT-21', 'Invoice note subject code (UNTDID 4451)', 'AAI')),
        text: text('BT-22', 'Invoice note', 'Thank you for your order.', 10_000),
      }),
    ),
  ),
  process: Type.Optional(
    text('BT-23', 'Business process type', 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0', 200),
  ),
  preceding_invoices: Type.Optional(
    list(
      'BG-3',
      'Preceding invoice references',
      group('BG-3', 'Preceding invoice reference', {
        number: text('BT-25', 'Preceding invoice reference', 'RE-2026-0000', 200),
        issue_date: Type.Optional(date('BT-26', 'Preceding invoice issue date', '2026-10-25')),
      }),
    ),
  ),
  seller: Seller,
  buyer: Buyer,
  payee: Type.Optional(Payee),
  tax_representative: Type.Optional(TaxRepresentative),
  delivery: Type.Optional(Delivery),
  invoicing_period: Type.Optional(Period('BG-14', 'BT-73', 'BT-74', 'Invoicing period')),
  payment: Type.Optional(Payment),
  allowances: Type.Optional(list('BG-20', 'Document level allowances', DocumentAllowance)),
  charges: Type.Optional(list('BG-21', 'Document level charges', DocumentCharge)),
  totals: Type.Optional(Totals),
  vat_breakdown: Type.Optional(list('BG-23', 'VAT breakdown', VatBreakdown)),
  attachments: Type.Optional(list('BG-24', 'Additional supporting documents', Attachment)),
  lines: Type.Optional(list('BG-25', 'Invoice lines', Line)),
})

export type Invoice = Static<typeof InvoiceSchema>
export type InvoiceLine = NonNullable<Invoice['lines']>[number]
export type Amount = string | number

// The shapes the writers and readers share, named once.
export type Address = NonNullable<Invoice['buyer']['address']>
export type Identifier = { id: string; scheme?: string }
export type Contact = NonNullable<Invoice['seller']['contact']>
/** a document level (BG-20/21, with VAT) or line level (BG-27/28) allowance or charge */
export type AllowanceOrCharge = NonNullable<InvoiceLine['allowances']>[number] &
  Partial<Pick<NonNullable<Invoice['allowances']>[number], 'vat_category' | 'vat_rate'>>
