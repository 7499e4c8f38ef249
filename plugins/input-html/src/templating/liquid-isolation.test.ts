import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LiquidLimits, renderLiquid, stopLiquidWorkers, warmLiquidWorkers } from './index.ts'
import { SLOW_SINGLE_NODE } from './runaway-template.fixture.ts'

// Runaway templates end with template_fuel_exhausted within their budget, in worker threads that
// are terminated and replaced; the templates after them render as usual.

const BUDGET_MS = 300
// a busy test machine delays timers and thread starts; the budget itself is 300 ms
const SLACK_MS = 1_700
// what a liquidjs limit bypass looks like: with the cooperative allocation count out of the way,
// only the worker's hard budgets are left
const NO_COOPERATIVE_MEMORY = { memory: Number.MAX_SAFE_INTEGER }

interface Outcome {
  code: unknown
  detail: unknown
  ms: number
}

async function outcome(source: string, limits: Partial<LiquidLimits>, partials?: Record<string, string>) {
  const started = performance.now()
  const options = partials ? { limits, partials } : { limits }
  return renderLiquid(source, {}, options).then(
    (output): Outcome => ({ code: 'rendered', detail: output.slice(0, 50), ms: performance.now() - started }),
    (err: { code: unknown; detail: unknown }): Outcome => ({
      code: err.code,
      detail: err.detail,
      ms: performance.now() - started,
    }),
  )
}

async function expectHealthy(): Promise<void> {
  expect(
    await renderLiquid('{{ n | plus: 1 }} {{ total | money: "EUR", "de-DE" }}', { n: 1, total: 9.5 }),
  ).toBe('2 9,50\u00a0€')
}

beforeAll(async () => {
  warmLiquidWorkers()
  await expectHealthy()
})

afterAll(() => stopLiquidWorkers())

describe('runaway templates', () => {
  // sorting half a million strings over and over in one output is one template node (seconds of
  // work): liquidjs' own time check, made between nodes, never gets to run; only terminating the
  // thread stops it

  it('stop a single slow output, which liquidjs cannot interrupt, at the hard time budget', async () => {
    const result = await outcome(SLOW_SINGLE_NODE, { renderMs: BUDGET_MS })
    expect(result).toMatchObject({
      code: 'template_fuel_exhausted',
      detail: `Template exceeded its time budget of ${BUDGET_MS} ms.`,
    })
    expect(result.ms).toBeLessThan(BUDGET_MS + SLACK_MS)
    await expectHealthy()
  })

  it('stop it at the default budget of 2 s when the caller sets none', async () => {
    const result = await outcome(SLOW_SINGLE_NODE, {})
    expect(result).toMatchObject({
      code: 'template_fuel_exhausted',
      detail: 'Template exceeded its time budget of 2000 ms.',
    })
    expect(result.ms).toBeLessThan(2_000 + SLACK_MS)
    await expectHealthy()
  })

  it('stop infinite recursion through partials', async () => {
    const result = await outcome(
      '{% render "again" %}',
      { renderMs: BUDGET_MS },
      { again: 'x{% render "again" %}' },
    )
    expect(result.code).toBe('template_fuel_exhausted')
    expect(result.ms).toBeLessThan(BUDGET_MS + SLACK_MS)
    await expectHealthy()
  })

  it('stop a huge nested for within the time budget', async () => {
    const source = '{% for a in (1..100000) %}{% for b in (1..100000) %}{{ b }}{% endfor %}{% endfor %}'
    const result = await outcome(source, { renderMs: BUDGET_MS })
    expect(result.code).toBe('template_fuel_exhausted')
    expect(result.ms).toBeLessThan(BUDGET_MS + SLACK_MS)
    await expectHealthy()
  })

  it('stop a 10^9 iteration for, with and without liquidjs allocation count', async () => {
    const source = '{% for i in (1..1000000000) %}{% endfor %}'
    for (const limits of [{ renderMs: BUDGET_MS }, { renderMs: BUDGET_MS, ...NO_COOPERATIVE_MEMORY }]) {
      const result = await outcome(source, limits)
      expect(result.code).toBe('template_fuel_exhausted')
      expect(result.ms).toBeLessThan(BUDGET_MS + SLACK_MS)
    }
    await expectHealthy()
  })

  it('stop a string doubled in a loop', async () => {
    const doubling = '{% assign s = "xy" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}'
    expect(await outcome(`${doubling}{{ s }}`, {})).toMatchObject({
      code: 'template_fuel_exhausted',
      detail: 'memory alloc limit exceeded (line 1, column 44)',
    })
    // past liquidjs' count the string hits the engine's ceiling: still the template's budget
    expect(await outcome(`${doubling}{{ s }}`, NO_COOPERATIVE_MEMORY)).toMatchObject({
      code: 'template_fuel_exhausted',
      detail: 'a string grew past the longest the engine can hold (line 1, column 44)',
    })
    await expectHealthy()
  })

  it('stop a memory bomb at the worker heap budget', async () => {
    const source =
      '{% assign a = "x,y" | split: "," %}{% for i in (1..40) %}{% assign a = a | concat: a %}{% endfor %}' +
      '{{ a | size }}'
    // a long time budget, so that the heap is what ends it
    const result = await outcome(source, { renderMs: 30_000, ...NO_COOPERATIVE_MEMORY })
    expect(result).toMatchObject({
      code: 'template_fuel_exhausted',
      detail: 'Template exceeded its memory budget of 128 MB.',
    })
    await expectHealthy()
  })

  it('keep output that would flood the caller in the worker', async () => {
    const result = await outcome('{% for i in (1..2000) %}0123456789{% endfor %}', { outputChars: 10_000 })
    expect(result).toMatchObject({
      code: 'template_fuel_exhausted',
      detail: 'Template output exceeded 10000 characters.',
    })
  })

  it('serve the templates queued behind runaways that hold every thread', async () => {
    const stuck = '{% for a in (1..100000) %}{% for b in (1..100000) %}{% endfor %}{% endfor %}'
    const runaways = [1, 2, 3].map(() => outcome(stuck, { renderMs: BUDGET_MS }))
    const healthy = renderLiquid('{% for i in (1..3) %}{{ i }}{% endfor %}', {})
    expect(await healthy).toBe('123')
    for (const result of await Promise.all(runaways)) expect(result.code).toBe('template_fuel_exhausted')
    await expectHealthy()
  })
})
