import { type TSchema, Type } from 'typebox'
import { DECIMAL_PATTERN } from './decimal.ts'

// The value kinds of the invoice model, one constructor each, so every field states its
// EN 16931 term (`x-term`, and first in its description) and shows an example.

/** The EN 16931 business term a field carries, as docs/einvoice-model.md lists it. */
export const TERM_KEY = 'x-term'

function described(term: string, title: string): string {
  return `${term} ${title}`
}

/**
 * Amounts, quantities, prices and percentages: a decimal string (`"19.90"`) or a JSON number.
 * Strings keep every digit the sender wrote; numbers are read as their shortest decimal text.
 */
export function decimal(term: string, title: string, example: string) {
  return Type.Union(
    [
      Type.String({ pattern: DECIMAL_PATTERN, maxLength: 40 }),
      // bounded, so a JSON number too large for a double (read as Infinity) is refused here
      Type.Number({ minimum: -1e15, maximum: 1e15 }),
    ],
    {
      description: described(term, title),
      [TERM_KEY]: term,
      examples: [example],
    },
  )
}

/** Characters XML 1.0 cannot carry (control characters but tab, LF, CR; U+FFFE, U+FFFF) are refused. */
const XML_TEXT = '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF]*$'

export function text(term: string, title: string, example: string, maxLength = 1000) {
  return Type.String({
    minLength: 1,
    maxLength,
    pattern: XML_TEXT,
    description: described(term, title),
    [TERM_KEY]: term,
    examples: [example],
  })
}

/** A calendar date, `YYYY-MM-DD` (CII writes it as format 102, UBL as is). */
export function date(term: string, title: string, example: string) {
  return Type.String({
    pattern: '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$',
    description: described(term, title),
    [TERM_KEY]: term,
    examples: [example],
  })
}

/** A code from the code list the term names; the list itself is checked by the model rules. */
export function code(term: string, title: string, example: string) {
  return Type.String({
    pattern: '^[A-Za-z0-9._:-]{1,40}$',
    description: described(term, title),
    [TERM_KEY]: term,
    examples: [example],
  })
}

/** An identifier with its optional scheme (ISO 6523 ICD, EAS, ...): `{id, scheme}`. */
export function identifier(term: string, title: string, example: string, schemeExample: string) {
  return Type.Object(
    {
      id: text(term, title, example, 200),
      scheme: Type.Optional(code(`${term}-1`, `${title}: scheme identifier`, schemeExample)),
    },
    { additionalProperties: false, description: described(term, title), [TERM_KEY]: term },
  )
}

export function group<P extends Record<string, TSchema>>(term: string, title: string, properties: P) {
  return Type.Object(properties, {
    additionalProperties: false,
    description: described(term, title),
    [TERM_KEY]: term,
  })
}

export function list<T extends TSchema>(term: string, title: string, item: T) {
  return Type.Array(item, { maxItems: 10_000, description: described(term, title), [TERM_KEY]: term })
}
