import { type EinvoiceWriteOptions, ProblemError } from '@docsvc/core/sdk'
import type {
  Address,
  AllowanceOrCharge,
  Contact,
  Identifier,
  Invoice,
  InvoiceLine,
} from '../model/invoice-schema.ts'
import type { ProfileId } from '../model/profile-matrix.ts'
import { grossPriceOf } from '../model/totals.ts'
import { amountText, compactDate } from '../model/values.ts'
import { GUIDELINE_IDS, writtenNotes } from '../profile-guidelines.ts'
import { element, group, leaf, type XmlContent, type XmlElement, xmlDocument } from '../xml/xml-builder.ts'

// UN/CEFACT Cross Industry Invoice D16B as EN 16931 (and Factur-X/ZUGFeRD) bind it, elements
// in the order of the D16B XSD (CrossIndustryInvoice_ReusableAggregateBusinessInformationEntity_
// 100pD16B.xsd). The invoice given is complete (totals computed) and holds only what the
// profile carries (carriedPart), so everything present is written.

const NS = {
  'xmlns:rsm': 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  'xmlns:ram': 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  'xmlns:qdt': 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  'xmlns:udt': 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
}

const dateTime = (name: string, value: string | undefined) =>
  value === undefined
    ? undefined
    : element(name, [element('udt:DateTimeString', [compactDate(value)!], { format: '102' })])

const indicator = (name: string, value: boolean) => element(name, [element('udt:Indicator', [String(value)])])

const amount = (name: string, value: string | number | undefined, currency?: string) =>
  leaf(name, amountText(value), currency ? { currencyID: currency } : {})

const address = (a: Address | undefined) =>
  a &&
  element('ram:PostalTradeAddress', [
    leaf('ram:PostcodeCode', a.post_code),
    leaf('ram:LineOne', a.line1),
    leaf('ram:LineTwo', a.line2),
    leaf('ram:LineThree', a.line3),
    leaf('ram:CityName', a.city),
    leaf('ram:CountryID', a.country),
    leaf('ram:CountrySubDivisionName', a.country_subdivision),
  ])

const contact = (c: Contact | undefined) =>
  c &&
  element('ram:DefinedTradeContact', [
    leaf('ram:PersonName', c.name),
    group('ram:TelephoneUniversalCommunication', [leaf('ram:CompleteNumber', c.phone)]),
    group('ram:EmailURIUniversalCommunication', [leaf('ram:URIID', c.email)]),
  ])

/** BT-29/46/60/71: CII puts an identifier with a scheme in GlobalID, one without in ID. */
const partyIds = (ids: readonly Identifier[]) => [
  ids.filter((i) => !i.scheme).map((i) => leaf('ram:ID', i.id)),
  ids.filter((i) => i.scheme).map((i) => leaf('ram:GlobalID', i.id, { schemeID: i.scheme })),
]

const legalOrganization = (legal: Identifier | undefined, tradingName: string | undefined) =>
  group('ram:SpecifiedLegalOrganization', [
    leaf('ram:ID', legal?.id, { schemeID: legal?.scheme }),
    leaf('ram:TradingBusinessName', tradingName),
  ])

const electronicAddress = (a: Identifier | undefined) =>
  a && element('ram:URIUniversalCommunication', [leaf('ram:URIID', a.id, { schemeID: a.scheme })])

const taxRegistration = (id: string | undefined, scheme: 'VA' | 'FC') =>
  id === undefined
    ? undefined
    : element('ram:SpecifiedTaxRegistration', [leaf('ram:ID', id, { schemeID: scheme })])

function seller(s: Invoice['seller']): XmlElement {
  return element('ram:SellerTradeParty', [
    partyIds(s.identifiers ?? []),
    leaf('ram:Name', s.name),
    leaf('ram:Description', s.additional_legal_info),
    legalOrganization(s.legal_registration_id, s.trading_name),
    contact(s.contact),
    address(s.address),
    electronicAddress(s.electronic_address),
    taxRegistration(s.vat_id, 'VA'),
    taxRegistration(s.tax_registration_id, 'FC'),
  ])
}

function buyer(b: Invoice['buyer']): XmlElement {
  return element('ram:BuyerTradeParty', [
    partyIds(b.identifier ? [b.identifier] : []),
    leaf('ram:Name', b.name),
    legalOrganization(b.legal_registration_id, b.trading_name),
    contact(b.contact),
    address(b.address),
    electronicAddress(b.electronic_address),
    taxRegistration(b.vat_id, 'VA'),
  ])
}

const referenced = (name: string, id: string | undefined) =>
  id === undefined ? undefined : element(name, [leaf('ram:IssuerAssignedID', id)])

