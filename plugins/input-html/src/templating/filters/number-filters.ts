import { documentLocale } from './document-locale.ts'
import { isBlank, numericInput, wholeArgument } from './filter-arguments.ts'
import { numberFormat } from './intl-formatters.ts'

const CURRENCY_CODE = /^[A-Za-z]{3}$/

/** money, number_format and percent: locale-aware numbers for documents (Intl). */
export const NUMBER_FILTERS = { money, number_format: numberFormatted, percent }

/** `{{ 1234.5 | money: 'EUR', 'de-DE' }}` -> `1.234,50 €`, with the currency's own minor digits. */
function money(value: unknown, currency?: unknown, locale?: unknown): string {
  if (isBlank(value)) return ''
  const amount = numericInput('money', value)
  if (typeof currency !== 'string' || !CURRENCY_CODE.test(currency)) {
    throw new Error('money: the currency must be an ISO 4217 code such as "EUR"')
  }
  const style = { style: 'currency', currency: currency.toUpperCase() } as const
  return numberFormat(documentLocale(locale), style).format(amount)
}

/**
 * `{{ 1234.5 | number_format: 'de-DE', 2 }}` -> `1.234,50`: grouping and decimal mark of the
 * locale; with one digits argument exactly that many fraction digits, with two a range.
 */
function numberFormatted(value: unknown, locale?: unknown, minDigits?: unknown, maxDigits?: unknown): string {
  if (isBlank(value)) return ''
  const amount = numericInput('number_format', value)
  return numberFormat(documentLocale(locale), fractionDigits('number_format', minDigits, maxDigits)).format(
    amount,
  )
}

/** `{{ 0.175 | percent: 'de-DE', 1 }}` -> `17,5 %`: the input is a ratio, 1 being 100 %. */
function percent(value: unknown, locale?: unknown, digits?: unknown): string {
  if (isBlank(value)) return ''
  const ratio = numericInput('percent', value)
  const options = { style: 'percent', ...fractionDigits('percent', digits ?? 0, undefined) } as const
  return numberFormat(documentLocale(locale), options).format(ratio)
}

function fractionDigits(filter: string, min: unknown, max: unknown): Intl.NumberFormatOptions {
  if (isBlank(min)) return {}
  const minimumFractionDigits = wholeArgument(filter, 'fraction digits', min, 0, 20)
  const maximumFractionDigits = isBlank(max)
    ? minimumFractionDigits
    : wholeArgument(filter, 'maximum fraction digits', max, minimumFractionDigits, 20)
  return { minimumFractionDigits, maximumFractionDigits }
}
