import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_RENDER_BUILTINS } from '../renders/fake-render-plugins.fixture.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'

// Counters that never drift: 500 live renders at once through two kernels on one PostgreSQL
// database (two pools, two workers: what two processes are to the database), each render billed
// by whichever worker finishes it. The counts must be exact, every threshold sent once.

const RENDERS = 500
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.runIf(TEST_DIALECTS.includes('postgres'))('billing under concurrency on postgres', () => {
  let a: TestKernel
  let b: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    const env = { DOCSVC_WORKER_CONCURRENCY: '16' }
    const options = {
      dialect: 'postgres' as const,
      builtins: FAKE_RENDER_BUILTINS,
      roles: ['api' as const, 'worker' as const],
      env,
    }
    a = await startTestKernel(options)
    b = await startTestKernel({ ...options, pgSchema: a.pgSchema! })
    // 200 included, then blocks of 50 up to 6 top-ups: exactly 500 renders fit
    await a.setPlanLimits('starter', {
      included_renders: 200,
      top_up_renders: 50,
      requests_per_second: 100_000,
      bulk_concurrency: 64,
    })
    ws = await a.createWorkspace({ plan: 'starter' })
    await a.kernel.container.cradle.billingService.changeSettings(ws.workspace.id, { top_up_limit: 6 })
  }, 60_000)
  afterAll(async () => {
    await b?.close()
    await a?.close()
  })

  it(`counts ${RENDERS} parallel renders finished by two processes exactly, thresholds once each`, async () => {
    const accepted = await Promise.all(
      Array.from({ length: RENDERS }, (_, i) =>
        (i % 2 === 0 ? a : b).inject({
          method: 'POST',
          url: '/v1/renders',
          key: ws.liveKey,
          payload: { mode: 'async', input: { type: 'html', html: `render ${i}` } },
        }),
      ),
    )
    expect(accepted.map((res) => res.statusCode)).toEqual(Array(RENDERS).fill(202))

    const db = a.kernel.db.kysely
    const succeeded = async () =>
      Number(
        (
          await db
            .selectFrom('renders')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('workspace_id', '=', ws.workspace.id)
            .where('status', '=', 'succeeded')
            .executeTakeFirstOrThrow()
        ).n,
      )
    // no deadline of its own: vitest's timeout ends a stuck run
    while ((await succeeded()) < RENDERS) await sleep(100)

    const usage = await a.inject({ method: 'GET', url: '/v1/account', key: ws.liveKey })
    expect(usage.json().usage).toMatchObject({
      renders: RENDERS,
      overage_renders: RENDERS - 200,
      top_ups: 6,
      renders_until_limit: 0,
    })
    const billed = await db
      .selectFrom('billed_renders')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('workspace_id', '=', ws.workspace.id)
      .executeTakeFirstOrThrow()
    expect(Number(billed.n)).toBe(RENDERS)
    const events = await db
      .selectFrom('events')
      .select('data')
      .where('workspace_id', '=', ws.workspace.id)
      .where('type', '=', 'usage.threshold_reached')
      .execute()
    const sent = events.map((e) => JSON.parse(e.data).object as { threshold: string; renders: number })
    expect(sent.map((e) => e.threshold).sort()).toEqual([
      'included_renders_100',
      'included_renders_50',
      'included_renders_80',
      'top_up_limit',
    ])
    // each was written by the render that crossed it
    expect(Object.fromEntries(sent.map((e) => [e.threshold, e.renders]))).toEqual({
      included_renders_50: 100,
      included_renders_80: 160,
      included_renders_100: 200,
      top_up_limit: RENDERS,
    })
    // and the next live render is refused by either process
    for (const kernel of [a, b]) {
      const refused = await kernel.inject({
        method: 'POST',
        url: '/v1/renders',
        key: ws.liveKey,
        payload: { input: { type: 'html', html: 'one more' } },
      })
      expect(refused.statusCode).toBe(402)
      expect(refused.json().code).toBe('render_limit_reached')
    }
  }, 240_000)
})