const vatTax = (name: string, category: string, rate: string | number | undefined) =>
  element(name, [
    leaf('ram:TypeCode', 'VAT'),
    leaf('ram:CategoryCode', category),
    amount('ram:RateApplicablePercent', rate),
  ])

const allowanceCharge = (isCharge: boolean, a: AllowanceOrCharge) =>
  element('ram:SpecifiedTradeAllowanceCharge', [
    indicator('ram:ChargeIndicator', isCharge),
    amount('ram:CalculationPercent', a.percentage),
    amount('ram:BasisAmount', a.base_amount),
    amount('ram:ActualAmount', a.amount),
    leaf('ram:ReasonCode', a.reason_code),
    leaf('ram:Reason', a.reason),
    a.vat_category === undefined ? undefined : vatTax('ram:CategoryTradeTax', a.vat_category, a.vat_rate),
  ])

const period = (p: { start?: string; end?: string } | undefined) =>
  group('ram:BillingSpecifiedPeriod', [
    dateTime('ram:StartDateTime', p?.start),
    dateTime('ram:EndDateTime', p?.end),
  ])

function line(l: InvoiceLine): XmlElement {
  const gross = grossPriceOf(l)
  const basis = leaf('ram:BasisQuantity', amountText(l.base_quantity), { unitCode: l.base_quantity_unit })
  return element('ram:IncludedSupplyChainTradeLineItem', [
    element('ram:AssociatedDocumentLineDocument', [
      leaf('ram:LineID', l.id),
      group('ram:IncludedNote', [leaf('ram:Content', l.note)]),
    ]),
    element('ram:SpecifiedTradeProduct', [
      leaf('ram:GlobalID', l.standard_item_id?.id, { schemeID: l.standard_item_id?.scheme }),
      leaf('ram:SellerAssignedID', l.seller_item_id),
      leaf('ram:BuyerAssignedID', l.buyer_item_id),
      leaf('ram:Name', l.name),
      leaf('ram:Description', l.description),
      (l.attributes ?? []).map((a) =>
        element('ram:ApplicableProductCharacteristic', [
          leaf('ram:Description', a.name),
          leaf('ram:Value', a.value),
        ]),
      ),
      (l.classifications ?? []).map((c) =>
        element('ram:DesignatedProductClassification', [
          leaf('ram:ClassCode', c.id, { listID: c.scheme, listVersionID: c.version }),
        ]),
      ),
      l.origin_country && element('ram:OriginTradeCountry', [leaf('ram:ID', l.origin_country)]),
    ]),
    element('ram:SpecifiedLineTradeAgreement', [
      l.order_line_reference &&
        element('ram:BuyerOrderReferencedDocument', [leaf('ram:LineID', l.order_line_reference)]),
      gross !== undefined &&
        element('ram:GrossPriceProductTradePrice', [
          amount('ram:ChargeAmount', gross),
          basis,
          l.price_discount !== undefined &&
            element('ram:AppliedTradeAllowanceCharge', [
              indicator('ram:ChargeIndicator', false),
              amount('ram:ActualAmount', l.price_discount),
            ]),
        ]),
      element('ram:NetPriceProductTradePrice', [amount('ram:ChargeAmount', l.net_price), basis]),
    ]),
    element('ram:SpecifiedLineTradeDelivery', [
      leaf('ram:BilledQuantity', amountText(l.quantity), { unitCode: l.unit }),
    ]),
    element('ram:SpecifiedLineTradeSettlement', [
      vatTax('ram:ApplicableTradeTax', l.vat_category, l.vat_rate),
      period(l.period),
      (l.allowances ?? []).map((a) => allowanceCharge(false, a)),
      (l.charges ?? []).map((c) => allowanceCharge(true, c)),
      element('ram:SpecifiedTradeSettlementLineMonetarySummation', [
        amount('ram:LineTotalAmount', l.net_amount),
      ]),
      l.object_identifier &&
        element('ram:AdditionalReferencedDocument', [
          leaf('ram:IssuerAssignedID', l.object_identifier.id),
          leaf('ram:TypeCode', '130'),
          leaf('ram:ReferenceTypeCode', l.object_identifier.scheme),
        ]),
      l.accounting_reference &&
        element('ram:ReceivableSpecifiedTradeAccountingAccount', [leaf('ram:ID', l.accounting_reference)]),
    ]),
  ])
}

