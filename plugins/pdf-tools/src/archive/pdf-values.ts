import {
  type PDFContext,
  type PDFDict,
  PDFHexString,
  PDFName,
  type PDFObject,
  PDFString,
} from '@cantoo/pdf-lib'

/** A name's text (`/Link` -> `Link`), or undefined for anything else. */
export function nameOf(value: PDFObject | undefined): string | undefined {
  return value instanceof PDFName ? value.decodeText() : undefined
}

/** A text string's text (literal or hex), or undefined for anything else. */
export function textOf(value: PDFObject | undefined): string | undefined {
  return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined
}

// a class by its prototype: pdf-lib's object classes have private constructors
type Kind<T> = Function & { prototype: T }

/**
 * The object a value is or refers to, when it is of `type`; undefined otherwise. pdf-lib's own
 * typed lookups throw on a mismatch, which an odd but harmless file must not turn into a failed
 * render.
 */
export function lookupAs<T>(context: PDFContext, value: PDFObject | undefined, type: Kind<T>): T | undefined {
  if (value === undefined) return undefined
  const found: unknown = context.lookup(value)
  return found instanceof type ? (found as T) : undefined
}

/** A dictionary's entry, followed when it is a reference, when it is of `type`. */
export function entryAs<T>(dict: PDFDict, key: string, type: Kind<T>): T | undefined {
  return lookupAs(dict.context, dict.get(PDFName.of(key)), type)
}
