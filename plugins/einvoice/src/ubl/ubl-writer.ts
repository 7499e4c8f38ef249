import type { EinvoiceWriteOptions } from '@docsvc/core/sdk'
import type {
  Address,
  AllowanceOrCharge,
  Contact,
  Identifier,
  Invoice,
  InvoiceLine,
} from '../model/invoice-schema.ts'
import type { ProfileId } from '../model/profile-matrix.ts'
import { amountText } from '../model/values.ts'
import { GUIDELINE_IDS, writtenNotes } from '../profile-guidelines.ts'
import { element, group, leaf, type XmlElement, xmlDocument } from '../xml/xml-builder.ts'
import { isCreditNote } from './credit-note.ts'

// UBL 2.1 Invoice and CreditNote as EN 16931 binds them, elements in the order of
// UBL-Invoice-2.1.xsd / UBL-CreditNote-2.1.xsd and UBL-CommonAggregateComponents-2.1.xsd.
// The two documents differ in a few places (named where they are); a credit note is chosen
// by the type code (BT-3: 381 and the other UNTDID 1001 credit note codes).

const NS = {
  'xmlns:cac': 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  'xmlns:cbc': 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
}
const ROOT_NS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
}

const vatScheme = () => element('cac:TaxScheme', [leaf('cbc:ID', 'VAT')])

function address(name: string, a: Address | undefined) {
  return (
    a &&
    element(name, [
      leaf('cbc:StreetName', a.line1),
      leaf('cbc:AdditionalStreetName', a.line2),
      leaf('cbc:CityName', a.city),
      leaf('cbc:PostalZone', a.post_code),
      leaf('cbc:CountrySubentity', a.country_subdivision),
      group('cac:AddressLine', [leaf('cbc:Line', a.line3)]),
      element('cac:Country', [leaf('cbc:IdentificationCode', a.country)]),
    ])
  )
}

const contact = (c: Contact | undefined) =>
  c &&
  element('cac:Contact', [
    leaf('cbc:Name', c.name),
    leaf('cbc:Telephone', c.phone),
    leaf('cbc:ElectronicMail', c.email),
  ])

const partyId = (i: Identifier) =>
  element('cac:PartyIdentification', [leaf('cbc:ID', i.id, { schemeID: i.scheme })])

const taxScheme = (id: string | undefined, scheme: string) =>
  id === undefined
    ? undefined
    : element('cac:PartyTaxScheme', [
        leaf('cbc:CompanyID', id),
        element('cac:TaxScheme', [leaf('cbc:ID', scheme)]),
      ])

function amounts(currency: string) {
  return (name: string, value: string | number | undefined) =>
    leaf(name, amountText(value), { currencyID: currency })
}

function seller(inv: Invoice): XmlElement {
  const s = inv.seller
  const creditor = inv.payment?.direct_debit?.creditor_id
  return element('cac:AccountingSupplierParty', [
    element('cac:Party', [
      s.electronic_address &&
        leaf('cbc:EndpointID', s.electronic_address.id, { schemeID: s.electronic_address.scheme }),
      (s.identifiers ?? []).map(partyId),
      // BT-90 is a seller identifier with scheme SEPA in UBL
      creditor && partyId({ id: creditor, scheme: 'SEPA' }),
      group('cac:PartyName', [leaf('cbc:Name', s.trading_name)]),
      address('cac:PostalAddress', s.address),
      taxScheme(s.vat_id, 'VAT'),
      taxScheme(s.tax_registration_id, 'FC'),
      element('cac:PartyLegalEntity', [
        leaf('cbc:RegistrationName', s.name),
        leaf('cbc:CompanyID', s.legal_registration_id?.id, { schemeID: s.legal_registration_id?.scheme }),
        leaf('cbc:CompanyLegalForm', s.additional_legal_info),
      ]),
      contact(s.contact),
    ]),
  ])
}

function buyer(inv: Invoice): XmlElement {
  const b = inv.buyer
  return element('cac:AccountingCustomerParty', [
    element('cac:Party', [
      b.electronic_address &&
        leaf('cbc:EndpointID', b.electronic_address.id, { schemeID: b.electronic_address.scheme }),
      b.identifier && partyId(b.identifier),
      group('cac:PartyName', [leaf('cbc:Name', b.trading_name)]),
      address('cac:PostalAddress', b.address),
      taxScheme(b.vat_id, 'VAT'),
      element('cac:PartyLegalEntity', [
        leaf('cbc:RegistrationName', b.name),
        leaf('cbc:CompanyID', b.legal_registration_id?.id, { schemeID: b.legal_registration_id?.scheme }),
      ]),
      contact(b.contact),
    ]),
  ])
}

