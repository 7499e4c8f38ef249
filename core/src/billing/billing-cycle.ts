/** A billing cycle: half-open [start, end), ISO 8601 UTC with milliseconds. */
export interface CycleWindow {
  start: string
  end: string
}

/** Days a cycle may start on: 1 to 28, so every month has the day. */
export const CYCLE_START_DAYS = { minimum: 1, maximum: 28 } as const

/** A new workspace's cycle starts on the 1st: the calendar month, as before cycles were settable. */
export const DEFAULT_CYCLE_START_DAY = 1

function boundary(year: number, month: number, day: number): Date {
  return new Date(Date.UTC(year, month, day))
}

/** The first cycle boundary (00:00 UTC on `startDay`) strictly after `at`. */
export function nextBoundaryAfter(at: Date, startDay: number): Date {
  const here = boundary(at.getUTCFullYear(), at.getUTCMonth(), startDay)
  return here.getTime() > at.getTime() ? here : boundary(at.getUTCFullYear(), at.getUTCMonth() + 1, startDay)
}

/**
 * The cycle that holds `at` when cycles start at 00:00 UTC on `startDay` of every month: what a
 * workspace's cycle is unless an operator's change of day reshaped the current one
 * (BillingRepository keeps that one as a row).
 */
export function cycleByDay(at: Date, startDay: number): CycleWindow {
  const end = nextBoundaryAfter(at, startDay)
  const start = boundary(end.getUTCFullYear(), end.getUTCMonth() - 1, startDay)
  return { start: start.toISOString(), end: end.toISOString() }
}