function agreement(inv: Invoice): XmlElement {
  const rep = inv.tax_representative
  return element('ram:ApplicableHeaderTradeAgreement', [
    leaf('ram:BuyerReference', inv.buyer_reference),
    seller(inv.seller),
    buyer(inv.buyer),
    rep &&
      element('ram:SellerTaxRepresentativeTradeParty', [
        leaf('ram:Name', rep.name),
        address(rep.address),
        taxRegistration(rep.vat_id, 'VA'),
      ]),
    referenced('ram:SellerOrderReferencedDocument', inv.sales_order_reference),
    referenced('ram:BuyerOrderReferencedDocument', inv.order_reference),
    referenced('ram:ContractReferencedDocument', inv.contract_reference),
    (inv.attachments ?? []).map((a) =>
      element('ram:AdditionalReferencedDocument', [
        leaf('ram:IssuerAssignedID', a.id),
        leaf('ram:URIID', a.uri),
        leaf('ram:TypeCode', '916'),
        leaf('ram:Name', a.description),
        a.content &&
          leaf('ram:AttachmentBinaryObject', a.content.data, {
            mimeCode: a.content.mime_code,
            filename: a.content.filename,
          }),
      ]),
    ),
    inv.tender_reference &&
      element('ram:AdditionalReferencedDocument', [
        leaf('ram:IssuerAssignedID', inv.tender_reference),
        leaf('ram:TypeCode', '50'),
      ]),
    inv.invoiced_object &&
      element('ram:AdditionalReferencedDocument', [
        leaf('ram:IssuerAssignedID', inv.invoiced_object.id),
        leaf('ram:TypeCode', '130'),
        leaf('ram:ReferenceTypeCode', inv.invoiced_object.scheme),
      ]),
    inv.project_reference &&
      element('ram:SpecifiedProcuringProject', [
        leaf('ram:ID', inv.project_reference.id),
        // Name is mandatory in the XSD; EN 16931's CII binding writes "Project reference" when unnamed
        leaf('ram:Name', inv.project_reference.name ?? 'Project reference'),
      ]),
  ])
}

function delivery(inv: Invoice): XmlElement {
  const d = inv.delivery
  const location = d?.location_id
  return element('ram:ApplicableHeaderTradeDelivery', [
    d &&
      group('ram:ShipToTradeParty', [
        location && partyIds([location]),
        leaf('ram:Name', d.party_name),
        address(d.address),
      ]),
    d?.date && element('ram:ActualDeliverySupplyChainEvent', [dateTime('ram:OccurrenceDateTime', d.date)]),
    referenced('ram:DespatchAdviceReferencedDocument', inv.despatch_advice_reference),
    referenced('ram:ReceivingAdviceReferencedDocument', inv.receiving_advice_reference),
  ])
}

function paymentMeans(p: NonNullable<Invoice['payment']>): XmlContent[] {
  const transfers = p.credit_transfers ?? []
  const means = (transfer: NonNullable<typeof p.credit_transfers>[number] | undefined, first: boolean) =>
    element('ram:SpecifiedTradeSettlementPaymentMeans', [
      leaf('ram:TypeCode', p.means_code),
      leaf('ram:Information', p.means_text),
      first &&
        p.card &&
        element('ram:ApplicableTradeSettlementFinancialCard', [
          leaf('ram:ID', p.card.account_number),
          leaf('ram:CardholderName', p.card.holder_name),
        ]),
      first &&
        group('ram:PayerPartyDebtorFinancialAccount', [
          leaf('ram:IBANID', p.direct_debit?.debited_account_id),
        ]),
      transfer &&
        element('ram:PayeePartyCreditorFinancialAccount', [
          leaf('ram:IBANID', transfer.account_id),
          leaf('ram:AccountName', transfer.account_name),
        ]),
      transfer &&
        group('ram:PayeeSpecifiedCreditorFinancialInstitution', [
          leaf('ram:BICID', transfer.service_provider_id),
        ]),
    ])
  // one payment means per account (CII has no list of accounts in one means)
  return transfers.length === 0 ? [means(undefined, true)] : transfers.map((t, i) => means(t, i === 0))
}

