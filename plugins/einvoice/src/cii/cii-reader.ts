import type { Invoice, InvoiceLine } from '../model/invoice-schema.ts'
import { compact, isoDate, withPlainDecimals } from '../model/values.ts'
import { profileOfGuideline } from '../profile-guidelines.ts'
import type { Draft, ReadInvoice } from '../read-result.ts'
import { firstHaving, type XmlNode } from '../xml/xml-tree.ts'

// CII D16B back into the model: the mirror of cii-writer.ts. Every element and attribute it
// takes is marked, so `unread` lists what the model does not hold (yet).

type Identifier = { id: string; scheme?: string | undefined }

const identifier = (node: XmlNode | undefined, schemeAttribute = 'schemeID'): Identifier | undefined => {
  const id = node?.value()
  return node && id !== undefined ? { id, scheme: node.attribute(schemeAttribute) } : undefined
}

const date = (node: XmlNode | undefined, ...path: string[]) => isoDate(node?.value(...path))

const dateTime = (node: XmlNode | undefined, name: string) => {
  const holder = node?.one(name)
  const text = holder?.one('DateTimeString')
  text?.attribute('format')
  return isoDate(text?.value())
}

function address(node: XmlNode | undefined) {
  if (!node) return undefined
  return {
    line1: node.value('LineOne'),
    line2: node.value('LineTwo'),
    line3: node.value('LineThree'),
    city: node.value('CityName'),
    post_code: node.value('PostcodeCode'),
    country_subdivision: node.value('CountrySubDivisionName'),
    country: node.value('CountryID') ?? '',
  }
}

function contact(node: XmlNode | undefined) {
  if (!node) return undefined
  return {
    name: node.value('PersonName') ?? node.value('DepartmentName'),
    phone: node.value('TelephoneUniversalCommunication', 'CompleteNumber'),
    email: node.value('EmailURIUniversalCommunication', 'URIID'),
  }
}

/** BT-29/46/60/71: ID without scheme, GlobalID with its schemeID. */
function partyIds(party: XmlNode): Identifier[] {
  return [
    ...party.all('ID').map((n) => identifier(n)!),
    ...party.all('GlobalID').map((n) => identifier(n)!),
  ].filter((i) => i !== undefined)
}

function taxRegistration(party: XmlNode, scheme: 'VA' | 'FC'): string | undefined {
  for (const reg of party.children.filter((c) => c.name === 'SpecifiedTaxRegistration')) {
    const id = reg.children.find((c) => c.name === 'ID')
    if (id?.attributes.schemeID === scheme) {
      reg.used = true
      id.used = true
      id.attribute('schemeID')
      return id.value()
    }
  }
  return undefined
}

/** What the model holds of each party; the rest of a party element stays unread (and listed). */
const PARTY_FIELDS = {
  seller: [
    'ids',
    'name',
    'additional_legal_info',
    'legal',
    'contact',
    'address',
    'electronic_address',
    'vat_id',
    'tax_registration_id',
  ],
  buyer: ['id', 'name', 'legal', 'contact', 'address', 'electronic_address', 'vat_id'],
  payee: ['id', 'name', 'legal_id'],
  tax_representative: ['name', 'address', 'vat_id'],
  ship_to: ['id', 'name', 'address'],
} as const
type PartyRole = keyof typeof PARTY_FIELDS
type PartyField = (typeof PARTY_FIELDS)[PartyRole][number]

/** The first ID or GlobalID: the model holds one identifier for these parties. */
function firstPartyId(party: XmlNode): Identifier | undefined {
  const first = party.children.find((c) => c.name === 'ID' || c.name === 'GlobalID')
  if (first) first.used = true
  return identifier(first)
}

