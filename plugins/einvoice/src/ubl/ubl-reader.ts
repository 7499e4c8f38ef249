import type { Invoice, InvoiceLine } from '../model/invoice-schema.ts'
import { compact, withPlainDecimals } from '../model/values.ts'
import { profileOfGuideline } from '../profile-guidelines.ts'
import type { Draft, ReadInvoice } from '../read-result.ts'
import { firstHaving, type XmlNode } from '../xml/xml-tree.ts'

// UBL 2.1 Invoice and CreditNote back into the model: the mirror of ubl-writer.ts. Every element
// and attribute it takes is marked, so `unread` lists what the model does not hold (yet).

type Identifier = { id: string; scheme?: string | undefined }

const identifier = (node: XmlNode | undefined): Identifier | undefined => {
  const id = node?.value()
  return node && id !== undefined ? { id, scheme: node.attribute('schemeID') } : undefined
}

/** currencyID is the invoice's (BT-5) on every amount but BT-111's; it is read with them. */
function amount(node: XmlNode | undefined, ...path: string[]): string | undefined {
  let n = node
  for (const name of path) n = n?.one(name)
  n?.attribute('currencyID')
  return n?.value()
}

function address(node: XmlNode | undefined) {
  if (!node) return undefined
  return {
    line1: node.value('StreetName'),
    line2: node.value('AdditionalStreetName'),
    line3: node.value('AddressLine', 'Line'),
    city: node.value('CityName'),
    post_code: node.value('PostalZone'),
    country_subdivision: node.value('CountrySubentity'),
    country: node.value('Country', 'IdentificationCode') ?? '',
  }
}

function contact(node: XmlNode | undefined) {
  if (!node) return undefined
  return { name: node.value('Name'), phone: node.value('Telephone'), email: node.value('ElectronicMail') }
}

const isVat = (scheme: XmlNode) =>
  scheme.children.find((c) => c.name === 'TaxScheme')?.children.find((c) => c.name === 'ID')?.text === 'VAT'

/** The CompanyID of the first PartyTaxScheme whose scheme is VAT (or is not), marked read. */
function taxScheme(party: XmlNode, vat: boolean): string | undefined {
  const scheme = party.children.find((c) => c.name === 'PartyTaxScheme' && isVat(c) === vat)
  if (!scheme) return undefined
  scheme.used = true
  scheme.value('TaxScheme', 'ID')
  return scheme.value('CompanyID')
}

/** What the model holds of each party; the rest of a party element stays unread (and listed). */
const PARTY_FIELDS = {
  seller: ['ids', 'endpoint', 'trading_name', 'address', 'vat_id', 'tax_registration_id', 'legal', 'contact'],
  buyer: ['id', 'endpoint', 'trading_name', 'address', 'vat_id', 'legal', 'contact'],
  payee: ['id', 'legal_id'],
  tax_representative: ['address', 'vat_id'],
} as const
type PartyRole = keyof typeof PARTY_FIELDS
type PartyField = (typeof PARTY_FIELDS)[PartyRole][number]

function party(node: XmlNode | undefined, role: PartyRole) {
  const wanted = new Set<PartyField>(PARTY_FIELDS[role])
  const take = <T>(field: PartyField, read: () => T): T | undefined =>
    node && wanted.has(field) ? read() : undefined
  const legal =
    take('legal', () => node?.one('PartyLegalEntity')) ??
    take('legal_id', () => node?.one('PartyLegalEntity'))
  const identifications = node?.children.filter((c) => c.name === 'PartyIdentification') ?? []
  const read = (p: XmlNode) => {
    p.used = true
    return identifier(p.one('ID'))
  }
  const isSepa = (p: XmlNode) => p.children.find((c) => c.name === 'ID')?.attributes.schemeID === 'SEPA'
  const first = identifications.find((p) => !isSepa(p))
  return {
    ids:
      take('ids', () =>
        identifications
          .filter((p) => !isSepa(p))
          .map(read)
          .filter((i) => i !== undefined),
      ) ?? [],
    id: take('id', () => (first ? read(first) : undefined)),
    // BT-90 is a seller identifier with scheme SEPA in UBL
    sepaCreditorId: take('ids', () => identifications.filter(isSepa).map(read)[0]?.id),
    endpoint: take('endpoint', () => identifier(node?.one('EndpointID'))),
    trading_name: take('trading_name', () => node?.value('PartyName', 'Name')),
    address: take('address', () => address(node?.one('PostalAddress'))),
    vat_id: take('vat_id', () => taxScheme(node!, true)),
    tax_registration_id: take('tax_registration_id', () => taxScheme(node!, false)),
    name: take('legal', () => legal?.value('RegistrationName')),
    legal_registration_id: legal && identifier(legal.one('CompanyID')),
    additional_legal_info: role === 'seller' ? legal?.value('CompanyLegalForm') : undefined,
    contact: take('contact', () => contact(node?.one('Contact'))),
  }
}

