import { documentLocale } from './document-locale.ts'
import { choiceArgument, isBlank } from './filter-arguments.ts'
import { dateTimeFormat } from './intl-formatters.ts'

const STYLES = ['short', 'medium', 'long', 'full'] as const
// a calendar day (`2026-11-22`) names no instant: time zones must not move it to another day
const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/
// a date and time without an offset is read as UTC, never as the server's zone
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/
const EPOCH_SECONDS = /^[+-]?\d+$/

/**
 * date_format and datetime_format: `{{ d | date_format: 'long', 'de-DE', 'Europe/Berlin' }}`
 * -> `22. November 2026`. Styles short, medium (default), long, full; the time zone is an IANA
 * name and defaults to UTC. Liquid's own `date` keeps strftime patterns and takes a zone too.
 */
export const DATE_FILTERS = {
  date_format(value: unknown, style?: unknown, locale?: unknown, zone?: unknown): string {
    const dateStyle = choiceArgument('date_format', 'style', style, STYLES, 'medium')
    return formatDate('date_format', value, { dateStyle }, locale, zone)
  },
  datetime_format(value: unknown, style?: unknown, locale?: unknown, zone?: unknown): string {
    const chosen = choiceArgument('datetime_format', 'style', style, STYLES, 'medium')
    return formatDate('datetime_format', value, { dateStyle: chosen, timeStyle: chosen }, locale, zone)
  },
}

function formatDate(
  filter: string,
  value: unknown,
  style: Intl.DateTimeFormatOptions,
  locale: unknown,
  zone: unknown,
): string {
  if (isBlank(value)) return ''
  const { instant, calendarDay } = dateInput(filter, value)
  const timeZone = calendarDay || isBlank(zone) ? 'UTC' : String(zone)
  const tag = documentLocale(locale)
  let formatter: Intl.DateTimeFormat
  try {
    formatter = dateTimeFormat(tag, { ...style, timeZone })
  } catch {
    throw new Error(`${filter}: unknown time zone ${JSON.stringify(timeZone)}`)
  }
  return formatter.format(instant)
}

/** Dates as Liquid takes them: Date, ISO 8601 text, `now`/`today`, or seconds since 1970. */
function dateInput(filter: string, value: unknown): { instant: Date; calendarDay: boolean } {
  let instant: Date | undefined
  let calendarDay = false
  if (value instanceof Date) instant = value
  else if (typeof value === 'number') instant = new Date(value * 1000)
  else if (typeof value === 'string') {
    const text = value.trim()
    calendarDay = CALENDAR_DAY.test(text)
    if (text === 'now' || text === 'today') instant = new Date()
    else if (EPOCH_SECONDS.test(text)) instant = new Date(Number(text) * 1000)
    else instant = new Date(LOCAL_DATE_TIME.test(text) ? `${text.replace(' ', 'T')}Z` : text)
  }
  if (!instant || Number.isNaN(instant.getTime())) {
    throw new Error(`${filter}: ${JSON.stringify(value) ?? String(value)} is not a date`)
  }
  return { instant, calendarDay }
}
