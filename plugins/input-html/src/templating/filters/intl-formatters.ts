import { BoundedLru } from '../bounded-lru.ts'

// Building an Intl formatter costs far more than using one, and an invoice formats every row the
// same way: formatters are kept per locale and options.
const numberFormats = new BoundedLru<string, Intl.NumberFormat>(256)
const dateTimeFormats = new BoundedLru<string, Intl.DateTimeFormat>(256)

export function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  return cached(numberFormats, locale, options, () => new Intl.NumberFormat(locale, options))
}

export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached(dateTimeFormats, locale, options, () => new Intl.DateTimeFormat(locale, options))
}

function cached<F>(cache: BoundedLru<string, F>, locale: string, options: object, make: () => F): F {
  const key = `${locale} ${JSON.stringify(options)}`
  let formatter = cache.get(key)
  if (!formatter) {
    formatter = make()
    cache.set(key, formatter)
  }
  return formatter
}
