import { describe, expect, it } from 'vitest'
import { parseDuration, parseDurations } from './durations.ts'

describe('durations in settings', () => {
  it('reads a whole number and one unit', () => {
    expect(['250ms', '5s', '5m', '2h', '1d', ' 10h '].map(parseDuration)).toEqual([
      250, 5_000, 300_000, 7_200_000, 86_400_000, 36_000_000,
    ])
  })

  it('refuses anything else', () => {
    for (const text of ['', '5', 's', '1.5h', '-5s', '5 s', '5sec', '1w', '1234567890s'])
      expect(parseDuration(text), text).toBeUndefined()
  })

  it('parses a list, or says which entry is wrong', () => {
    expect(parseDurations(['5s', '5m'])).toEqual([5_000, 300_000])
    expect(() => parseDurations(['5s', 'soon'])).toThrow('"soon" is not a duration')
  })
})
