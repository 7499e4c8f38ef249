/**
 * Durations as operators type them in settings: a whole number and a unit, `500ms`, `5s`, `5m`,
 * `2h`, `1d`. One parser, so every setting that takes a duration reads it the same way.
 */
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const

const DURATION = /^(\d{1,9})(ms|s|m|h|d)$/

/** Milliseconds of `text`, or undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim())
  if (!match) return undefined
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]
}

/** Milliseconds of each entry; throws on the first that is not a duration (validate first). */
export function parseDurations(list: readonly string[]): number[] {
  return list.map((text) => {
    const ms = parseDuration(text)
    if (ms === undefined) throw new Error(`"${text}" is not a duration`)
    return ms
  })
}