function allowanceCharge(isCharge: boolean, a: AllowanceOrCharge, money: ReturnType<typeof amounts>) {
  return element('cac:AllowanceCharge', [
    leaf('cbc:ChargeIndicator', String(isCharge)),
    leaf('cbc:AllowanceChargeReasonCode', a.reason_code),
    leaf('cbc:AllowanceChargeReason', a.reason),
    leaf('cbc:MultiplierFactorNumeric', amountText(a.percentage)),
    money('cbc:Amount', a.amount),
    money('cbc:BaseAmount', a.base_amount),
    a.vat_category !== undefined &&
      element('cac:TaxCategory', [
        leaf('cbc:ID', a.vat_category),
        leaf('cbc:Percent', amountText(a.vat_rate)),
        vatScheme(),
      ]),
  ])
}

const period = (p: { start?: string; end?: string } | undefined, code?: string) =>
  group('cac:InvoicePeriod', [
    leaf('cbc:StartDate', p?.start),
    leaf('cbc:EndDate', p?.end),
    leaf('cbc:DescriptionCode', code),
  ])

function line(l: InvoiceLine, credit: boolean, money: ReturnType<typeof amounts>): XmlElement {
  return element(credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine', [
    leaf('cbc:ID', l.id),
    leaf('cbc:Note', l.note),
    leaf(credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', amountText(l.quantity), {
      unitCode: l.unit,
    }),
    money('cbc:LineExtensionAmount', l.net_amount),
    leaf('cbc:AccountingCost', l.accounting_reference),
    period(l.period),
    l.order_line_reference && element('cac:OrderLineReference', [leaf('cbc:LineID', l.order_line_reference)]),
    l.object_identifier &&
      element('cac:DocumentReference', [
        leaf('cbc:ID', l.object_identifier.id, { schemeID: l.object_identifier.scheme }),
        leaf('cbc:DocumentTypeCode', '130'),
      ]),
    (l.allowances ?? []).map((a) => allowanceCharge(false, a, money)),
    (l.charges ?? []).map((c) => allowanceCharge(true, c, money)),
    element('cac:Item', [
      leaf('cbc:Description', l.description),
      leaf('cbc:Name', l.name),
      group('cac:BuyersItemIdentification', [leaf('cbc:ID', l.buyer_item_id)]),
      group('cac:SellersItemIdentification', [leaf('cbc:ID', l.seller_item_id)]),
      l.standard_item_id &&
        element('cac:StandardItemIdentification', [
          leaf('cbc:ID', l.standard_item_id.id, { schemeID: l.standard_item_id.scheme }),
        ]),
      group('cac:OriginCountry', [leaf('cbc:IdentificationCode', l.origin_country)]),
      (l.classifications ?? []).map((c) =>
        element('cac:CommodityClassification', [
          leaf('cbc:ItemClassificationCode', c.id, { listID: c.scheme, listVersionID: c.version }),
        ]),
      ),
      element('cac:ClassifiedTaxCategory', [
        leaf('cbc:ID', l.vat_category),
        leaf('cbc:Percent', amountText(l.vat_rate)),
        vatScheme(),
      ]),
      (l.attributes ?? []).map((a) =>
        element('cac:AdditionalItemProperty', [leaf('cbc:Name', a.name), leaf('cbc:Value', a.value)]),
      ),
    ]),
    element('cac:Price', [
      money('cbc:PriceAmount', l.net_price),
      leaf('cbc:BaseQuantity', amountText(l.base_quantity), { unitCode: l.base_quantity_unit }),
      (l.price_discount !== undefined || l.gross_price !== undefined) &&
        element('cac:AllowanceCharge', [
          leaf('cbc:ChargeIndicator', 'false'),
          money('cbc:Amount', l.price_discount ?? '0'),
          money('cbc:BaseAmount', l.gross_price),
        ]),
    ]),
  ])
}

