import { describe, expect, it } from 'vitest'
import { defaultWebhookSettings, maxAttempts, nextAttemptAt } from './webhook-settings.ts'

describe('webhook retry schedule (SPEC 6.4)', () => {
  const failedAt = new Date('2026-11-22T00:00:00Z')
  const after = (attempt: number, random: number) =>
    nextAttemptAt({ ...defaultWebhookSettings(), random: () => random }, attempt, failedAt)!.getTime() -
    failedAt.getTime()

  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up after the 8th attempt', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => after(n, 0.5))).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ])
    expect(maxAttempts(defaultWebhookSettings())).toBe(8)
    expect(nextAttemptAt(defaultWebhookSettings(), 8, failedAt)).toBeNull()
  })

  it('varies each delay by at most 10 % either way', () => {
    expect(after(1, 0)).toBe(4_500)
    expect(after(1, 0.999999)).toBe(5_500)
    expect(after(7, 0)).toBe(32_400_000)
    for (let i = 0; i < 200; i++) {
      const delay = after(3, Math.random())
      expect(delay).toBeGreaterThanOrEqual(1_620_000)
      expect(delay).toBeLessThanOrEqual(1_980_000)
    }
  })

  it('answers within 10 s, disables after 5 days and keeps the log 30 days by default', () => {
    const s = defaultWebhookSettings()
    expect(s.timeoutMs).toBe(10_000)
    expect(s.disableAfterMs).toBe(5 * 86_400_000)
    expect(s.retentionMs).toBe(30 * 86_400_000)
  })
})