function party(node: XmlNode, role: PartyRole) {
  const wanted = new Set<PartyField>(PARTY_FIELDS[role])
  const take = <T>(field: PartyField, read: () => T): T | undefined =>
    wanted.has(field) ? read() : undefined
  const legal =
    take('legal', () => node.one('SpecifiedLegalOrganization')) ??
    take('legal_id', () => node.one('SpecifiedLegalOrganization'))
  return {
    ids: take('ids', () => partyIds(node)) ?? [],
    id: take('id', () => firstPartyId(node)),
    name: take('name', () => node.value('Name')) ?? '',
    additional_legal_info: take('additional_legal_info', () => node.value('Description')),
    legal_registration_id: legal && identifier(legal.one('ID')),
    trading_name: take('legal', () => legal?.value('TradingBusinessName')),
    contact: take('contact', () => contact(node.one('DefinedTradeContact'))),
    address: take('address', () => address(node.one('PostalTradeAddress'))),
    electronic_address: take('electronic_address', () =>
      identifier(node.one('URIUniversalCommunication')?.one('URIID')),
    ),
    vat_id: take('vat_id', () => taxRegistration(node, 'VA')),
    tax_registration_id: take('tax_registration_id', () => taxRegistration(node, 'FC')),
  }
}

function allowanceCharges(nodes: readonly XmlNode[], withVat: boolean) {
  const allowances: Record<string, unknown>[] = []
  const charges: Record<string, unknown>[] = []
  for (const n of nodes) {
    const isCharge = n.value('ChargeIndicator', 'Indicator') === 'true'
    const tax = withVat ? n.one('CategoryTradeTax') : undefined
    tax?.value('TypeCode')
    const entry = {
      amount: n.value('ActualAmount') ?? '',
      base_amount: n.value('BasisAmount'),
      percentage: n.value('CalculationPercent'),
      ...(withVat
        ? { vat_category: tax?.value('CategoryCode') ?? '', vat_rate: tax?.value('RateApplicablePercent') }
        : {}),
      reason: n.value('Reason'),
      reason_code: n.value('ReasonCode'),
    }
    ;(isCharge ? charges : allowances).push(entry)
  }
  return { allowances, charges }
}

function period(node: XmlNode | undefined) {
  return node ? { start: dateTime(node, 'StartDateTime'), end: dateTime(node, 'EndDateTime') } : undefined
}

function line(item: XmlNode): Draft<InvoiceLine> {
  const doc = item.one('AssociatedDocumentLineDocument')
  const product = item.one('SpecifiedTradeProduct')
  const agreement = item.one('SpecifiedLineTradeAgreement')
  const delivery = item.one('SpecifiedLineTradeDelivery')
  const settlement = item.one('SpecifiedLineTradeSettlement')
  const gross = agreement?.one('GrossPriceProductTradePrice')
  const net = agreement?.one('NetPriceProductTradePrice')
  const netBasis = net?.one('BasisQuantity')
  const grossBasis = gross?.one('BasisQuantity')
  const basis = netBasis ?? grossBasis
  grossBasis?.attribute('unitCode')
  const discount = gross?.one('AppliedTradeAllowanceCharge')
  discount?.value('ChargeIndicator', 'Indicator')
  const quantity = delivery?.one('BilledQuantity')
  const tax = settlement?.one('ApplicableTradeTax')
  tax?.value('TypeCode')
  const objectRef = settlement?.all('AdditionalReferencedDocument').find((d) => d.value('TypeCode') === '130')
  const standardId = product?.one('GlobalID')
  const { allowances, charges } = allowanceCharges(
    settlement?.all('SpecifiedTradeAllowanceCharge') ?? [],
    false,
  )
  return {
    id: doc?.value('LineID') ?? '',
    note: doc?.value('IncludedNote', 'Content'),
    object_identifier: objectRef && {
      id: objectRef.value('IssuerAssignedID') ?? '',
      scheme: objectRef.value('ReferenceTypeCode'),
    },
    quantity: quantity?.value() ?? '',
    unit: quantity?.attribute('unitCode') ?? '',
    net_amount: settlement?.value('SpecifiedTradeSettlementLineMonetarySummation', 'LineTotalAmount'),
    order_line_reference: agreement?.value('BuyerOrderReferencedDocument', 'LineID'),
    accounting_reference: settlement?.value('ReceivableSpecifiedTradeAccountingAccount', 'ID'),
    period: period(settlement?.one('BillingSpecifiedPeriod')),
    allowances,
    charges,
    net_price: net?.value('ChargeAmount') ?? '',
    price_discount: discount?.value('ActualAmount'),
    gross_price: gross?.value('ChargeAmount'),
    base_quantity: basis?.value(),
    base_quantity_unit: basis?.attribute('unitCode'),
    vat_category: tax?.value('CategoryCode') ?? '',
    vat_rate: tax?.value('RateApplicablePercent'),
    name: product?.value('Name') ?? '',
    description: product?.value('Description'),
    seller_item_id: product?.value('SellerAssignedID'),
    buyer_item_id: product?.value('BuyerAssignedID'),
    standard_item_id: identifier(standardId),
    classifications: product?.all('DesignatedProductClassification').map((c) => {
      const code = c.one('ClassCode')
      return {
        id: code?.value() ?? '',
        scheme: code?.attribute('listID') ?? '',
        version: code?.attribute('listVersionID'),
      }
    }),
    origin_country: product?.value('OriginTradeCountry', 'ID'),
    attributes: product
      ?.all('ApplicableProductCharacteristic')
      .map((c) => ({ name: c.value('Description') ?? '', value: c.value('Value') ?? '' })),
  }
}