function allowanceCharges(nodes: readonly XmlNode[], withVat: boolean) {
  const allowances: Record<string, unknown>[] = []
  const charges: Record<string, unknown>[] = []
  for (const n of nodes) {
    const tax = withVat ? n.one('TaxCategory') : undefined
    tax?.value('TaxScheme', 'ID')
    const entry = {
      amount: amount(n, 'Amount') ?? '',
      base_amount: amount(n, 'BaseAmount'),
      percentage: n.value('MultiplierFactorNumeric'),
      ...(withVat ? { vat_category: tax?.value('ID') ?? '', vat_rate: tax?.value('Percent') } : {}),
      reason: n.value('AllowanceChargeReason'),
      reason_code: n.value('AllowanceChargeReasonCode'),
    }
    ;(n.value('ChargeIndicator') === 'true' ? charges : allowances).push(entry)
  }
  return { allowances, charges }
}

const period = (node: XmlNode | undefined) =>
  node ? { start: node.value('StartDate'), end: node.value('EndDate') } : undefined

function line(node: XmlNode): Draft<InvoiceLine> {
  const quantity = node.one('InvoicedQuantity') ?? node.one('CreditedQuantity')
  const item = node.one('Item')
  const price = node.one('Price')
  const basis = price?.one('BaseQuantity')
  const discount = price?.one('AllowanceCharge')
  discount?.value('ChargeIndicator')
  const discountAmount = amount(discount, 'Amount')
  const tax = item?.one('ClassifiedTaxCategory')
  tax?.value('TaxScheme', 'ID')
  const objectRef = node.all('DocumentReference').find((d) => d.value('DocumentTypeCode') === '130')
  const { allowances, charges } = allowanceCharges(node.all('AllowanceCharge'), false)
  return {
    id: node.value('ID') ?? '',
    note: node.value('Note'),
    object_identifier: identifier(objectRef?.one('ID')),
    quantity: quantity?.value() ?? '',
    unit: quantity?.attribute('unitCode') ?? '',
    net_amount: amount(node, 'LineExtensionAmount'),
    order_line_reference: node.value('OrderLineReference', 'LineID'),
    accounting_reference: node.value('AccountingCost'),
    period: period(node.one('InvoicePeriod')),
    allowances,
    charges,
    net_price: amount(price, 'PriceAmount') ?? '',
    // the writer's 0 stands for "no discount given" (UBL requires an amount there)
    price_discount: discountAmount !== undefined && Number(discountAmount) !== 0 ? discountAmount : undefined,
    gross_price: amount(discount, 'BaseAmount'),
    base_quantity: basis?.value(),
    base_quantity_unit: basis?.attribute('unitCode'),
    vat_category: tax?.value('ID') ?? '',
    vat_rate: tax?.value('Percent'),
    name: item?.value('Name') ?? '',
    description: item?.value('Description'),
    seller_item_id: item?.value('SellersItemIdentification', 'ID'),
    buyer_item_id: item?.value('BuyersItemIdentification', 'ID'),
    standard_item_id: identifier(item?.one('StandardItemIdentification')?.one('ID')),
    classifications: item?.all('CommodityClassification').map((c) => {
      const code = c.one('ItemClassificationCode')
      return {
        id: code?.value() ?? '',
        scheme: code?.attribute('listID') ?? '',
        version: code?.attribute('listVersionID'),
      }
    }),
    origin_country: item?.value('OriginCountry', 'IdentificationCode'),
    attributes: item
      ?.all('AdditionalItemProperty')
      .map((p) => ({ name: p.value('Name') ?? '', value: p.value('Value') ?? '' })),
  }
}

/** `#AAI#text`: the subject code (BT-21) XRechnung and Peppol put before a UBL note. */
function note(text: string | undefined) {
  const m = /^#([A-Z]{3})#([\s\S]*)$/.exec(text ?? '')
  return m ? { subject_code: m[1], text: m[2] ?? '' } : { text: text ?? '' }
}

