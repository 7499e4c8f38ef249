import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PlanLimits } from '../plans/plan.ts'
import { FAKE_RENDER_BUILTINS, releaseHeld } from '../renders/fake-render-plugins.fixture.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'

// Decision 0097: a billable live render reserves its unit when it is admitted, so renders in
// flight can never take a workspace past its limit, and a render that ends unbilled gives its
// unit back. Judged through the API: creation answers, GET /v1/account's usage, render status.

const FINAL = ['succeeded', 'failed', 'canceled']

describe.each(TEST_DIALECTS)('billing reservations on %s', (dialect) => {
  // `worker` renders; `apiOnly` has no worker, so what it admits stays queued
  let worker: TestKernel
  let apiOnly: TestKernel

  beforeAll(async () => {
    const options = { dialect, builtins: FAKE_RENDER_BUILTINS, env: { DOCSVC_NETWORK_ALLOW: '127.0.0.1/32' } }
    worker = await startTestKernel({ ...options, roles: ['api', 'worker'] })
    apiOnly = await startTestKernel({ ...options, roles: ['api'] })
  })
  afterAll(async () => {
    await worker?.close()
    await apiOnly?.close()
  })

  const onFree = async (t: TestKernel, limits: Partial<PlanLimits>): Promise<TestWorkspace> => {
    await t.setPlanLimits('free', { requests_per_second: 10_000, test_renders_per_minute: 10_000, ...limits })
    return t.createWorkspace({ plan: 'free' })
  }
  const create = (t: TestKernel, key: string, html: string, mode: 'sync' | 'async' = 'async') =>
    t.inject({ method: 'POST', url: '/v1/renders', key, payload: { mode, input: { type: 'html', html } } })
  const usage = async (t: TestKernel, ws: TestWorkspace) =>
    (await t.inject({ method: 'GET', url: '/v1/account', key: ws.liveKey })).json().usage
  const counts = (renders: number, remaining_renders: number, renders_until_limit: number) => ({
    renders,
    remaining_renders,
    renders_until_limit,
  })
  const status = async (t: TestKernel, key: string, id: string) =>
    (await t.inject({ method: 'GET', url: `/v1/renders/${id}`, key })).json().status as string
  // no deadline of its own: vitest's timeout ends a stuck wait
  const finished = async (t: TestKernel, key: string, id: string) => {
    for (;;) {
      const now = await status(t, key, id)
      if (FINAL.includes(now)) return now
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }
  const thresholdCount = async (t: TestKernel, ws: TestWorkspace) =>
    (
      await t.kernel.db.kysely
        .selectFrom('events')
        .select('id')
        .where('workspace_id', '=', ws.workspace.id)
        .where('type', '=', 'usage.threshold_reached')
        .execute()
    ).length

  it('refuses async renders past the limit when they are created, though none has finished', async () => {
    const ws = await onFree(worker, { included_renders: 3 })
    const accepted = []
    for (let i = 0; i < 3; i++) {
      const res = await create(worker, ws.liveKey, `hold:reserve_${dialect}`)
      expect(res.statusCode, res.body).toBe(202)
      accepted.push(res.json().id as string)
    }
    const refused = await create(worker, ws.liveKey, 'one too many')
    expect(refused.statusCode).toBe(402)
    expect(refused.json()).toMatchObject({ code: 'render_limit_reached' })
    expect(refused.json().detail).toMatch(/Live renders still queued or running count as used/)
    // nothing is used yet, and nothing more is possible; thresholds follow use, not reservations
    expect(await usage(worker, ws)).toMatchObject(counts(0, 3, 0))
    expect(await thresholdCount(worker, ws)).toBe(0)
    // test keys are never stopped
    expect((await create(worker, ws.testKey, 'free')).statusCode).toBe(202)

    releaseHeld(`reserve_${dialect}`)
    for (const id of accepted) expect(await finished(worker, ws.liveKey, id)).toBe('succeeded')
    expect(await usage(worker, ws)).toMatchObject(counts(3, 0, 0))
    expect(await thresholdCount(worker, ws)).toBe(3)
    expect((await create(worker, ws.liveKey, 'still refused')).statusCode).toBe(402)
  })

  it('gives the unit of a failed render back', async () => {
    const ws = await onFree(worker, { included_renders: 1 })
    // held until the refusal below is seen, then it fails
    const failing = await create(worker, ws.liveKey, `hold:fails_${dialect} fail:render_failed`)
    expect(failing.statusCode).toBe(202)
    expect((await create(worker, ws.liveKey, 'waits its turn')).statusCode).toBe(402)
    releaseHeld(`fails_${dialect}`)
    expect(await finished(worker, ws.liveKey, failing.json().id)).toBe('failed')
    expect(await usage(worker, ws)).toMatchObject({ renders: 0, renders_until_limit: 1 })
    const next = await create(worker, ws.liveKey, 'billed', 'sync')
    expect(next.json().status).toBe('succeeded')
    expect(await usage(worker, ws)).toMatchObject({ renders: 1, renders_until_limit: 0 })
  })

  it('gives the unit of a canceled queued render back', async () => {
    const ws = await onFree(apiOnly, { included_renders: 2 })
    const first = await create(apiOnly, ws.liveKey, 'queued one')
    const second = await create(apiOnly, ws.liveKey, 'queued two')
    expect([first.statusCode, second.statusCode]).toEqual([202, 202])
    expect((await create(apiOnly, ws.liveKey, 'third')).statusCode).toBe(402)
    const canceled = await apiOnly.inject({
      method: 'POST',
      url: `/v1/renders/${first.json().id}/cancel`,
      key: ws.liveKey,
    })
    expect(canceled.statusCode, canceled.body).toBe(200)
    expect(canceled.json().status).toBe('canceled')
    expect(await usage(apiOnly, ws)).toMatchObject({ renders: 0, renders_until_limit: 1 })
    expect((await create(apiOnly, ws.liveKey, 'takes the freed unit')).statusCode).toBe(202)
    expect((await create(apiOnly, ws.liveKey, 'none left')).statusCode).toBe(402)
    // canceling twice gives back nothing more
    const again = await apiOnly.inject({
      method: 'POST',
      url: `/v1/renders/${first.json().id}/cancel`,
      key: ws.liveKey,
    })
    expect(again.statusCode).toBe(409)
    expect(await usage(apiOnly, ws)).toMatchObject({ renders: 0, renders_until_limit: 0 })
  })

  it('a sync render refused for concurrency (429) takes no unit', async () => {
    const ws = await onFree(apiOnly, { included_renders: 3, sync_concurrency: 1, sync_timeout_seconds: 1 })
    // no worker: the sync wait ends in a 202 and the render stays queued, holding the one slot
    expect((await create(apiOnly, ws.liveKey, 'holds the slot', 'sync')).statusCode).toBe(202)
    const refused = await create(apiOnly, ws.liveKey, 'over the concurrency', 'sync')
    expect([refused.statusCode, refused.json().code]).toEqual([429, 'concurrency_limited'])
    expect(await usage(apiOnly, ws)).toMatchObject({ renders: 0, renders_until_limit: 2 })
  })

  it('bills a unit in the cycle that reserved it when it finishes after that cycle ended', async () => {
    const ws = await onFree(apiOnly, { included_renders: 5 })
    const { billingService, billingRepository, workspaceService } = apiOnly.kernel.container.cradle
    const plan = (await workspaceService.planOf(ws.workspace.id))!
    const db = apiOnly.kernel.db.kysely
    const november = new Date('2026-11-30T23:59:59.000Z')
    const december = new Date('2026-12-01T00:00:01.000Z')
    const reserve = await billingService.admission(ws.workspace.id, plan, november)
    await db.transaction().execute((trx) => reserve(trx, 'render_straddling'))
    await db.transaction().execute((trx) =>
      billingService.countBilled(trx, {
        unitId: 'render_straddling',
        workspaceId: ws.workspace.id,
        plan,
        at: december,
      }),
    )
    const counters = async (at: Date) => {
      const row = await billingRepository.cycleRowAt(ws.workspace.id, at)
      return row && { renders: Number(row.renders), reserved: Number(row.reserved) }
    }
    expect(await counters(november)).toEqual({ renders: 1, reserved: 0 })
    expect(await counters(december)).toBeUndefined()
    expect(await billingRepository.reservations(ws.workspace.id)).toEqual([])
  })

  it('gives the unit of a render the platform lost back (render_lost)', async () => {
    const ws = await onFree(apiOnly, { included_renders: 1 })
    const stranded = await create(apiOnly, ws.liveKey, 'never runs: no worker')
    expect(stranded.statusCode).toBe(202)
    expect((await create(apiOnly, ws.liveKey, 'no unit left')).statusCode).toBe(402)
    // two days on, the sweeper takes a render queued that long for lost
    await apiOnly.kernel.container.cradle.renderSweeper.sweep(new Date(Date.now() + 2 * 86_400_000))
    const lost = (
      await apiOnly.inject({ method: 'GET', url: `/v1/renders/${stranded.json().id}`, key: ws.liveKey })
    ).json()
    expect(lost).toMatchObject({ status: 'failed', error: { code: 'render_lost' } })
    expect(await usage(apiOnly, ws)).toMatchObject({ renders: 0, renders_until_limit: 1 })
    expect((await create(apiOnly, ws.liveKey, 'takes the unit back')).statusCode).toBe(202)
  })
})
