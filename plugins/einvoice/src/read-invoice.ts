import { ProblemError } from '@docsvc/core/sdk'
import { readCii } from './cii/cii-reader.ts'
import type { ReadInvoice } from './read-result.ts'
import { readUbl } from './ubl/ubl-reader.ts'
import { parseXml } from './xml/xml-tree.ts'

/** A CII or UBL (Invoice, CreditNote) document as the invoice model. */
export function readInvoiceXml(xml: string | Buffer): ReadInvoice {
  let root: ReturnType<typeof parseXml>
  try {
    root = parseXml(xml)
  } catch (error) {
    throw new ProblemError('validation_error', `the e-invoice is not XML: ${(error as Error).message}`)
  }
  if (root.name === 'CrossIndustryInvoice') return readCii(root)
  if (root.name === 'Invoice' || root.name === 'CreditNote') return readUbl(root)
  throw new ProblemError('validation_error', `not a CII or UBL invoice: the root element is ${root.name}`)
}
