// Exact decimal arithmetic for invoice amounts (EN 16931 sums must hold to the cent; binary
// floating point cannot promise that). A value is an integer of units and a scale: 19.90 is
// {units: 1990n, scale: 2}. Only what invoices need: add, subtract, multiply, divide by a power
// of ten or a small decimal, round half away from zero (commercial rounding, as EN 16931 uses).

export interface Decimal {
  readonly units: bigint
  readonly scale: number
}

/** What a model amount may be written as: an xs:decimal string (`19.90`, `100.`, `.5`) or a JSON number. */
export const DECIMAL_PATTERN = '^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)$'
const DECIMAL_RE = new RegExp(DECIMAL_PATTERN)

export const ZERO: Decimal = { units: 0n, scale: 0 }

/**
 * A JSON number is taken as the shortest text that reads back to it (`0.1` stays 0.1), which is
 * what the sender wrote for every number with at most 15 significant digits.
 */
export function parseDecimal(value: string | number): Decimal {
  let text = typeof value === 'number' ? numberText(value) : value.trim()
  if (!DECIMAL_RE.test(text)) throw new RangeError(`not a decimal number: ${JSON.stringify(value)}`)
  const negative = text.startsWith('-')
  text = text.replace(/^[+-]/, '')
  const [whole = '', fraction = ''] = text.split('.')
  const units = BigInt(`${whole || '0'}${fraction}`)
  return { units: negative ? -units : units, scale: fraction.length }
}

function numberText(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`)
  const text = String(value)
  if (!/e/i.test(text)) return text
  // 1e-7 and 1e21 style: expand through toFixed / BigInt, which are exact for these forms
  const [mantissa = '', exponentText = '0'] = text.toLowerCase().split('e')
  const exponent = Number(exponentText)
  const digits = parseDecimal(mantissa)
  return decimalText(
    exponent >= 0 ? scaleUp(digits, exponent) : { ...digits, scale: digits.scale - exponent },
  )
}

function scaleUp(d: Decimal, places: number): Decimal {
  const shift = Math.min(places, d.scale)
  return { units: d.units * 10n ** BigInt(places - shift), scale: d.scale - shift }
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale)
  return [a.units * 10n ** BigInt(scale - a.scale), b.units * 10n ** BigInt(scale - b.scale), scale]
}

export function add(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(a, b)
  return { units: x + y, scale }
}

export function subtract(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(a, b)
  return { units: x - y, scale }
}

export function multiply(a: Decimal, b: Decimal): Decimal {
  return { units: a.units * b.units, scale: a.scale + b.scale }
}

export function sum(values: readonly Decimal[]): Decimal {
  return values.reduce(add, ZERO)
}

export function compare(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const [x, y] = align(a, b)
  return x < y ? -1 : x > y ? 1 : 0
}

export function isZero(a: Decimal): boolean {
  return a.units === 0n
}

/** Rounds to `places` decimals, half away from zero. */
export function round(a: Decimal, places: number): Decimal {
  if (a.scale <= places) return { units: a.units * 10n ** BigInt(places - a.scale), scale: places }
  const divisor = 10n ** BigInt(a.scale - places)
  const magnitude = a.units < 0n ? -a.units : a.units
  let quotient = magnitude / divisor
  if ((magnitude % divisor) * 2n >= divisor) quotient += 1n
  return { units: a.units < 0n ? -quotient : quotient, scale: places }
}

/**
 * a / b rounded to `places` decimals (half away from zero): computed with `places + 1` exact
 * digits of the quotient plus the remainder's sign, so the rounding decision is exact.
 */
export function divide(a: Decimal, b: Decimal, places: number): Decimal {
  if (b.units === 0n) throw new RangeError('division by zero')
  // a/b = (a.units / b.units) * 10^(b.scale - a.scale); scale the numerator so the integer
  // quotient has `places` decimals, then round on the remainder.
  const exponent = places + b.scale - a.scale
  let numerator = a.units < 0n ? -a.units : a.units
  let denominator = b.units < 0n ? -b.units : b.units
  if (exponent >= 0) numerator *= 10n ** BigInt(exponent)
  else denominator *= 10n ** BigInt(-exponent)
  let quotient = numerator / denominator
  if ((numerator % denominator) * 2n >= denominator) quotient += 1n
  const negative = a.units < 0n !== b.units < 0n
  return { units: negative ? -quotient : quotient, scale: places }
}

/** Plain text, no exponent, keeping the scale (19.90 stays `19.90`). */
export function decimalText(a: Decimal): string {
  const negative = a.units < 0n
  const digits = (negative ? -a.units : a.units).toString().padStart(a.scale + 1, '0')
  const whole = digits.slice(0, digits.length - a.scale)
  const fraction = a.scale > 0 ? `.${digits.slice(digits.length - a.scale)}` : ''
  return `${negative ? '-' : ''}${whole}${fraction}`
}

/** The value with trailing fraction zeros removed (19.90 → 19.9), for comparing texts. */
export function normalized(a: Decimal): Decimal {
  let { units, scale } = a
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n
    scale -= 1
  }
  return { units, scale }
}
