import type { FindingSeverity } from '@docsvc/core/sdk'
import { compare, type Decimal, parseDecimal, ZERO } from '../model/decimal.ts'
import type { Invoice } from '../model/invoice-schema.ts'
import type { ProfileId } from '../model/profile-matrix.ts'

// One EN 16931 (or XRechnung) business rule as data: which field it is about (a profile that
// does not carry that field does not run it: MINIMUM and BASIC_WL carry no lines), a predicate
// over the completed model that yields the JSON Pointers where the invoice breaks the rule, and
// a message a developer can act on.

export interface Rule {
  id: string
  severity: FindingSeverity
  /** the model field (matrix form: `lines[].vat_rate`) whose carrying decides where the rule runs */
  field: string
  /** only these profiles run it (the CIUS rules); unset: every profile that carries `field` */
  profiles?: readonly ProfileId[]
  message: string
  /** the JSON Pointers of the offending fields; nothing when the invoice keeps the rule */
  violations: (invoice: Invoice) => Iterable<string>
}

/**
 * A value a sender gave: not undefined, not blank text, not a group or list of nothing but
 * blanks (a reader keeps an element it found, even an empty one, as blank fields).
 */
export function present(value: unknown): boolean {
  if (value === undefined || value === null) return false
  if (typeof value === 'string') return value.trim() !== ''
  if (Array.isArray(value)) return value.length > 0
  if (typeof value === 'object') return Object.keys(value).length > 0
  return true
}

/** A decimal the model holds, or undefined when absent or not a number (readers keep what they read). */
export function amount(value: unknown): Decimal | undefined {
  if (!present(value) || (typeof value !== 'string' && typeof value !== 'number')) return undefined
  try {
    return parseDecimal(value)
  } catch {
    return undefined
  }
}

export const isNegative = (d: Decimal | undefined): boolean => d !== undefined && compare(d, ZERO) < 0
export const isZeroAmount = (d: Decimal | undefined): boolean => d !== undefined && compare(d, ZERO) === 0

/**
 * Every instance of a path (`lines[].allowances[]`) in the invoice with its JSON Pointer; a
 * list segment fans out, an absent group yields nothing.
 */
export function instancesOf(invoice: Invoice, path: string): [unknown, string][] {
  let current: [unknown, string][] = [[invoice, '']]
  if (path === '') return current
  for (const segment of path.split('.')) {
    const list = segment.endsWith('[]')
    const key = list ? segment.slice(0, -2) : segment
    const next: [unknown, string][] = []
    for (const [value, pointer] of current) {
      const child = (value as Record<string, unknown> | undefined)?.[key]
      if (child === undefined || child === null) continue
      if (list && Array.isArray(child))
        for (const [i, item] of child.entries()) next.push([item, `${pointer}/${key}/${i}`])
      else if (!list) next.push([child, `${pointer}/${key}`])
    }
    current = next
  }
  return current
}

/** the parent path and the key of `a.b[].c` */
function split(path: string): [string, string] {
  const at = path.lastIndexOf('.')
  return at < 0 ? ['', path] : [path.slice(0, at), path.slice(at + 1)]
}

/** A term the standard makes mandatory wherever its group is present (BR-02 ... BR-65). */
export function mandatory(id: string, path: string, message: string, profiles?: readonly ProfileId[]): Rule {
  const [parent, key] = split(path)
  const field = path.replace(/\[\]$/, '')
  return {
    id,
    severity: 'error',
    field,
    ...(profiles ? { profiles } : {}),
    message,
    violations: (invoice) =>
      instancesOf(invoice, parent)
        .filter(([group]) => !present((group as Record<string, unknown>)[key.replace(/\[\]$/, '')]))
        .map(([, pointer]) => `${pointer}/${key.replace(/\[\]$/, '')}`),
  }
}

/** A condition every instance of a group must meet (`when` false: the rule does not apply to it). */
export function each<T>(
  id: string,
  path: string,
  message: string,
  holds: (item: T, invoice: Invoice) => boolean,
  options: { field?: string; at?: string; profiles?: readonly ProfileId[]; severity?: FindingSeverity } = {},
): Rule {
  return {
    id,
    severity: options.severity ?? 'error',
    field: options.field ?? path.replace(/\[\]$/, ''),
    ...(options.profiles ? { profiles: options.profiles } : {}),
    message,
    violations: (invoice) =>
      instancesOf(invoice, path)
        .filter(([item]) => !holds(item as T, invoice))
        .map(([, pointer]) => (options.at ? `${pointer}/${options.at}` : pointer || '/')),
  }
}

/** A condition on the whole invoice, reported at one pointer. */
export function invoiceRule(
  id: string,
  field: string,
  at: string,
  message: string,
  holds: (invoice: Invoice) => boolean,
  options: { profiles?: readonly ProfileId[]; severity?: FindingSeverity } = {},
): Rule {
  return each<Invoice>(id, '', message, (_, invoice) => holds(invoice), { ...options, field, at })
}

/** an allowance or charge, at document or line level: its reason text and code */
export type Reasoned = { reason?: string; reason_code?: string }
export const hasReason = (a: Reasoned): boolean => present(a.reason) || present(a.reason_code)

/** the invoicing period (BG-14) or a line's period (BG-26) */
export type Period = { start?: string; end?: string }