/** A CII document (its root element) as the model, with what was not read. */
export function readCii(root: XmlNode): ReadInvoice {
  const context = root.one('ExchangedDocumentContext')
  const guideline = context?.value('GuidelineSpecifiedDocumentContextParameter', 'ID')
  const test = context?.value('TestIndicator', 'Indicator') === 'true'
  const doc = root.one('ExchangedDocument')
  const tx = root.one('SupplyChainTradeTransaction')
  const agreement = tx?.one('ApplicableHeaderTradeAgreement')
  const delivery = tx?.one('ApplicableHeaderTradeDelivery')
  const settlement = tx?.one('ApplicableHeaderTradeSettlement')
  const sellerNode = agreement?.one('SellerTradeParty')
  const buyerNode = agreement?.one('BuyerTradeParty')
  const s = sellerNode ? party(sellerNode, 'seller') : undefined
  const b = buyerNode ? party(buyerNode, 'buyer') : undefined
  const additional = agreement?.all('AdditionalReferencedDocument') ?? []
  const byType = (code: string) => additional.filter((d) => d.value('TypeCode') === code)
  const project = agreement?.one('SpecifiedProcuringProject')
  const shipTo = delivery?.one('ShipToTradeParty')
  const shipToParty = shipTo ? party(shipTo, 'ship_to') : undefined
  const payeeNode = settlement?.one('PayeeTradeParty')
  const payee = payeeNode ? party(payeeNode, 'payee') : undefined
  const repNode = agreement?.one('SellerTaxRepresentativeTradeParty')
  const rep = repNode ? party(repNode, 'tax_representative') : undefined
  const means = settlement?.all('SpecifiedTradeSettlementPaymentMeans') ?? []
  const terms = settlement?.all('SpecifiedTradePaymentTerms') ?? []
  const taxes = settlement?.all('ApplicableTradeTax') ?? []
  const firstTax = taxes[0]
  const summation = settlement?.one('SpecifiedTradeSettlementHeaderMonetarySummation')
  const currency = settlement?.value('InvoiceCurrencyCode') ?? ''
  const taxCurrency = settlement?.value('TaxCurrencyCode')
  const taxTotals = summation?.all('TaxTotalAmount') ?? []
  const taxTotal = (cur: string | undefined) => {
    const node =
      taxTotals.find((n) => n.attributes.currencyID === cur) ??
      (cur === currency ? taxTotals.find((n) => !n.attributes.currencyID) : undefined)
    node?.attribute('currencyID')
    return node?.value()
  }
  const { allowances, charges } = allowanceCharges(
    settlement?.all('SpecifiedTradeAllowanceCharge') ?? [],
    true,
  )
  const card = firstHaving(means, 'ApplicableTradeSettlementFinancialCard')?.one(
    'ApplicableTradeSettlementFinancialCard',
  )
  const debited = firstHaving(means, 'PayerPartyDebtorFinancialAccount', 'IBANID')?.value(
    'PayerPartyDebtorFinancialAccount',
    'IBANID',
  )
  const mandate = firstHaving(terms, 'DirectDebitMandateID')?.value('DirectDebitMandateID')
  const creditorId = settlement?.value('CreditorReferenceID')
  const firstMeans = means[0]
  // BT-81/BT-82 are one per invoice; CII repeats them per account: read where they agree
  for (const m of means.slice(1))
    for (const name of ['TypeCode', 'Information'])
      if (
        m.children.find((c) => c.name === name)?.text ===
        firstMeans?.children.find((c) => c.name === name)?.text
      )
        m.value(name)
  const invoice: Draft<Invoice> = {
    number: doc?.value('ID') ?? '',
    issue_date: dateTime(doc, 'IssueDateTime') ?? '',
    type_code: doc?.value('TypeCode') ?? '',
    currency,
    tax_currency: taxCurrency,
    tax_point_date: firstTax && date(firstTax, 'TaxPointDate', 'DateString'),
    tax_point_code: firstTax?.value('DueDateTypeCode'),
    due_date: dateTime(firstHaving(terms, 'DueDateDateTime'), 'DueDateDateTime'),
    buyer_reference: agreement?.value('BuyerReference'),
    project_reference: project && { id: project.value('ID') ?? '', name: projectName(project.value('Name')) },
    contract_reference: agreement?.value('ContractReferencedDocument', 'IssuerAssignedID'),
    order_reference: agreement?.value('BuyerOrderReferencedDocument', 'IssuerAssignedID'),
    sales_order_reference: agreement?.value('SellerOrderReferencedDocument', 'IssuerAssignedID'),
    receiving_advice_reference: delivery?.value('ReceivingAdviceReferencedDocument', 'IssuerAssignedID'),
    despatch_advice_reference: delivery?.value('DespatchAdviceReferencedDocument', 'IssuerAssignedID'),
    tender_reference: byType('50')[0]?.value('IssuerAssignedID'),
    invoiced_object: byType('130').map((d) => ({
      id: d.value('IssuerAssignedID') ?? '',
      scheme: d.value('ReferenceTypeCode'),
    }))[0],
    buyer_accounting_reference: settlement?.value('ReceivableSpecifiedTradeAccountingAccount', 'ID'),
    payment_terms: firstHaving(terms, 'Description')?.value('Description'),
    notes: doc
      ?.all('IncludedNote')
      .map((n) => ({ subject_code: n.value('SubjectCode'), text: n.value('Content') ?? '' })),
    process: context?.value('BusinessProcessSpecifiedDocumentContextParameter', 'ID'),
    preceding_invoices: settlement?.all('InvoiceReferencedDocument').map((r) => ({
      number: r.value('IssuerAssignedID') ?? '',
      issue_date: dateTime(r, 'FormattedIssueDateTime'),
    })),
    seller: {
      name: s?.name ?? '',
      trading_name: s?.trading_name,
      identifiers: s?.ids,
      legal_registration_id: s?.legal_registration_id,
      vat_id: s?.vat_id,
      tax_registration_id: s?.tax_registration_id,
      additional_legal_info: s?.additional_legal_info,
      electronic_address: s?.electronic_address,
      address: s?.address ?? { country: '' },
      contact: s?.contact,
    },
    buyer: {
      name: b?.name ?? '',
      trading_name: b?.trading_name,
      identifier: b?.id,
      legal_registration_id: b?.legal_registration_id,
      vat_id: b?.vat_id,
      electronic_address: b?.electronic_address,
      address: b?.address,
      contact: b?.contact,
    },
    payee: payee && {
      name: payee.name,
      identifier: payee.id,
      legal_registration_id: payee.legal_registration_id,
    },
    tax_representative: rep && {
      name: rep.name,
      vat_id: rep.vat_id ?? '',
      address: rep.address ?? { country: '' },
    },
    delivery:
      shipTo || delivery?.children.some((c) => c.name === 'ActualDeliverySupplyChainEvent')
        ? {
            party_name: shipToParty?.name || undefined,
            location_id: shipToParty?.id,
            date: dateTime(delivery?.one('ActualDeliverySupplyChainEvent'), 'OccurrenceDateTime'),
            address: shipToParty?.address,
          }
        : undefined,
    invoicing_period: period(settlement?.one('BillingSpecifiedPeriod')),
    payment:
      firstMeans || creditorId || mandate || settlement?.children.some((c) => c.name === 'PaymentReference')
        ? {
            means_code: firstMeans?.value('TypeCode') ?? '',
            means_text: firstMeans?.value('Information'),
            remittance_information: settlement?.value('PaymentReference'),
            credit_transfers: means
              .filter((m) => m.children.some((c) => c.name === 'PayeePartyCreditorFinancialAccount'))
              .map((m) => {
                const account = m.one('PayeePartyCreditorFinancialAccount')
                return {
                  account_id: account?.value('IBANID') ?? account?.value('ProprietaryID') ?? '',
                  account_name: account?.value('AccountName'),
                  service_provider_id: m.value('PayeeSpecifiedCreditorFinancialInstitution', 'BICID'),
                }
              }),
            card: card && {
              account_number: card.value('ID') ?? '',
              holder_name: card.value('CardholderName'),
            },
            direct_debit:
              mandate || creditorId || debited
                ? { mandate_id: mandate, creditor_id: creditorId, debited_account_id: debited }
                : undefined,
          }
        : undefined,
    allowances,
    charges,
    totals: summation && {
      line_total: summation.value('LineTotalAmount'),
      allowance_total: summation.value('AllowanceTotalAmount'),
      charge_total: summation.value('ChargeTotalAmount'),
      tax_exclusive: summation.value('TaxBasisTotalAmount'),
      vat_total: taxTotal(currency),
      vat_total_tax_currency: taxCurrency && taxCurrency !== currency ? taxTotal(taxCurrency) : undefined,
      tax_inclusive: summation.value('GrandTotalAmount'),
      prepaid: summation.value('TotalPrepaidAmount'),
      rounding: summation.value('RoundingAmount'),
      due_payable: summation.value('DuePayableAmount'),
    },
    vat_breakdown: taxes.map((t) => {
      t.value('TypeCode')
      // BT-7/BT-8 repeat in every breakdown; the first was read above: the others are taken
      // where they say the same, and listed as unread where they do not
      const text = (n: XmlNode | undefined, ...path: string[]) => {
        for (const name of path) n = n?.children.find((c) => c.name === name)
        return n?.text
      }
      if (text(t, 'TaxPointDate', 'DateString') === text(firstTax, 'TaxPointDate', 'DateString'))
        t.one('TaxPointDate')?.one('DateString')?.attribute('format')
      if (text(t, 'DueDateTypeCode') === text(firstTax, 'DueDateTypeCode')) t.one('DueDateTypeCode')
      return {
        taxable_amount: t.value('BasisAmount') ?? '',
        tax_amount: t.value('CalculatedAmount') ?? '',
        category: t.value('CategoryCode') ?? '',
        rate: t.value('RateApplicablePercent'),
        exemption_reason: t.value('ExemptionReason'),
        exemption_reason_code: t.value('ExemptionReasonCode'),
      }
    }),
    attachments: byType('916').map((d) => {
      const content = d.one('AttachmentBinaryObject')
      return {
        id: d.value('IssuerAssignedID') ?? '',
        description: d.value('Name'),
        uri: d.value('URIID'),
        content: content && {
          data: content.value() ?? '',
          mime_code: content.attribute('mimeCode') ?? '',
          filename: content.attribute('filename') ?? '',
        },
      }
    }),
    lines: tx?.all('IncludedSupplyChainTradeLineItem').map(line),
  }
  for (const n of [sellerNode, buyerNode, shipTo, payeeNode, repNode]) markDateFormats(n)
  markDateFormats(root)
  return {
    invoice: withPlainDecimals(compact(invoice) as Invoice),
    guideline,
    profile: profileOfGuideline(guideline),
    test,
    unread: root.unread(),
  }
}

/** `format="102"` attributes are read with their dates; mark them all so they are not listed. */
function markDateFormats(node: XmlNode | undefined): void {
  if (!node) return
  if (node.used && 'format' in node.attributes) node.attribute('format')
  for (const c of node.children) markDateFormats(c)
}

/** The placeholder EN 16931's CII binding writes for the mandatory project name is no name. */
const projectName = (name: string | undefined) => (name === 'Project reference' ? undefined : name)