function paymentMeans(inv: Invoice, credit: boolean): XmlElement[] {
  const p = inv.payment
  if (!p) return []
  const transfers = p.credit_transfers ?? []
  const means = (t: (typeof transfers)[number] | undefined, first: boolean) =>
    element('cac:PaymentMeans', [
      leaf('cbc:PaymentMeansCode', p.means_code, { name: p.means_text }),
      // BT-9 of a credit note: CreditNote has no DueDate of its own
      credit && first ? leaf('cbc:PaymentDueDate', inv.due_date) : undefined,
      leaf('cbc:PaymentID', p.remittance_information),
      first &&
        p.card &&
        element('cac:CardAccount', [
          leaf('cbc:PrimaryAccountNumberID', p.card.account_number),
          // NetworkID is mandatory in UBL and not an EN 16931 term
          leaf('cbc:NetworkID', 'NA'),
          leaf('cbc:HolderName', p.card.holder_name),
        ]),
      t &&
        element('cac:PayeeFinancialAccount', [
          leaf('cbc:ID', t.account_id),
          leaf('cbc:Name', t.account_name),
          group('cac:FinancialInstitutionBranch', [leaf('cbc:ID', t.service_provider_id)]),
        ]),
      first &&
        group('cac:PaymentMandate', [
          leaf('cbc:ID', p.direct_debit?.mandate_id),
          group('cac:PayerFinancialAccount', [leaf('cbc:ID', p.direct_debit?.debited_account_id)]),
        ]),
    ])
  return transfers.length === 0 ? [means(undefined, true)] : transfers.map((t, i) => means(t, i === 0))
}

