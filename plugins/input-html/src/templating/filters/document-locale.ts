import { BoundedLru } from '../bounded-lru.ts'
import { renderLocale, warnTemplate } from '../render-scope.ts'
import { isBlank } from './filter-arguments.ts'

/** Documents' locale when neither the filter nor the render names one, or for one Intl lacks. */
export const FALLBACK_LOCALE = 'en-US'

// requested tag -> the tag Intl will use ('' when unsupported); templates may take it from data
const resolved = new BoundedLru<string, string>(256)

/**
 * The locale a formatting filter uses for `requested` (a BCP 47 tag such as `de-DE`), or the
 * render's locale when the filter names none. A tag the engine cannot format for, or a malformed
 * one, falls back to en-US with a `locale_unsupported` warning: a document in the wrong number
 * format beats no document.
 */
export function documentLocale(requested: unknown): string {
  const tag = isBlank(requested) ? renderLocale() : String(requested)
  if (tag === undefined || tag === '') return FALLBACK_LOCALE
  let locale = resolved.get(tag)
  if (locale === undefined) {
    locale = supportedTag(tag)
    resolved.set(tag, locale)
  }
  if (locale) return locale
  warnTemplate('locale_unsupported', `Locale "${tag}" is not supported; ${FALLBACK_LOCALE} was used.`)
  return FALLBACK_LOCALE
}

function supportedTag(tag: string): string {
  try {
    return Intl.NumberFormat.supportedLocalesOf(tag)[0] ?? ''
  } catch {
    // RangeError: not a well-formed language tag (e.g. `de_DE`)
    return ''
  }
}