function settlement(inv: Invoice): XmlElement {
  const t = inv.totals ?? {}
  const cur = inv.currency
  const p = inv.payment
  const preceding = inv.preceding_invoices ?? []
  if (preceding.length > 1)
    throw new ProblemError(
      'einvoice_invalid',
      'CII D16B carries one preceding invoice reference (BG-3, /preceding_invoices); UBL carries several',
    )
  return element('ram:ApplicableHeaderTradeSettlement', [
    leaf('ram:CreditorReferenceID', p?.direct_debit?.creditor_id),
    leaf('ram:PaymentReference', p?.remittance_information),
    leaf('ram:TaxCurrencyCode', inv.tax_currency),
    leaf('ram:InvoiceCurrencyCode', cur),
    inv.payee &&
      element('ram:PayeeTradeParty', [
        partyIds(inv.payee.identifier ? [inv.payee.identifier] : []),
        leaf('ram:Name', inv.payee.name),
        legalOrganization(inv.payee.legal_registration_id, undefined),
      ]),
    p && paymentMeans(p),
    (inv.vat_breakdown ?? []).map((b) =>
      element('ram:ApplicableTradeTax', [
        amount('ram:CalculatedAmount', b.tax_amount),
        leaf('ram:TypeCode', 'VAT'),
        leaf('ram:ExemptionReason', b.exemption_reason),
        amount('ram:BasisAmount', b.taxable_amount),
        leaf('ram:CategoryCode', b.category),
        leaf('ram:ExemptionReasonCode', b.exemption_reason_code),
        // BT-7/BT-8 are document level; CII's binding repeats them in each breakdown
        inv.tax_point_date &&
          element('ram:TaxPointDate', [
            element('udt:DateString', [compactDate(inv.tax_point_date)!], { format: '102' }),
          ]),
        leaf('ram:DueDateTypeCode', inv.tax_point_code),
        amount('ram:RateApplicablePercent', b.rate),
      ]),
    ),
    period(inv.invoicing_period),
    (inv.allowances ?? []).map((a) => allowanceCharge(false, a)),
    (inv.charges ?? []).map((c) => allowanceCharge(true, c)),
    group('ram:SpecifiedTradePaymentTerms', [
      leaf('ram:Description', inv.payment_terms),
      dateTime('ram:DueDateDateTime', inv.due_date),
      leaf('ram:DirectDebitMandateID', p?.direct_debit?.mandate_id),
    ]),
    element('ram:SpecifiedTradeSettlementHeaderMonetarySummation', [
      amount('ram:LineTotalAmount', t.line_total),
      amount('ram:ChargeTotalAmount', t.charge_total),
      amount('ram:AllowanceTotalAmount', t.allowance_total),
      amount('ram:TaxBasisTotalAmount', t.tax_exclusive),
      amount('ram:TaxTotalAmount', t.vat_total, cur),
      inv.tax_currency && amount('ram:TaxTotalAmount', t.vat_total_tax_currency, inv.tax_currency),
      amount('ram:RoundingAmount', t.rounding),
      amount('ram:GrandTotalAmount', t.tax_inclusive),
      amount('ram:TotalPrepaidAmount', t.prepaid),
      amount('ram:DuePayableAmount', t.due_payable),
    ]),
    preceding.map((r) =>
      element('ram:InvoiceReferencedDocument', [
        leaf('ram:IssuerAssignedID', r.number),
        r.issue_date &&
          element('ram:FormattedIssueDateTime', [
            element('qdt:DateTimeString', [compactDate(r.issue_date)!], { format: '102' }),
          ]),
      ]),
    ),
    inv.buyer_accounting_reference &&
      element('ram:ReceivableSpecifiedTradeAccountingAccount', [
        leaf('ram:ID', inv.buyer_accounting_reference),
      ]),
  ])
}

/** The CII document of a complete invoice holding only what `profile` carries. */
export function writeCii(
  inv: Invoice,
  profile: ProfileId,
  options: Pick<EinvoiceWriteOptions, 'test'>,
): Buffer {
  const notes = writtenNotes(inv, profile, options.test)
  return xmlDocument(
    element(
      'rsm:CrossIndustryInvoice',
      [
        element('rsm:ExchangedDocumentContext', [
          options.test && profile === 'EXTENDED' && indicator('ram:TestIndicator', true),
          inv.process &&
            element('ram:BusinessProcessSpecifiedDocumentContextParameter', [leaf('ram:ID', inv.process)]),
          element('ram:GuidelineSpecifiedDocumentContextParameter', [leaf('ram:ID', GUIDELINE_IDS[profile])]),
        ]),
        element('rsm:ExchangedDocument', [
          leaf('ram:ID', inv.number),
          leaf('ram:TypeCode', inv.type_code),
          dateTime('ram:IssueDateTime', inv.issue_date),
          notes.map((n) =>
            element('ram:IncludedNote', [
              leaf('ram:Content', n.text),
              leaf('ram:SubjectCode', n.subject_code),
            ]),
          ),
        ]),
        element('rsm:SupplyChainTradeTransaction', [
          (inv.lines ?? []).map(line),
          agreement(inv),
          delivery(inv),
          settlement(inv),
        ]),
      ],
      NS,
    ),
  )
}
