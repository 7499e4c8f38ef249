import type { TObject } from 'typebox'
import type { ConformanceReport, Finding } from './pdf-pipeline-contracts.ts'

// An e-invoice profile (SPEC 4.3: MINIMUM ... XRECHNUNG) turns an EN 16931 invoice model into
// XML in one or both syntaxes. Core runs, in order: the model schema, checkModel (a finding of
// severity error fails with `einvoice_invalid`), writeXml, then every XML validation hook (an
// error fails with `einvoice_validation_failed`, warnings become `einvoice_validation_warning`).

export type EinvoiceSyntax = 'cii' | 'ubl'

/** The invoice model: EN 16931 business terms, as the profile's modelSchema types them. */
export type EinvoiceModel = Record<string, unknown>

export interface EinvoiceWriteOptions {
  syntax: EinvoiceSyntax
  /** a test render: the XML carries the TEST note (BT-22) the profile allows */
  test: boolean
}

/** Checks generated XML (an XSD, Schematron rules); findings' paths are XPath. */
export interface EinvoiceXmlValidator {
  readonly id: string
  /** the syntaxes it checks */
  readonly syntaxes: readonly EinvoiceSyntax[]
  validate(xml: Buffer, options: { syntax: EinvoiceSyntax; signal: AbortSignal }): Promise<ConformanceReport>
}

export interface EinvoiceProfile<M extends EinvoiceModel = EinvoiceModel> {
  /** the `profile` value, e.g. `EN16931` */
  readonly id: string
  readonly syntaxes: readonly EinvoiceSyntax[]
  /** JSON Schema of the model; requests are validated against it before checkModel */
  readonly modelSchema: TObject
  /** the profile's business rules on the model; findings' paths are JSON Pointers into `invoice` */
  checkModel(model: M): Finding[]
  /** the XML, UTF-8; called only when checkModel found no error */
  writeXml(model: M, options: EinvoiceWriteOptions): Buffer
  readonly xmlValidators: readonly EinvoiceXmlValidator[]
  /** the file name of the XML: the request's `filename`, else from the model (see einvoiceFilename) */
  filename(model: M, requested: string | null): string
}

/**
 * The one place for SPEC 4.3's file naming: the requested name or the invoice number, made
 * safe (letters, digits, `.`, `-`, `_`), at most 200 characters, with `.xml` enforced.
 */
export function einvoiceFilename(requested: string | null, invoiceNumber: string): string {
  const base = (requested ?? invoiceNumber).replace(/\.xml$/i, '')
  const safe = base
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 196)
  return `${safe || 'invoice'}.xml`
}
