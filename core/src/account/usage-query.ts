import type { CycleWindow } from '../billing/billing-cycle.ts'
import { oneOfMessage } from '../http/validation-errors.ts'
import { type FieldProblem, validationProblem } from '../kernel/problem-error.ts'

// SPEC 4.10 `GET /v1/usage` query: the window, its buckets and the grouping. The range limits and
// the defaults are decided in docs/decisions/0017-usage-series.md.

export const GRANULARITIES = ['day', 'hour'] as const
export type Granularity = (typeof GRANULARITIES)[number]

export const GROUP_BYS = ['key_id', 'kind', 'region', 'source', 'template_id'] as const
export type GroupBy = (typeof GROUP_BYS)[number]

const DAY_MS = 24 * 3600 * 1000
const HOUR_MS = 3600 * 1000

/** The longest window per granularity: a leap year of days, a longest month of hours. */
export const MAX_SPAN_DAYS: Record<Granularity, number> = { day: 366, hour: 31 }

export const BUCKET_MS: Record<Granularity, number> = { day: DAY_MS, hour: HOUR_MS }

export interface UsageWindow {
  /** inclusive, ISO 8601 UTC with milliseconds (the form `billed_at` is stored in) */
  from: string
  /** exclusive, same form */
  to: string
  granularity: Granularity
  groupBy: GroupBy | null
}

export interface RawUsageQuery {
  from?: string | undefined
  to?: string | undefined
  granularity?: string | undefined
  group_by?: string | undefined
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
// A `+` left unencoded in a query string arrives as a space; it is read back as the offset sign.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+\- ])(\d{2}):?(\d{2}))?$/

function validDay(year: number, month: number, day: number): boolean {
  // nothing is billed before 1970, and Date.UTC would read years below 100 as 19xx
  if (year < 1970 || month < 1 || month > 12 || day < 1) return false
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate()
}

type Parsed = { kind: 'date' | 'instant'; ms: number } | undefined

/**
 * `YYYY-MM-DD` (a UTC day) or an ISO 8601 date-time; without an offset a date-time is read as UTC.
 * Fractions below a millisecond round up when `roundUp` (an exclusive end keeps what lies before it).
 */
export function parseUsageTime(text: string, roundUp = false): Parsed {
  const date = DATE.exec(text)
  if (date) {
    const [y, m, d] = [Number(date[1]), Number(date[2]), Number(date[3])]
    if (!validDay(y, m, d)) return undefined
    return { kind: 'date', ms: Date.UTC(y, m - 1, d) }
  }
  const dt = DATE_TIME.exec(text)
  if (!dt) return undefined
  const [y, mo, d, h, mi] = [1, 2, 3, 4, 5].map((i) => Number(dt[i])) as [
    number,
    number,
    number,
    number,
    number,
  ]
  const s = Number(dt[6] ?? 0)
  if (!validDay(y, mo, d) || h > 23 || mi > 59 || s > 59) return undefined
  const fraction = dt[7] ?? ''
  let ms = Number(fraction.slice(0, 3).padEnd(3, '0'))
  if (roundUp && /[1-9]/.test(fraction.slice(3))) ms += 1
  let offsetMinutes = 0
  if (dt[9] !== undefined) {
    const [oh, om] = [Number(dt[10]), Number(dt[11])]
    if (oh > 23 || om > 59) return undefined
    offsetMinutes = (dt[9] === '-' ? -1 : 1) * (oh * 60 + om)
  }
  const at = Date.UTC(y, mo - 1, d, h, mi, s, ms) - offsetMinutes * 60_000
  if (!Number.isFinite(at) || at < 0 || at >= Date.UTC(10000, 0, 1)) return undefined
  return { kind: 'instant', ms: at }
}

const TIME_MESSAGE = 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time (e.g. 2026-11-01T00:00:00Z)'

/**
 * The window of a usage request, or a 400 `validation_error` naming the query parameter.
 * `from` defaults to the start of the current cycle, `to` to its end; a `to` date counts its whole
 * day, a `to` date-time is exclusive.
 */
export function parseUsageQuery(query: RawUsageQuery, cycle: CycleWindow): UsageWindow {
  const granularity = (query.granularity ?? 'day') as Granularity
  const groupBy = (query.group_by ?? null) as GroupBy | null
  const problems: FieldProblem[] = []
  const problem = (name: string, code: string, message: string) =>
    problems.push({ path: `/${name}`, code, message, in: 'query' })

  if (!GRANULARITIES.includes(granularity)) problem('granularity', 'enum', oneOfMessage(GRANULARITIES))
  if (groupBy !== null && !GROUP_BYS.includes(groupBy)) problem('group_by', 'enum', oneOfMessage(GROUP_BYS))

  const from =
    query.from === undefined ? { kind: 'instant', ms: Date.parse(cycle.start) } : parseUsageTime(query.from)
  const toParsed = query.to === undefined ? undefined : parseUsageTime(query.to, true)
  if (!from) problem('from', 'format', TIME_MESSAGE)
  if (query.to !== undefined && !toParsed) problem('to', 'format', TIME_MESSAGE)
  if (problems.length > 0) throw validationProblem(problems)

  const toMs =
    toParsed === undefined
      ? Date.parse(cycle.end)
      : toParsed.kind === 'date'
        ? toParsed.ms + DAY_MS
        : toParsed.ms
  const fromMs = from!.ms
  // the ordering and span problems belong to the parameter the caller sent
  const blamed = query.to !== undefined ? 'to' : 'from'
  if (toMs <= fromMs) {
    const message =
      blamed === 'to'
        ? 'must be after from'
        : `must be before the default to (${cycle.end}, the end of the current cycle)`
    problem(blamed, 'range', message)
  } else {
    const maxDays = MAX_SPAN_DAYS[granularity]
    if (toMs - fromMs > maxDays * DAY_MS) {
      problem(
        blamed,
        'range',
        `from ${new Date(fromMs).toISOString()} to ${new Date(toMs).toISOString()} is longer than ` +
          `${maxDays} days, the most granularity ${granularity} allows`,
      )
    }
  }
  if (problems.length > 0) throw validationProblem(problems)
  return {
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    granularity,
    groupBy,
  }
}
