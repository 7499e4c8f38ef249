import { Value } from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PlanLimits } from '../plans/plan.ts'
import { FAKE_RENDER_BUILTINS } from '../renders/fake-render-plugins.fixture.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'
import { sampleEventData } from '../webhooks/webhook-sample-events.ts'
import { UsageThresholdEventData } from './usage-thresholds.ts'

// SPEC 1.13 billing, 7.3 402 render_limit_reached and 6.1 usage.threshold_reached, through the
// API: live renders of the fake outputs, counted by the billing feature when they finish.

const TOKEN = 'operator-secret-token-0123456789abcdef'

describe.each(TEST_DIALECTS)('billing counters, top-ups and thresholds on %s', (dialect) => {
  let t: TestKernel

  beforeAll(async () => {
    t = await startTestKernel({
      dialect,
      builtins: FAKE_RENDER_BUILTINS,
      roles: ['api', 'worker'],
      env: { DOCSVC_OPERATOR_TOKEN: TOKEN, DOCSVC_NETWORK_ALLOW: '127.0.0.1/32' },
    })
  })
  afterAll(() => t?.close())

  // each case its own plan numbers, on a plan of its own kind (with or without overage)
  const onPlan = async (planId: 'starter' | 'free', limits: Partial<PlanLimits>): Promise<TestWorkspace> => {
    await t.setPlanLimits(planId, { requests_per_second: 10_000, test_renders_per_minute: 10_000, ...limits })
    return t.createWorkspace({ plan: planId })
  }
  const render = (key: string, html = 'billed') =>
    t.inject({ method: 'POST', url: '/v1/renders', key, payload: { input: { type: 'html', html } } })
  const usage = async (ws: TestWorkspace) =>
    (await t.inject({ method: 'GET', url: '/v1/account', key: ws.liveKey })).json().usage
  const admin = (method: 'GET' | 'PATCH', ws: TestWorkspace, payload?: object) =>
    t.inject({
      method,
      url: `/admin/v1/workspaces/${ws.workspace.id}/billing`,
      headers: { authorization: `Bearer ${TOKEN}` },
      ...(payload ? { payload } : {}),
    })
  const thresholdEvents = async (ws: TestWorkspace) => {
    const rows = await t.kernel.db.kysely
      .selectFrom('events')
      .select(['data', 'test'])
      .where('workspace_id', '=', ws.workspace.id)
      .where('type', '=', 'usage.threshold_reached')
      .orderBy('id')
      .execute()
    return rows.map((row) => ({ test: Number(row.test), ...JSON.parse(row.data).object }))
  }
  const thresholds = async (ws: TestWorkspace) => (await thresholdEvents(ws)).map((e) => e.threshold)

  it('counts live renders, takes top-ups up to the monthly limit, then answers 402 render_limit_reached', async () => {
    const ws = await onPlan('starter', { included_renders: 4, top_up_renders: 2 })
    const set = await admin('PATCH', ws, { top_up_limit: 1 })
    expect(set.statusCode).toBe(200)
    expect(set.json()).toMatchObject({ plan: 'starter', cycle_start_day: 1, top_up_limit: 1 })

    const seen: string[][] = []
    for (let i = 1; i <= 6; i++) {
      expect((await render(ws.liveKey, `r${i}`)).json().status).toBe('succeeded')
      seen.push(await thresholds(ws))
    }
    // 50 % at 2 of 4, 80 % and 100 % at 4, the one top-up (2 renders) used up at 6
    expect(seen).toEqual([
      [],
      ['included_renders_50'],
      ['included_renders_50'],
      ['included_renders_50', 'included_renders_80', 'included_renders_100'],
      ['included_renders_50', 'included_renders_80', 'included_renders_100'],
      ['included_renders_50', 'included_renders_80', 'included_renders_100', 'top_up_limit'],
    ])
    // test renders are free: neither counted nor stopped
    expect((await render(ws.testKey, 'free')).json()).toMatchObject({ status: 'succeeded', test: true })
    expect(await usage(ws)).toMatchObject({
      renders: 6,
      included_renders: 4,
      overage_renders: 2,
      top_ups: 1,
      top_up_renders: 2,
      top_up_limit: 1,
      remaining_renders: 0,
      renders_until_limit: 0,
    })

    const refused = await render(ws.liveKey, 'seventh')
    expect(refused.statusCode).toBe(402)
    expect(refused.headers['content-type']).toMatch(/application\/problem\+json/)
    expect(refused.json()).toMatchObject({ status: 402, code: 'render_limit_reached' })
    expect(refused.json().detail).toMatch(/top-up limit allows are used up; test keys keep working/)
    expect((await render(ws.testKey, 'still free')).statusCode).toBe(200)

    // the operator raises the limit: renders go on, and top_up_limit stays sent for this cycle
    expect((await admin('PATCH', ws, { top_up_limit: 2 })).json().usage.renders_until_limit).toBe(2)
    expect((await render(ws.liveKey, 'r7')).json().status).toBe('succeeded')
    expect((await render(ws.liveKey, 'r8')).json().status).toBe('succeeded')
    expect((await render(ws.liveKey, 'r9')).statusCode).toBe(402)
    expect(await thresholds(ws)).toHaveLength(4)
    expect((await usage(ws)).top_ups).toBe(2)
  })

  it('sends each threshold once with the documented payload', async () => {
    const ws = await onPlan('starter', { included_renders: 2, top_up_renders: 5 })
    expect((await admin('PATCH', ws, { top_up_limit: 0 })).statusCode).toBe(200)
    // a live endpoint subscribed to the event gets one delivery of each threshold (nothing
    // listens there: the deliveries are what the dispatcher made of the outbox)
    const endpoint = await t.inject({
      method: 'POST',
      url: '/v1/webhook-endpoints',
      key: ws.liveKey,
      payload: { url: 'https://127.0.0.1:9/usage', events: ['usage.threshold_reached'] },
    })
    expect(endpoint.statusCode, endpoint.body).toBe(201)
    expect((await render(ws.liveKey)).statusCode).toBe(200)
    expect((await render(ws.liveKey)).statusCode).toBe(200)
    const events = await thresholdEvents(ws)
    // auto top-ups off: the included renders are all, so the limit stops renders at 100 %
    expect(events.map((e) => e.threshold)).toEqual([
      'included_renders_50',
      'included_renders_80',
      'included_renders_100',
      'top_up_limit',
    ])
    const cycle = (await usage(ws)) as { cycle_start: string; cycle_end: string }
    expect(events[3]).toEqual({
      test: 0,
      object: 'usage_threshold',
      threshold: 'top_up_limit',
      cycle_start: cycle.cycle_start,
      cycle_end: cycle.cycle_end,
      renders: 2,
      included_renders: 2,
      overage_renders: 0,
      top_ups: 0,
      top_up_renders: 5,
      top_up_limit: 0,
      remaining_renders: 0,
      renders_until_limit: 0,
    })
    expect(events[0]).toMatchObject({ threshold: 'included_renders_50', renders: 1, remaining_renders: 1 })
    // what is sent, and the sample of POST /v1/webhook-endpoints/{id}/test, match the documented schema
    for (const { test: _test, ...object } of events)
      expect(Value.Check(UsageThresholdEventData, { object })).toBe(true)
    expect(Value.Check(UsageThresholdEventData, sampleEventData('usage.threshold_reached', new Date()))).toBe(
      true,
    )
    const { test: _test, ...first } = events[0]
    expect(Value.Check(UsageThresholdEventData, { object: first })).toBe(true)
    expect(
      Value.Check(UsageThresholdEventData, { object: { ...first, threshold: 'included_renders_90' } }),
    ).toBe(false)
    const refused = await render(ws.liveKey)
    expect(refused.statusCode).toBe(402)
    expect(refused.json().detail).toMatch(/auto top-ups are off/)
    expect(await thresholdEvents(ws)).toHaveLength(4)
    const deliveries = async () =>
      (
        await t.inject({
          method: 'GET',
          url: `/v1/webhook-deliveries?endpoint_id=${endpoint.json().id}`,
          key: ws.liveKey,
        })
      ).json().data as { event_id: string; event_type: string }[]
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
    // no deadline of its own: vitest's timeout ends a stuck wait
    while ((await deliveries()).length < 4) await sleep(50)
    const delivered = await deliveries()
    expect(delivered.map((d) => d.event_type)).toEqual(Array(4).fill('usage.threshold_reached'))
    expect(new Set(delivered.map((d) => d.event_id)).size).toBe(4)
  })

  it('stops a plan without overage at its included renders, without top-ups', async () => {
    const ws = await onPlan('free', { included_renders: 2 })
    expect((await render(ws.liveKey)).statusCode).toBe(200)
    expect((await render(ws.liveKey)).statusCode).toBe(200)
    const refused = await render(ws.liveKey)
    expect(refused.statusCode).toBe(402)
    expect(refused.json()).toMatchObject({ code: 'render_limit_reached' })
    expect(refused.json().detail).toMatch(/Free plan's 2 included renders of this cycle are used up/)
    // the limit of top-ups does not apply to a plan that has none
    expect(await thresholds(ws)).toEqual([
      'included_renders_50',
      'included_renders_80',
      'included_renders_100',
    ])
    expect(await usage(ws)).toMatchObject({ renders: 2, top_ups: 0, renders_until_limit: 0 })
    // moving it to a plan with overage lets it render on, through the same admin call
    const moved = await admin('PATCH', ws, { plan: 'starter' })
    expect(moved.json()).toMatchObject({ plan: 'starter', top_up_limit: null })
    expect(moved.json().usage.renders_until_limit).toBeNull()
    expect((await render(ws.liveKey)).statusCode).toBe(200)
  })

  it('the admin API shows the settings and refuses bad ones at their field, storing nothing', async () => {
    const ws = await onPlan('starter', {})
    const shown = await admin('GET', ws)
    expect(shown.statusCode).toBe(200)
    expect(shown.json()).toMatchObject({
      object: 'workspace_billing',
      workspace_id: ws.workspace.id,
      plan: 'starter',
      cycle_start_day: 1,
      top_up_limit: null,
      usage: { renders: 0, top_ups: 0 },
    })
    const bad = await admin('PATCH', ws, { cycle_start_day: 29, top_up_limit: -1, plan: 'growth' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().code).toBe('validation_error')
    expect(
      bad
        .json()
        .errors.map((e: { path: string }) => e.path)
        .sort(),
    ).toEqual(['/cycle_start_day', '/top_up_limit'])
    const unknownPlan = await admin('PATCH', ws, { plan: 'platinum', top_up_limit: 3 })
    expect(unknownPlan.statusCode).toBe(400)
    expect(unknownPlan.json().detail).toMatch(/unknown plan platinum/)
    // neither refusal changed anything
    expect((await admin('GET', ws)).json()).toMatchObject({
      plan: 'starter',
      cycle_start_day: 1,
      top_up_limit: null,
    })
    const typed = await admin('PATCH', ws, { top_up_limit: 'lots' })
    expect(typed.statusCode).toBe(400)
    const missing = await t.inject({
      method: 'GET',
      url: '/admin/v1/workspaces/ws_00000000000000000000000000/billing',
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(missing.statusCode).toBe(404)
    // workspace keys never reach it
    const withKey = await t.inject({
      method: 'GET',
      url: `/admin/v1/workspaces/${ws.workspace.id}/billing`,
      headers: { authorization: `Bearer ${ws.liveKey}` },
    })
    expect(withKey.statusCode).toBe(401)
  })
})
