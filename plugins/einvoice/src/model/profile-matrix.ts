import type { TObject, TSchema } from 'typebox'
import { InvoiceSchema } from './invoice-schema.ts'

// The per-profile field matrix: which model fields each profile carries into its XML and which
// it requires. Data, read by the per-profile schema (profileSchema), the model checks and
// docs/einvoice-model.md. Profiles nest: MINIMUM ⊂ BASIC_WL ⊂ BASIC ⊂ EN16931 ⊂ EXTENDED, and
// XRECHNUNG (the German CIUS) carries what EN16931 carries with more required (BR-DE-*).
// Sources: EN 16931-1 (cardinalities), the Factur-X/ZUGFeRD profile tables (which terms MINIMUM,
// BASIC WL and BASIC keep), the XRechnung 3.0 specification (BR-DE-1 ... BR-DE-16).

export const PROFILE_IDS = ['MINIMUM', 'BASIC_WL', 'BASIC', 'EN16931', 'EXTENDED', 'XRECHNUNG'] as const
export type ProfileId = (typeof PROFILE_IDS)[number]

/** The nesting order; XRECHNUNG sits with EN16931 (same fields, more required). */
const LEVEL: Record<ProfileId, number> = {
  MINIMUM: 0,
  BASIC_WL: 1,
  BASIC: 2,
  EN16931: 3,
  XRECHNUNG: 3,
  EXTENDED: 4,
}

