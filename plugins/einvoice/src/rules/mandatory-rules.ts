import type { InvoiceLine } from '../model/invoice-schema.ts'
import type { Period, Reasoned, Rule } from './rule.ts'
import { amount, each, hasReason, isNegative, mandatory, present } from './rule.ts'

// EN 16931's mandatory terms (BR-01 ... BR-65): a term that must be there whenever its group is.
// BR-01 (specification identifier, BT-24) is not on the model: the profile writes it. BR-12 ...
// BR-15 run on the completed model, so a total the lines give counts as given.

const ordered = (p: Period) => !present(p.start) || !present(p.end) || String(p.end) >= String(p.start)

export const MANDATORY_RULES: readonly Rule[] = [
  mandatory('BR-02', 'number', 'An invoice shall have an invoice number (BT-1)'),
  mandatory('BR-03', 'issue_date', 'An invoice shall have an issue date (BT-2)'),
  mandatory('BR-04', 'type_code', 'An invoice shall have an invoice type code (BT-3)'),
  mandatory('BR-05', 'currency', 'An invoice shall have an invoice currency code (BT-5)'),
  mandatory('BR-06', 'seller.name', 'An invoice shall contain the seller name (BT-27)'),
  mandatory('BR-07', 'buyer.name', 'An invoice shall contain the buyer name (BT-44)'),
  mandatory('BR-08', 'seller.address', 'An invoice shall contain the seller postal address (BG-5)'),
  mandatory(
    'BR-09',
    'seller.address.country',
    'The seller postal address (BG-5) shall contain a country code (BT-40)',
  ),
  mandatory('BR-10', 'buyer.address', 'An invoice shall contain the buyer postal address (BG-8)'),
  mandatory(
    'BR-11',
    'buyer.address.country',
    'The buyer postal address (BG-8) shall contain a country code (BT-55)',
  ),
  mandatory(
    'BR-12',
    'totals.line_total',
    'Sum of invoice line net amount (BT-106) is required: give it, or give the lines it is computed from',
  ),
  mandatory(
    'BR-13',
    'totals.tax_exclusive',
    'Invoice total amount without VAT (BT-109) is required: give it, or give the lines it is computed from',
  ),
  mandatory(
    'BR-14',
    'totals.tax_inclusive',
    'Invoice total amount with VAT (BT-112) is required: give it, or give the lines it is computed from',
  ),
  mandatory(
    'BR-15',
    'totals.due_payable',
    'Amount due for payment (BT-115) is required: give it, or give the lines it is computed from',
  ),
  mandatory('BR-16', 'lines', 'An invoice shall have at least one invoice line (BG-25)'),
  mandatory(
    'BR-17',
    'payee.name',
    'The payee name (BT-59) shall be given when the payee (BG-10) differs from the seller',
  ),
  mandatory(
    'BR-18',
    'tax_representative.name',
    'The seller tax representative name (BT-62) shall be given with the tax representative (BG-11)',
  ),
  mandatory(
    'BR-19',
    'tax_representative.address',
    'The seller tax representative postal address (BG-12) shall be given with the tax representative (BG-11)',
  ),
  mandatory(
    'BR-20',
    'tax_representative.address.country',
    'The seller tax representative postal address (BG-12) shall contain a country code (BT-69)',
  ),
  mandatory('BR-21', 'lines[].id', 'Each invoice line shall have an invoice line identifier (BT-126)'),
  mandatory('BR-22', 'lines[].quantity', 'Each invoice line shall have an invoiced quantity (BT-129)'),
  mandatory(
    'BR-23',
    'lines[].unit',
    'An invoice line shall have an invoiced quantity unit of measure code (BT-130)',
  ),
  mandatory(
    'BR-24',
    'lines[].net_amount',
    'Each invoice line shall have an invoice line net amount (BT-131)',
  ),
  mandatory('BR-25', 'lines[].name', 'Each invoice line shall contain the item name (BT-153)'),
  mandatory('BR-26', 'lines[].net_price', 'Each invoice line shall contain the item net price (BT-146)'),
  each<InvoiceLine>(
    'BR-27',
    'lines[]',
    'The item net price (BT-146) shall not be negative',
    (l) => !isNegative(amount(l.net_price)),
    { field: 'lines[].net_price', at: 'net_price' },
  ),
  each<InvoiceLine>(
    'BR-28',
    'lines[]',
    'The item gross price (BT-148) shall not be negative',
    (l) => !isNegative(amount(l.gross_price)),
    { field: 'lines[].gross_price', at: 'gross_price' },
  ),
  each<Period>(
    'BR-29',
    'invoicing_period',
    'The invoicing period end date (BT-74) shall be later or equal to its start date (BT-73)',
    ordered,
    { at: 'end' },
  ),
  each<Period>(
    'BR-30',
    'lines[].period',
    'The invoice line period end date (BT-135) shall be later or equal to its start date (BT-134)',
    ordered,
    { at: 'end' },
  ),
  mandatory(
    'BR-31',
    'allowances[].amount',
    'Each document level allowance (BG-20) shall have an amount (BT-92)',
  ),
  mandatory(
    'BR-32',
    'allowances[].vat_category',
    'Each document level allowance (BG-20) shall have a VAT category code (BT-95)',
  ),
  each<Reasoned>(
    'BR-33',
    'allowances[]',
    'Each document level allowance (BG-20) shall have a reason (BT-97) or a reason code (BT-98)',
    hasReason,
    { at: 'reason' },
  ),
  mandatory('BR-36', 'charges[].amount', 'Each document level charge (BG-21) shall have an amount (BT-99)'),
  mandatory(
    'BR-37',
    'charges[].vat_category',
    'Each document level charge (BG-21) shall have a VAT category code (BT-102)',
  ),
  each<Reasoned>(
    'BR-38',
    'charges[]',
    'Each document level charge (BG-21) shall have a reason (BT-104) or a reason code (BT-105)',
    hasReason,
    { at: 'reason' },
  ),
  mandatory(
    'BR-41',
    'lines[].allowances[].amount',
    'Each invoice line allowance (BG-27) shall have an amount (BT-136)',
  ),
  each<Reasoned>(
    'BR-42',
    'lines[].allowances[]',
    'Each invoice line allowance (BG-27) shall have a reason (BT-139) or a reason code (BT-140)',
    hasReason,
    { at: 'reason' },
  ),
  mandatory(
    'BR-43',
    'lines[].charges[].amount',
    'Each invoice line charge (BG-28) shall have an amount (BT-141)',
  ),
  each<Reasoned>(
    'BR-44',
    'lines[].charges[]',
    'Each invoice line charge (BG-28) shall have a reason (BT-144) or a reason code (BT-145)',
    hasReason,
    { at: 'reason' },
  ),
  mandatory(
    'BR-45',
    'vat_breakdown[].taxable_amount',
    'Each VAT breakdown (BG-23) shall have a VAT category taxable amount (BT-116)',
  ),
  mandatory(
    'BR-46',
    'vat_breakdown[].tax_amount',
    'Each VAT breakdown (BG-23) shall have a VAT category tax amount (BT-117)',
  ),
  mandatory(
    'BR-47',
    'vat_breakdown[].category',
    'Each VAT breakdown (BG-23) shall be defined through a VAT category code (BT-118)',
  ),
  each<{ category?: string; rate?: string }>(
    'BR-48',
    'vat_breakdown[]',
    'Each VAT breakdown (BG-23) shall have a VAT category rate (BT-119), except when the category is "Not subject to VAT" (O)',
    (b) => b.category === 'O' || present(b.rate),
    { at: 'rate' },
  ),
  mandatory(
    'BR-49',
    'payment.means_code',
    'The payment instructions (BG-16) shall specify the payment means type code (BT-81)',
  ),
  mandatory(
    'BR-50',
    'payment.credit_transfers[].account_id',
    'A payment account identifier (BT-84) shall be present when credit transfer (BG-17) information is given',
  ),
  each<{ account_number?: string }>(
    'BR-51',
    'payment.card',
    'A payment card primary account number (BT-87) should never be given in full: at most its first 6 and last 4 digits (PCI DSS)',
    (c) => String(c.account_number ?? '').replace(/\D/g, '').length <= 10,
    { at: 'account_number', severity: 'warning' },
  ),
  mandatory(
    'BR-52',
    'attachments[].id',
    'Each additional supporting document (BG-24) shall contain a supporting document reference (BT-122)',
  ),
  each(
    'BR-53',
    '',
    'When a VAT accounting currency (BT-6) is given, the invoice total VAT amount in accounting currency (BT-111) shall be given',
    (_, i) =>
      !present(i.tax_currency) || i.tax_currency === i.currency || present(i.totals?.vat_total_tax_currency),
    { field: 'totals.vat_total_tax_currency', at: 'totals/vat_total_tax_currency' },
  ),
  mandatory(
    'BR-54',
    'lines[].attributes[].name',
    'Each item attribute (BG-32) shall contain an item attribute name (BT-160)',
  ),
  mandatory(
    'BR-54',
    'lines[].attributes[].value',
    'Each item attribute (BG-32) shall contain an item attribute value (BT-161)',
  ),
  mandatory(
    'BR-55',
    'preceding_invoices[].number',
    'Each preceding invoice reference (BG-3) shall contain a preceding invoice reference (BT-25)',
  ),
  mandatory(
    'BR-56',
    'tax_representative.vat_id',
    'Each seller tax representative party (BG-11) shall have a VAT identifier (BT-63)',
  ),
  mandatory(
    'BR-57',
    'delivery.address.country',
    'Each deliver to address (BG-15) shall contain a country code (BT-80)',
  ),
  each<{ means_code?: string; credit_transfers?: unknown[] }>(
    'BR-61',
    'payment',
    'With payment means SEPA credit transfer (58), local credit transfer (30) or non-SEPA international credit transfer the payment account identifier (BT-84) shall be present',
    (p) =>
      !['30', '58'].includes(String(p.means_code)) ||
      (p.credit_transfers ?? []).some((t) => present((t as { account_id?: string }).account_id)),
    { field: 'payment.credit_transfers', at: 'credit_transfers' },
  ),
  mandatory(
    'BR-62',
    'seller.electronic_address.scheme',
    'The seller electronic address (BT-34) shall have a scheme identifier',
  ),
  mandatory(
    'BR-63',
    'buyer.electronic_address.scheme',
    'The buyer electronic address (BT-49) shall have a scheme identifier',
  ),
  mandatory(
    'BR-64',
    'lines[].standard_item_id.scheme',
    'The item standard identifier (BT-157) shall have a scheme identifier',
  ),
  mandatory(
    'BR-65',
    'lines[].classifications[].scheme',
    'The item classification identifier (BT-158) shall have a scheme identifier',
  ),
]
