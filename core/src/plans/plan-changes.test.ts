import { describe, expect, it } from 'vitest'
import { ProblemError } from '../kernel/problem-error.ts'
import { DEFAULT_PLANS } from './default-plans.ts'
import { PLAN_FEATURE_KEYS, PLAN_LIMIT_KEYS, type Plan } from './plan.ts'
import { applyPlanChanges } from './plan-changes.ts'

const free = DEFAULT_PLANS[0] as Plan

function problemOf(fn: () => unknown): ProblemError {
  try {
    fn()
  } catch (err) {
    if (err instanceof ProblemError) return err
    throw err
  }
  throw new Error('expected a ProblemError')
}

describe('applyPlanChanges', () => {
  it('the run-time key lists match every default plan', () => {
    for (const plan of DEFAULT_PLANS) {
      expect(Object.keys(plan.features).sort()).toEqual([...PLAN_FEATURE_KEYS].sort())
      expect(Object.keys(plan.limits).sort()).toEqual([...PLAN_LIMIT_KEYS].sort())
    }
  })

  it('changes name, features and limits on a copy', () => {
    const next = applyPlanChanges(free, {
      name: '  Free forever ',
      features: { email: true },
      limits: { max_pages: 75, included_renders: 0 },
    })
    expect(next).toMatchObject({
      id: 'free',
      name: 'Free forever',
      features: { email: true, pdfa: false },
      limits: { max_pages: 75, included_renders: 0, retention_days: 1 },
    })
    expect(free.features.email).toBe(false)
    expect(free.limits.max_pages).toBe(50)
  })

  it('names every unknown key and bad value at once', () => {
    const problem = problemOf(() =>
      applyPlanChanges(free, {
        name: '',
        features: { teleport: true, email: 'yes', __proto__: true } as Record<string, unknown>,
        limits: { max_pages: 0, retention_days: 1.5, speed: 3, max_body_bytes: '10' },
      }),
    )
    expect(problem.code).toBe('validation_error')
    expect(problem.extras.errors?.map((e) => e.path)).toEqual([
      '/name',
      '/features/teleport',
      '/features/email',
      '/limits/max_pages',
      '/limits/retention_days',
      '/limits/speed',
      '/limits/max_body_bytes',
    ])
    expect(problem.detail).toMatch(/unknown limit speed; limits: requests_per_second/)
    expect(problem.detail).toMatch(/limit max_pages must be a whole number of at least 1, not 0/)
  })
})