/** A UBL Invoice or CreditNote (its root element) as the model, with what was not read. */
export function readUbl(root: XmlNode): ReadInvoice {
  const credit = root.name === 'CreditNote'
  const guideline = root.value('CustomizationID')
  const seller = party(root.one('AccountingSupplierParty')?.one('Party'), 'seller')
  const buyer = party(root.one('AccountingCustomerParty')?.one('Party'), 'buyer')
  const payeeNode = root.one('PayeeParty')
  const payee = payeeNode ? party(payeeNode, 'payee') : undefined
  const payeeName = payeeNode?.value('PartyName', 'Name')
  const repNode = root.one('TaxRepresentativeParty')
  const rep = repNode ? party(repNode, 'tax_representative') : undefined
  const deliveryNode = root.one('Delivery')
  const location = deliveryNode?.one('DeliveryLocation')
  const means = root.all('PaymentMeans')
  const firstMeans = means[0]
  const meansCode = firstMeans?.one('PaymentMeansCode')
  for (const m of means.slice(1)) {
    const code = m.children.find((c) => c.name === 'PaymentMeansCode')
    if (code?.text === meansCode?.text && code?.attributes.name === meansCode?.attributes.name) {
      m.value('PaymentMeansCode')
      code?.attribute('name')
    }
    if (
      m.children.find((c) => c.name === 'PaymentID')?.text ===
      firstMeans?.children.find((c) => c.name === 'PaymentID')?.text
    )
      m.value('PaymentID')
  }
  const card = firstHaving(means, 'CardAccount')?.one('CardAccount')
  if (card?.children.find((c) => c.name === 'NetworkID')?.text === 'NA') card.value('NetworkID')
  const mandate = firstHaving(means, 'PaymentMandate')?.one('PaymentMandate')
  const additional = root.all('AdditionalDocumentReference')
  const byType = (code: string | undefined) =>
    additional.filter(
      (d) => (d.children.find((c) => c.name === 'DocumentTypeCode')?.text ?? undefined) === code,
    )
  const taxTotals = root.all('TaxTotal')
  const currency = root.value('DocumentCurrencyCode') ?? ''
  const taxCurrency = root.value('TaxCurrencyCode')
  // EN 16931 tells the two TaxTotals apart by their amount's currency: BT-110 (and its breakdown)
  // in the invoice currency, BT-111 in the VAT accounting currency BT-6. A further TaxTotal in
  // the same currency has no place in the model; its amount stays unread (and listed).
  const inTaxCurrency = (t: XmlNode) =>
    taxCurrency !== undefined &&
    taxCurrency !== currency &&
    t.children.find((c) => c.name === 'TaxAmount')?.attributes.currencyID === taxCurrency
  const mainTax = taxTotals.find((t) => !inTaxCurrency(t))
  const accountingTax = taxTotals.find(inTaxCurrency)
  const totals = root.one('LegalMonetaryTotal')
  const order = root.one('OrderReference')
  const orderId = order?.value('ID')
  const invoicePeriod = root.one('InvoicePeriod')
  const project = credit ? byType('50')[0] : root.one('ProjectReference')
  const invoice: Draft<Invoice> = {
    number: root.value('ID') ?? '',
    issue_date: root.value('IssueDate') ?? '',
    type_code: root.value(credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode') ?? '',
    currency,
    tax_currency: taxCurrency,
    tax_point_date: root.value('TaxPointDate'),
    tax_point_code: invoicePeriod?.value('DescriptionCode'),
    due_date: credit ? firstMeans?.value('PaymentDueDate') : root.value('DueDate'),
    buyer_reference: root.value('BuyerReference'),
    project_reference: project && { id: project.value('ID') ?? '' },
    contract_reference: root.value('ContractDocumentReference', 'ID'),
    order_reference:
      orderId === 'NA' && order?.children.some((c) => c.name === 'SalesOrderID') ? undefined : orderId,
    sales_order_reference: order?.value('SalesOrderID'),
    receiving_advice_reference: root.value('ReceiptDocumentReference', 'ID'),
    despatch_advice_reference: root.value('DespatchDocumentReference', 'ID'),
    tender_reference: root.value('OriginatorDocumentReference', 'ID'),
    invoiced_object: identifier(byType('130')[0]?.one('ID')),
    buyer_accounting_reference: root.value('AccountingCost'),
    payment_terms: root.value('PaymentTerms', 'Note'),
    notes: root.all('Note').map((n) => note(n.value())),
    process: root.value('ProfileID'),
    preceding_invoices: root.all('BillingReference').map((b) => {
      const ref = b.one('InvoiceDocumentReference')
      return { number: ref?.value('ID') ?? '', issue_date: ref?.value('IssueDate') }
    }),
    seller: {
      name: seller.name ?? '',
      trading_name: seller.trading_name,
      identifiers: seller.ids,
      legal_registration_id: seller.legal_registration_id,
      vat_id: seller.vat_id,
      tax_registration_id: seller.tax_registration_id,
      additional_legal_info: seller.additional_legal_info,
      electronic_address: seller.endpoint,
      address: seller.address,
      contact: seller.contact,
    },
    buyer: {
      name: buyer.name ?? '',
      trading_name: buyer.trading_name,
      identifier: buyer.id,
      legal_registration_id: buyer.legal_registration_id,
      vat_id: buyer.vat_id,
      electronic_address: buyer.endpoint,
      address: buyer.address,
      contact: buyer.contact,
    },
    payee: payee && {
      name: payeeName ?? '',
      identifier: payee.id,
      legal_registration_id: payee.legal_registration_id,
    },
    tax_representative: rep && {
      name: repNode?.value('PartyName', 'Name') ?? '',
      vat_id: rep.vat_id ?? '',
      address: rep.address,
    },
    delivery: deliveryNode && {
      party_name: deliveryNode.value('DeliveryParty', 'PartyName', 'Name'),
      location_id: identifier(location?.one('ID')),
      date: deliveryNode.value('ActualDeliveryDate'),
      address: address(location?.one('Address')),
    },
    invoicing_period:
      invoicePeriod &&
      (invoicePeriod.children.some((c) => c.name !== 'DescriptionCode') ? period(invoicePeriod) : undefined),
    payment:
      firstMeans || seller.sepaCreditorId
        ? {
            means_code: meansCode?.value() ?? '',
            means_text: meansCode?.attribute('name'),
            remittance_information: firstMeans?.value('PaymentID'),
            credit_transfers: means
              .map((m) => m.one('PayeeFinancialAccount'))
              .filter((a) => a !== undefined)
              .map((a) => ({
                account_id: a.value('ID') ?? '',
                account_name: a.value('Name'),
                service_provider_id: a.value('FinancialInstitutionBranch', 'ID'),
              })),
            card: card && {
              account_number: card.value('PrimaryAccountNumberID') ?? '',
              holder_name: card.value('HolderName'),
            },
            direct_debit:
              mandate || seller.sepaCreditorId
                ? {
                    mandate_id: mandate?.value('ID'),
                    creditor_id: seller.sepaCreditorId,
                    debited_account_id: mandate?.value('PayerFinancialAccount', 'ID'),
                  }
                : undefined,
          }
        : undefined,
    ...allowanceCharges(root.all('AllowanceCharge'), true),
    // also without LegalMonetaryTotal: BT-110 and BT-111 live in the TaxTotals
    totals: {
      line_total: amount(totals, 'LineExtensionAmount'),
      allowance_total: amount(totals, 'AllowanceTotalAmount'),
      charge_total: amount(totals, 'ChargeTotalAmount'),
      tax_exclusive: amount(totals, 'TaxExclusiveAmount'),
      vat_total: amount(mainTax, 'TaxAmount'),
      vat_total_tax_currency: amount(accountingTax, 'TaxAmount'),
      tax_inclusive: amount(totals, 'TaxInclusiveAmount'),
      prepaid: amount(totals, 'PrepaidAmount'),
      rounding: amount(totals, 'PayableRoundingAmount'),
      due_payable: amount(totals, 'PayableAmount'),
    },
    // every TaxTotal's subtotals: two TaxTotals with one category each are two breakdowns
    vat_breakdown: taxTotals
      .flatMap((t) => t.all('TaxSubtotal'))
      .map((s) => {
        const category = s.one('TaxCategory')
        category?.value('TaxScheme', 'ID')
        return {
          taxable_amount: amount(s, 'TaxableAmount') ?? '',
          tax_amount: amount(s, 'TaxAmount') ?? '',
          category: category?.value('ID') ?? '',
          rate: category?.value('Percent'),
          exemption_reason: category?.value('TaxExemptionReason'),
          exemption_reason_code: category?.value('TaxExemptionReasonCode'),
        }
      }),
    attachments: byType(undefined).map((d) => {
      const attachment = d.one('Attachment')
      const content = attachment?.one('EmbeddedDocumentBinaryObject')
      return {
        id: d.value('ID') ?? '',
        description: d.value('DocumentDescription'),
        uri: attachment?.value('ExternalReference', 'URI'),
        content: content && {
          data: content.value() ?? '',
          mime_code: content.attribute('mimeCode') ?? '',
          filename: content.attribute('filename') ?? '',
        },
      }
    }),
    lines: root.all(credit ? 'CreditNoteLine' : 'InvoiceLine').map(line),
  }
  for (const d of [...byType('130'), ...(credit ? byType('50') : [])]) d.value('DocumentTypeCode')
  return {
    invoice: withPlainDecimals(compact(invoice) as Invoice),
    guideline,
    profile: profileOfGuideline(guideline),
    test: false,
    unread: root.unread(),
  }
}
