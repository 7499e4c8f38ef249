import { existsSync } from 'node:fs'
import path from 'node:path'
import type { EinvoiceSyntax } from '@docsvc/core/sdk'

// The official schemas ship in plugins/einvoice/schemas (decision 0115): CII D16B (uncoupled code
// lists, as the EN 16931 validation artefacts use) and UBL 2.1. An operator may install newer ones
// in a folder of the same layout (DOCSVC_EINVOICE_ARTIFACTS); the files are never modified.

/** The shipped schema folder. */
export const SHIPPED_SCHEMAS = path.resolve(import.meta.dirname, '../../schemas')

/** Each document root's entry schema, relative to a schema folder. */
export const ENTRY_POINTS = {
  CrossIndustryInvoice: 'cii-d16b/uncoupled-clm/CII/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd',
  Invoice: 'ubl-2.1/maindoc/UBL-Invoice-2.1.xsd',
  CreditNote: 'ubl-2.1/maindoc/UBL-CreditNote-2.1.xsd',
} as const

export type DocumentRoot = keyof typeof ENTRY_POINTS

/** The roots each syntax writes. */
export const ROOTS_OF: Record<EinvoiceSyntax, readonly DocumentRoot[]> = {
  cii: ['CrossIndustryInvoice'],
  ubl: ['Invoice', 'CreditNote'],
}

/**
 * The schema folder to use: the operator's, when it has every entry point, else the shipped one.
 * A folder missing one is a configuration mistake: said at start, not discovered per invoice.
 */
export function schemaFolder(artifactsDir: string | undefined): string {
  if (!artifactsDir) return SHIPPED_SCHEMAS
  const dir = path.resolve(artifactsDir)
  const missing = Object.values(ENTRY_POINTS).filter((entry) => !existsSync(path.join(dir, entry)))
  if (missing.length > 0) {
    throw new Error(
      `DOCSVC_EINVOICE_ARTIFACTS (${dir}) lacks ${missing.join(', ')}: the folder needs the layout of plugins/einvoice/schemas`,
    )
  }
  return dir
}

/** The local name of the document's root element, or undefined when none can be found. */
export function rootOf(xml: string): string | undefined {
  // the first tag that is not a declaration, processing instruction or comment
  const withoutProlog = xml.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/g, '')
  return /<(?:[\w.-]+:)?([\w.-]+)[\s/>]/.exec(withoutProlog)?.[1]
}