/** The lowest profile that carries each field; a field not named here starts at EN16931. */
const CARRIED_FROM: Record<string, ProfileId> = {
  // MINIMUM: the header, the parties' names and tax identifiers, four totals
  number: 'MINIMUM',
  issue_date: 'MINIMUM',
  type_code: 'MINIMUM',
  currency: 'MINIMUM',
  buyer_reference: 'MINIMUM',
  order_reference: 'MINIMUM',
  seller: 'MINIMUM',
  'seller.name': 'MINIMUM',
  'seller.legal_registration_id': 'MINIMUM',
  'seller.vat_id': 'MINIMUM',
  'seller.tax_registration_id': 'MINIMUM',
  'seller.address': 'MINIMUM',
  'seller.address.country': 'MINIMUM',
  buyer: 'MINIMUM',
  'buyer.name': 'MINIMUM',
  'buyer.legal_registration_id': 'MINIMUM',
  totals: 'MINIMUM',
  'totals.tax_exclusive': 'MINIMUM',
  'totals.vat_total': 'MINIMUM',
  'totals.tax_inclusive': 'MINIMUM',
  'totals.due_payable': 'MINIMUM',
  // BASIC_WL: every document level group, no lines
  tax_currency: 'BASIC_WL',
  tax_point_date: 'BASIC_WL',
  tax_point_code: 'BASIC_WL',
  due_date: 'BASIC_WL',
  contract_reference: 'BASIC_WL',
  despatch_advice_reference: 'BASIC_WL',
  buyer_accounting_reference: 'BASIC_WL',
  payment_terms: 'BASIC_WL',
  notes: 'BASIC_WL',
  'notes[].subject_code': 'BASIC_WL',
  'notes[].text': 'BASIC_WL',
  preceding_invoices: 'BASIC_WL',
  'preceding_invoices[].number': 'BASIC_WL',
  'preceding_invoices[].issue_date': 'BASIC_WL',
  'seller.identifiers': 'BASIC_WL',
  'seller.electronic_address': 'BASIC_WL',
  'seller.address.line1': 'BASIC_WL',
  'seller.address.line2': 'BASIC_WL',
  'seller.address.line3': 'BASIC_WL',
  'seller.address.city': 'BASIC_WL',
  'seller.address.post_code': 'BASIC_WL',
  'seller.address.country_subdivision': 'BASIC_WL',
  'buyer.identifier': 'BASIC_WL',
  'buyer.vat_id': 'BASIC_WL',
  'buyer.electronic_address': 'BASIC_WL',
  'buyer.address': 'BASIC_WL',
  'buyer.address.line1': 'BASIC_WL',
  'buyer.address.line2': 'BASIC_WL',
  'buyer.address.line3': 'BASIC_WL',
  'buyer.address.city': 'BASIC_WL',
  'buyer.address.post_code': 'BASIC_WL',
  'buyer.address.country_subdivision': 'BASIC_WL',
  'buyer.address.country': 'BASIC_WL',
  payee: 'BASIC_WL',
  'payee.name': 'BASIC_WL',
  'payee.identifier': 'BASIC_WL',
  'payee.legal_registration_id': 'BASIC_WL',
  tax_representative: 'BASIC_WL',
  'tax_representative.name': 'BASIC_WL',
  'tax_representative.vat_id': 'BASIC_WL',
  'tax_representative.address': 'BASIC_WL',
  'tax_representative.address.line1': 'BASIC_WL',
  'tax_representative.address.line2': 'BASIC_WL',
  'tax_representative.address.line3': 'BASIC_WL',
  'tax_representative.address.city': 'BASIC_WL',
  'tax_representative.address.post_code': 'BASIC_WL',
  'tax_representative.address.country_subdivision': 'BASIC_WL',
  'tax_representative.address.country': 'BASIC_WL',
  delivery: 'BASIC_WL',
  'delivery.party_name': 'BASIC_WL',
  'delivery.location_id': 'BASIC_WL',
  'delivery.date': 'BASIC_WL',
  'delivery.address': 'BASIC_WL',
  'delivery.address.line1': 'BASIC_WL',
  'delivery.address.line2': 'BASIC_WL',
  'delivery.address.line3': 'BASIC_WL',
  'delivery.address.city': 'BASIC_WL',
  'delivery.address.post_code': 'BASIC_WL',
  'delivery.address.country_subdivision': 'BASIC_WL',
  'delivery.address.country': 'BASIC_WL',
  invoicing_period: 'BASIC_WL',
  'invoicing_period.start': 'BASIC_WL',
  'invoicing_period.end': 'BASIC_WL',
  payment: 'BASIC_WL',
  'payment.means_code': 'BASIC_WL',
  'payment.remittance_information': 'BASIC_WL',
  'payment.credit_transfers': 'BASIC_WL',
  'payment.credit_transfers[].account_id': 'BASIC_WL',
  'payment.direct_debit': 'BASIC_WL',
  'payment.direct_debit.mandate_id': 'BASIC_WL',
  'payment.direct_debit.creditor_id': 'BASIC_WL',
  'payment.direct_debit.debited_account_id': 'BASIC_WL',
  allowances: 'BASIC_WL',
  'allowances[].amount': 'BASIC_WL',
  'allowances[].base_amount': 'BASIC_WL',
  'allowances[].percentage': 'BASIC_WL',
  'allowances[].vat_category': 'BASIC_WL',
  'allowances[].vat_rate': 'BASIC_WL',
  'allowances[].reason': 'BASIC_WL',
  'allowances[].reason_code': 'BASIC_WL',
  charges: 'BASIC_WL',
  'charges[].amount': 'BASIC_WL',
  'charges[].base_amount': 'BASIC_WL',
  'charges[].percentage': 'BASIC_WL',
  'charges[].vat_category': 'BASIC_WL',
  'charges[].vat_rate': 'BASIC_WL',
  'charges[].reason': 'BASIC_WL',
  'charges[].reason_code': 'BASIC_WL',
  'totals.line_total': 'BASIC_WL',
  'totals.allowance_total': 'BASIC_WL',
  'totals.charge_total': 'BASIC_WL',
  'totals.vat_total_tax_currency': 'BASIC_WL',
  'totals.prepaid': 'BASIC_WL',
  'totals.rounding': 'BASIC_WL',
  vat_breakdown: 'BASIC_WL',
  'vat_breakdown[].taxable_amount': 'BASIC_WL',
  'vat_breakdown[].tax_amount': 'BASIC_WL',
  'vat_breakdown[].category': 'BASIC_WL',
  'vat_breakdown[].rate': 'BASIC_WL',
  'vat_breakdown[].exemption_reason': 'BASIC_WL',
  'vat_breakdown[].exemption_reason_code': 'BASIC_WL',
  // BASIC: lines with their price, quantity, VAT and name
  lines: 'BASIC',
  'lines[].id': 'BASIC',
  'lines[].note': 'BASIC',
  'lines[].quantity': 'BASIC',
  'lines[].unit': 'BASIC',
  'lines[].net_amount': 'BASIC',
  'lines[].period': 'BASIC',
  'lines[].period.start': 'BASIC',
  'lines[].period.end': 'BASIC',
  'lines[].allowances': 'BASIC',
  'lines[].allowances[].amount': 'BASIC',
  'lines[].allowances[].reason': 'BASIC',
  'lines[].allowances[].reason_code': 'BASIC',
  'lines[].charges': 'BASIC',
  'lines[].charges[].amount': 'BASIC',
  'lines[].charges[].reason': 'BASIC',
  'lines[].charges[].reason_code': 'BASIC',
  'lines[].net_price': 'BASIC',
  'lines[].price_discount': 'BASIC',
  'lines[].gross_price': 'BASIC',
  'lines[].base_quantity': 'BASIC',
  'lines[].base_quantity_unit': 'BASIC',
  'lines[].vat_category': 'BASIC',
  'lines[].vat_rate': 'BASIC',
  'lines[].name': 'BASIC',
  'lines[].standard_item_id': 'BASIC',
}

