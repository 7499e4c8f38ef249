// Checks of filter inputs and arguments. A failed check throws a plain Error, which liquidjs turns
// into a template_runtime_error at the filter's position.

// a decimal as JSON or a form writes it; Intl formats such strings exactly (no float rounding)
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/

/** Whether a filter input is absent: filters print nothing for it, like Liquid's own. */
export function isBlank(value: unknown): value is null | undefined | '' {
  return value === undefined || value === null || value === ''
}

/** A number, or a decimal string kept as written so that money is never rounded through a float. */
export function numericInput(filter: string, value: unknown): number | `${number}` {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'string' && DECIMAL.test(value.trim())) return value.trim() as `${number}`
  throw new Error(`${filter}: ${JSON.stringify(value) ?? String(value)} is not a number`)
}

/** A whole number argument in [min, max]. */
export function wholeArgument(
  filter: string,
  name: string,
  value: unknown,
  min: number,
  max: number,
): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${filter}: ${name} must be a whole number from ${min} to ${max}`)
  }
  return n
}

/** One of `choices`, or `fallback` when the argument is left out. */
export function choiceArgument<T extends string>(
  filter: string,
  name: string,
  value: unknown,
  choices: readonly T[],
  fallback: T,
): T {
  if (isBlank(value)) return fallback
  if (choices.includes(value as T)) return value as T
  throw new Error(`${filter}: ${name} must be one of ${choices.join(', ')}`)
}
