import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { FAKE_RENDER_BUILTINS } from '../renders/fake-render-plugins.fixture.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'
import { cycleByDay, nextBoundaryAfter } from './billing-cycle.ts'

describe('cycle windows by start day', () => {
  it('starts at 00:00 UTC on the day, the boundary itself opening the new cycle', () => {
    expect(cycleByDay(new Date('2026-03-14T23:59:59.999Z'), 15)).toEqual({
      start: '2026-02-15T00:00:00.000Z',
      end: '2026-03-15T00:00:00.000Z',
    })
    expect(cycleByDay(new Date('2026-03-15T00:00:00.000Z'), 15)).toEqual({
      start: '2026-03-15T00:00:00.000Z',
      end: '2026-04-15T00:00:00.000Z',
    })
    // across the year and on the default day 1 (the calendar month)
    expect(cycleByDay(new Date('2026-12-31T12:00:00Z'), 1)).toEqual({
      start: '2026-12-01T00:00:00.000Z',
      end: '2027-01-01T00:00:00.000Z',
    })
    expect(cycleByDay(new Date('2027-01-10T00:00:00Z'), 28)).toEqual({
      start: '2026-12-28T00:00:00.000Z',
      end: '2027-01-28T00:00:00.000Z',
    })
    expect(nextBoundaryAfter(new Date('2026-02-28T00:00:00Z'), 28).toISOString()).toBe(
      '2026-03-28T00:00:00.000Z',
    )
  })
})

// GET /v1/usage and GET /v1/account follow the workspace's cycle and start from zero at its
// boundary; the clock is Vitest's (only Date is faked, timers run), moved across the boundary.
describe.each(TEST_DIALECTS)('billing cycles on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({ dialect, builtins: FAKE_RENDER_BUILTINS, roles: ['api', 'worker'] })
    await t.setPlanLimits('starter', { requests_per_second: 10_000, included_renders: 2 })
    ws = await t.createWorkspace({ plan: 'starter' })
    await t.kernel.container.cradle.billingService.changeSettings(ws.workspace.id, { cycle_start_day: 15 })
  })
  afterAll(() => t?.close())
  afterEach(() => {
    vi.useRealTimers()
  })

  const at = (iso: string) => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true })
    vi.setSystemTime(new Date(iso))
  }
  const get = async (url: string) => (await t.inject({ method: 'GET', url, key: ws.liveKey })).json()
  const render = async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/renders',
      key: ws.liveKey,
      payload: { input: { type: 'html', html: 'cycle' } },
    })
    expect(res.json().status).toBe('succeeded')
  }
  const thresholds = async () =>
    (
      await t.kernel.db.kysely
        .selectFrom('events')
        .select('data')
        .where('workspace_id', '=', ws.workspace.id)
        .where('type', '=', 'usage.threshold_reached')
        .orderBy('id')
        .execute()
    ).map((row) => {
      const { threshold, cycle_start } = JSON.parse(row.data).object
      return `${cycle_start.slice(0, 10)} ${threshold}`
    })

  it('aligns the usage series to the cycle and starts over at its boundary', async () => {
    at('2026-03-14T23:00:00Z')
    await render()
    const before = await get('/v1/usage')
    expect(before).toMatchObject({
      from: '2026-02-15T00:00:00.000Z',
      to: '2026-03-15T00:00:00.000Z',
      total: 1,
    })
    expect(before.series).toHaveLength(28)
    expect(before.series.at(-1)).toMatchObject({ start: '2026-03-14T00:00:00.000Z', renders: 1 })
    expect((await get('/v1/account')).usage).toMatchObject({
      cycle_start: '2026-02-15T00:00:00.000Z',
      cycle_end: '2026-03-15T00:00:00.000Z',
      renders: 1,
    })

    at('2026-03-15T00:30:00Z')
    const after = await get('/v1/usage')
    expect(after).toMatchObject({
      from: '2026-03-15T00:00:00.000Z',
      to: '2026-04-15T00:00:00.000Z',
      total: 0,
    })
    expect(after.series[0]).toMatchObject({ start: '2026-03-15T00:00:00.000Z', renders: 0 })
    expect((await get('/v1/account')).usage).toMatchObject({
      cycle_start: '2026-03-15T00:00:00.000Z',
      renders: 0,
      remaining_renders: 2,
    })
    // the last cycle's render is still in a window that asks for it
    expect((await get('/v1/usage?from=2026-03-14&to=2026-03-15')).total).toBe(1)

    await render()
    await render()
    expect((await get('/v1/account')).usage).toMatchObject({ renders: 2, overage_renders: 0 })
    // thresholds are per cycle: 50 % was reached in the old one and again in the new
    expect(await thresholds()).toEqual([
      '2026-02-15 included_renders_50',
      '2026-03-15 included_renders_50',
      '2026-03-15 included_renders_80',
      '2026-03-15 included_renders_100',
    ])
  })

  it('a new start day ends the current cycle at its next occurrence, keeping its count', async () => {
    at('2026-03-20T10:00:00Z')
    await t.kernel.container.cradle.billingService.changeSettings(ws.workspace.id, { cycle_start_day: 1 })
    expect((await get('/v1/account')).usage).toMatchObject({
      cycle_start: '2026-03-15T00:00:00.000Z',
      cycle_end: '2026-04-01T00:00:00.000Z',
      renders: 2,
    })
    expect(await get('/v1/usage')).toMatchObject({
      from: '2026-03-15T00:00:00.000Z',
      to: '2026-04-01T00:00:00.000Z',
    })

    at('2026-04-01T00:00:00Z')
    await render()
    expect((await get('/v1/account')).usage).toMatchObject({
      cycle_start: '2026-04-01T00:00:00.000Z',
      cycle_end: '2026-05-01T00:00:00.000Z',
      renders: 1,
    })
  })
})