/**
 * Fields a profile requires beyond the schema's own (EN 16931's 1..1 terms are required in the
 * schema itself). Lines: EN 16931 BR-16 (at least one line) from BASIC up; XRECHNUNG: BR-DE-*.
 */
const REQUIRED_IN: Record<string, readonly ProfileId[]> = {
  lines: ['BASIC', 'EN16931', 'EXTENDED', 'XRECHNUNG'],
  'buyer.address': ['BASIC', 'EN16931', 'EXTENDED', 'XRECHNUNG'],
  buyer_reference: ['XRECHNUNG'], // BR-DE-15
  'seller.contact': ['XRECHNUNG'], // BR-DE-2
  'seller.contact.name': ['XRECHNUNG'], // BR-DE-5
  'seller.contact.phone': ['XRECHNUNG'], // BR-DE-6
  'seller.contact.email': ['XRECHNUNG'], // BR-DE-7
  'seller.address.city': ['XRECHNUNG'], // BR-DE-3
  'seller.address.post_code': ['XRECHNUNG'], // BR-DE-4
  'buyer.address.city': ['XRECHNUNG'], // BR-DE-8
  'buyer.address.post_code': ['XRECHNUNG'], // BR-DE-9
  'seller.electronic_address': ['XRECHNUNG'], // BR-DE-SELLER-ELECTRONIC-ADDRESS (3.0)
  'buyer.electronic_address': ['XRECHNUNG'], // BR-DE-BUYER-ELECTRONIC-ADDRESS (3.0)
  payment: ['XRECHNUNG'], // BR-DE-1
}

/**
 * Fields a profile accepts in the model without writing them: MINIMUM and BASIC_WL carry no
 * lines, but lines are how totals are computed, so they may be given there.
 */
const COMPUTING_ONLY: Record<string, readonly ProfileId[]> = {
  lines: ['MINIMUM', 'BASIC_WL'],
}

let termsByPath: Map<string, string> | undefined

/**
 * A field the matrix does not name starts at EN16931, except the parts of a term (an
 * identifier's `id` and `scheme`, BT-30 and BT-30-1), which go with the term they belong to.
 */
function carriedFrom(path: string): ProfileId {
  const named = CARRIED_FROM[path]
  if (named) return named
  termsByPath ??= new Map(modelFields().map((f) => [f.path, f.term]))
  const parent = path.slice(0, path.lastIndexOf('.')).replace(/\[\]$/, '')
  const term = termsByPath.get(path)
  const parentTerm = termsByPath.get(parent)
  const partOfParent =
    parent !== path && term && parentTerm && (term === parentTerm || term.startsWith(`${parentTerm}-`))
  return partOfParent ? carriedFrom(parent) : 'EN16931'
}

export type FieldStatus = 'required' | 'optional' | 'computing_only' | 'not_carried'

export interface ModelField {
  /** `seller.name`, `lines[].net_price` */
  path: string
  term: string
  description: string
  schema: TSchema
  /** required by the schema whenever its parent is present */
  schemaRequired: boolean
}