/** The UBL Invoice or CreditNote of a complete invoice holding only what `profile` carries. */
export function writeUbl(
  inv: Invoice,
  profile: ProfileId,
  options: Pick<EinvoiceWriteOptions, 'test'>,
): Buffer {
  const credit = isCreditNote(inv.type_code)
  const root = credit ? 'CreditNote' : 'Invoice'
  const money = amounts(inv.currency)
  const t = inv.totals ?? {}
  const notes = writtenNotes(inv, profile, options.test)
  const docRef = (name: string, id: string | undefined) =>
    id === undefined ? undefined : element(name, [leaf('cbc:ID', id)])
  const taxPoint = leaf('cbc:TaxPointDate', inv.tax_point_date)
  const typeCode = leaf(credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', inv.type_code)
  const additional = [
    inv.invoiced_object &&
      element('cac:AdditionalDocumentReference', [
        leaf('cbc:ID', inv.invoiced_object.id, { schemeID: inv.invoiced_object.scheme }),
        leaf('cbc:DocumentTypeCode', '130'),
      ]),
    // BT-11 of a credit note: CreditNote has no ProjectReference
    credit &&
      inv.project_reference &&
      element('cac:AdditionalDocumentReference', [
        leaf('cbc:ID', inv.project_reference.id),
        leaf('cbc:DocumentTypeCode', '50'),
      ]),
    (inv.attachments ?? []).map((a) =>
      element('cac:AdditionalDocumentReference', [
        leaf('cbc:ID', a.id),
        leaf('cbc:DocumentDescription', a.description),
        group('cac:Attachment', [
          a.content &&
            leaf('cbc:EmbeddedDocumentBinaryObject', a.content.data, {
              mimeCode: a.content.mime_code,
              filename: a.content.filename,
            }),
          group('cac:ExternalReference', [leaf('cbc:URI', a.uri)]),
        ]),
      ]),
    ),
  ]
  const originator = docRef('cac:OriginatorDocumentReference', inv.tender_reference)
  const preceding = (inv.preceding_invoices ?? []).map((r) =>
    element('cac:BillingReference', [
      element('cac:InvoiceDocumentReference', [
        leaf('cbc:ID', r.number),
        leaf('cbc:IssueDate', r.issue_date),
      ]),
    ]),
  )
  return xmlDocument(
    element(
      root,
      [
        leaf('cbc:CustomizationID', GUIDELINE_IDS[profile]),
        leaf('cbc:ProfileID', inv.process),
        leaf('cbc:ID', inv.number),
        leaf('cbc:IssueDate', inv.issue_date),
        !credit && leaf('cbc:DueDate', inv.due_date),
        credit ? [taxPoint, typeCode] : [typeCode],
        notes.map((n) => leaf('cbc:Note', n.subject_code ? `#${n.subject_code}#${n.text}` : n.text)),
        !credit && taxPoint,
        leaf('cbc:DocumentCurrencyCode', inv.currency),
        leaf('cbc:TaxCurrencyCode', inv.tax_currency),
        leaf('cbc:AccountingCost', inv.buyer_accounting_reference),
        leaf('cbc:BuyerReference', inv.buyer_reference),
        period(inv.invoicing_period, inv.tax_point_code),
        group('cac:OrderReference', [
          // cbc:ID is mandatory; EN 16931 writes NA when only the sales order reference is known
          inv.order_reference === undefined && inv.sales_order_reference === undefined
            ? undefined
            : leaf('cbc:ID', inv.order_reference ?? 'NA'),
          leaf('cbc:SalesOrderID', inv.sales_order_reference),
        ]),
        preceding,
        docRef('cac:DespatchDocumentReference', inv.despatch_advice_reference),
        docRef('cac:ReceiptDocumentReference', inv.receiving_advice_reference),
        // the CreditNote XSD puts the originator reference after the additional ones
        !credit && originator,
        docRef('cac:ContractDocumentReference', inv.contract_reference),
        additional,
        credit && originator,
        !credit && docRef('cac:ProjectReference', inv.project_reference?.id),
        seller(inv),
        buyer(inv),
        inv.payee &&
          element('cac:PayeeParty', [
            inv.payee.identifier && partyId(inv.payee.identifier),
            element('cac:PartyName', [leaf('cbc:Name', inv.payee.name)]),
            inv.payee.legal_registration_id &&
              element('cac:PartyLegalEntity', [
                leaf('cbc:CompanyID', inv.payee.legal_registration_id.id, {
                  schemeID: inv.payee.legal_registration_id.scheme,
                }),
              ]),
          ]),
        inv.tax_representative &&
          element('cac:TaxRepresentativeParty', [
            element('cac:PartyName', [leaf('cbc:Name', inv.tax_representative.name)]),
            address('cac:PostalAddress', inv.tax_representative.address),
            taxScheme(inv.tax_representative.vat_id, 'VAT'),
          ]),
        inv.delivery &&
          element('cac:Delivery', [
            leaf('cbc:ActualDeliveryDate', inv.delivery.date),
            group('cac:DeliveryLocation', [
              leaf('cbc:ID', inv.delivery.location_id?.id, { schemeID: inv.delivery.location_id?.scheme }),
              address('cac:Address', inv.delivery.address),
            ]),
            group('cac:DeliveryParty', [group('cac:PartyName', [leaf('cbc:Name', inv.delivery.party_name)])]),
          ]),
        paymentMeans(inv, credit),
        group('cac:PaymentTerms', [leaf('cbc:Note', inv.payment_terms)]),
        (inv.allowances ?? []).map((a) => allowanceCharge(false, a, money)),
        (inv.charges ?? []).map((c) => allowanceCharge(true, c, money)),
        element('cac:TaxTotal', [
          money('cbc:TaxAmount', t.vat_total ?? '0'),
          (inv.vat_breakdown ?? []).map((b) =>
            element('cac:TaxSubtotal', [
              money('cbc:TaxableAmount', b.taxable_amount),
              money('cbc:TaxAmount', b.tax_amount),
              element('cac:TaxCategory', [
                leaf('cbc:ID', b.category),
                leaf('cbc:Percent', amountText(b.rate)),
                leaf('cbc:TaxExemptionReasonCode', b.exemption_reason_code),
                leaf('cbc:TaxExemptionReason', b.exemption_reason),
                vatScheme(),
              ]),
            ]),
          ),
        ]),
        inv.tax_currency &&
          t.vat_total_tax_currency !== undefined &&
          element('cac:TaxTotal', [
            leaf('cbc:TaxAmount', amountText(t.vat_total_tax_currency), { currencyID: inv.tax_currency }),
          ]),
        element('cac:LegalMonetaryTotal', [
          money('cbc:LineExtensionAmount', t.line_total),
          money('cbc:TaxExclusiveAmount', t.tax_exclusive),
          money('cbc:TaxInclusiveAmount', t.tax_inclusive),
          money('cbc:AllowanceTotalAmount', t.allowance_total),
          money('cbc:ChargeTotalAmount', t.charge_total),
          money('cbc:PrepaidAmount', t.prepaid),
          money('cbc:PayableRoundingAmount', t.rounding),
          money('cbc:PayableAmount', t.due_payable),
        ]),
        (inv.lines ?? []).map((l) => line(l, credit, money)),
      ],
      { xmlns: ROOT_NS[root], ...NS },
    ),
  )
}
