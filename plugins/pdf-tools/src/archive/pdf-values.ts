import { PDFHexString, PDFName, type PDFObject, PDFString } from '@cantoo/pdf-lib'

/** A name's text (`/Link` -> `Link`), or undefined for anything else. */
export function nameOf(value: PDFObject | undefined): string | undefined {
  return value instanceof PDFName ? value.decodeText() : undefined
}

/** A text string's text (literal or hex), or undefined for anything else. */
export function textOf(value: PDFObject | undefined): string | undefined {
  return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined
}