/** Every field of the model, depth first in schema order. */
export function modelFields(schema: TSchema = InvoiceSchema, prefix = ''): ModelField[] {
  const out: ModelField[] = []
  const object = objectOf(schema)
  if (!object) return out
  for (const [key, child] of Object.entries(object.properties as Record<string, TSchema>)) {
    const path = prefix ? `${prefix}.${key}` : key
    out.push({
      path,
      term: String((child as Record<string, unknown>)['x-term'] ?? ''),
      description: String((child as Record<string, unknown>).description ?? ''),
      schema: child,
      schemaRequired: ((object.required as string[] | undefined) ?? []).includes(key),
    })
    const inner = kindOf(child) === 'array' ? (child as unknown as { items: TSchema }).items : child
    out.push(...modelFields(inner, kindOf(child) === 'array' ? `${path}[]` : path))
  }
  return out
}

/** the JSON Schema `type` keyword (TSchema does not declare it) */
const kindOf = (schema: TSchema): unknown => (schema as { type?: unknown }).type

function objectOf(schema: TSchema): TObject | undefined {
  return kindOf(schema) === 'object' && (schema as TObject).properties ? (schema as TObject) : undefined
}

export function fieldStatus(path: string, profile: ProfileId, schemaRequired: boolean): FieldStatus {
  // a computing-only group's fields are accepted (and not written) with it
  const computing = Object.keys(COMPUTING_ONLY).some(
    (group) =>
      (path === group || path.startsWith(`${group}[]`) || path.startsWith(`${group}.`)) &&
      COMPUTING_ONLY[group]?.includes(profile),
  )
  if (computing) return 'computing_only'
  const from = carriedFrom(path)
  if (LEVEL[profile] < LEVEL[from]) return 'not_carried'
  return schemaRequired || REQUIRED_IN[path]?.includes(profile) ? 'required' : 'optional'
}

/** The paths the matrix names, for the test that keeps it in step with the schema. */
export function matrixPaths(): string[] {
  return [
    ...new Set([...Object.keys(CARRIED_FROM), ...Object.keys(REQUIRED_IN), ...Object.keys(COMPUTING_ONLY)]),
  ]
}

/**
 * The profile's model schema: the fields it does not carry removed (so a request that gives
 * one is refused, not silently dropped), its extra requirements added; a computing-only group
 * keeps its full shape.
 */
export function profileSchema(profile: ProfileId): TObject {
  return derive(InvoiceSchema, '', profile) as TObject
}

function derive(schema: TSchema, prefix: string, profile: ProfileId): TSchema {
  const object = objectOf(schema)
  if (!object) return schema
  const properties: Record<string, TSchema> = {}
  const required: string[] = []
  for (const [key, child] of Object.entries(object.properties as Record<string, TSchema>)) {
    const path = prefix ? `${prefix}.${key}` : key
    const status = fieldStatus(path, profile, ((object.required as string[] | undefined) ?? []).includes(key))
    if (status === 'not_carried') continue
    if (status === 'computing_only') {
      properties[key] = child
      continue
    }
    properties[key] =
      kindOf(child) === 'array'
        ? ({
            ...child,
            items: derive((child as unknown as { items: TSchema }).items, `${path}[]`, profile),
          } as TSchema)
        : derive(child, path, profile)
    if (status === 'required') required.push(key)
  }
  return { ...object, properties, required } as unknown as TSchema
}

/**
 * The part of a (completed) invoice a profile writes: fields it does not carry, and the
 * computing-only lines of MINIMUM and BASIC_WL, left out.
 */
export function carriedPart<T>(invoice: T, profile: ProfileId): T {
  return prune(invoice, InvoiceSchema, '', profile) as T
}

function prune(value: unknown, schema: TSchema, prefix: string, profile: ProfileId): unknown {
  if (Array.isArray(value))
    return value.map((v) => prune(v, (schema as unknown as { items: TSchema }).items, `${prefix}[]`, profile))
  const object = objectOf(schema)
  if (!object || typeof value !== 'object' || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [key, child] of Object.entries(value)) {
    const childSchema = (object.properties as Record<string, TSchema>)[key]
    const path = prefix ? `${prefix}.${key}` : key
    if (!childSchema) continue
    const status = fieldStatus(path, profile, false)
    if (status === 'not_carried' || status === 'computing_only') continue
    out[key] = prune(child, childSchema, path, profile)
  }
  return out
}
