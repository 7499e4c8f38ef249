import { describe, expect, it } from 'vitest'
import { planKills } from './killer.ts'

describe('the seeded kill plan', () => {
  const options = {
    seed: 13,
    kills: 5,
    targets: ['api', 'worker-1', 'worker-2'],
    fromMs: 1_000,
    toMs: 11_000,
  }

  it('is the same for the same seed and differs for another', () => {
    expect(planKills(options)).toEqual(planKills(options))
    expect(planKills({ ...options, seed: 14 })).not.toEqual(planKills(options))
  })

  it('kills every process at least once, in order, inside the window, one per slot', () => {
    const plan = planKills(options)
    expect(new Set(plan.map((k) => k.target))).toEqual(new Set(options.targets))
    plan.forEach((kill, i) => {
      expect(kill.atMs).toBeGreaterThanOrEqual(options.fromMs + i * 2_000)
      expect(kill.atMs).toBeLessThan(options.fromMs + (i + 1) * 2_000)
      expect(kill.downMs).toBeGreaterThanOrEqual(0)
      expect(kill.downMs).toBeLessThanOrEqual(500)
    })
  })
})
