import type { TSchema } from 'typebox'
import { DECIMAL_PATTERN, decimalText, parseDecimal } from './decimal.ts'
import { type Amount, InvoiceSchema } from './invoice-schema.ts'

// Model values as both syntaxes write them, and back.

/** A model amount as XML text: the decimal as given, without exponent (`19.90`, `0.1`). */
export function amountText(value: Amount | undefined): string | undefined {
  return value === undefined ? undefined : decimalText(parseDecimal(value))
}

/** `2026-11-25` → CII's format 102 `20261125` */
export function compactDate(value: string | undefined): string | undefined {
  return value?.replace(/-/g, '')
}

/** CII's format 102 `20261125` (or an ISO date) → `2026-11-25` */
export function isoDate(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(value.trim())
  return m ? `${m[1]}-${m[2]}-${m[3]}` : value
}

/** Drops keys whose value is undefined and objects/lists left empty, so read models compare cleanly. */
export function compact<T>(value: T): T {
  if (Array.isArray(value)) return value.map(compact).filter((v) => v !== undefined) as T
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .map(([k, v]) => [k, compact(v)] as const)
      .filter(
        ([, v]) =>
          v !== undefined &&
          !(Array.isArray(v) && v.length === 0) &&
          !(isPlainObject(v) && Object.keys(v).length === 0),
      )
    return Object.fromEntries(entries) as T
  }
  return value
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Every decimal of a read model in its plain form (`64.` → `64`, `+5` → `5`; `19.90` stays), by
 * walking the value along the model's schema, so both readers give one text per value.
 */
export function withPlainDecimals<T>(value: T, schema: TSchema = InvoiceSchema): T {
  const s = schema as Record<string, unknown>
  if (Array.isArray(value)) return value.map((v) => withPlainDecimals(v, s.items as TSchema)) as T
  if (isPlainObject(value) && isPlainObject(s.properties)) {
    const properties = s.properties as Record<string, TSchema>
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, properties[k] ? withPlainDecimals(v, properties[k]) : v]),
    ) as T
  }
  if (typeof value === 'string' && Array.isArray(s.anyOf) && DECIMAL_RE.test(value))
    return amountText(value) as T
  return value
}

const DECIMAL_RE = new RegExp(DECIMAL_PATTERN)
