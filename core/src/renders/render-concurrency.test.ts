import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'
import { FAKE_RENDER_BUILTINS, releaseHeld } from './fake-render-plugins.fixture.ts'

// Plans' sync_concurrency and bulk_concurrency (SPEC 7.3 429 concurrency_limited; SPEC 2.11 bulk
// concurrency): renders held in flight by the fake output's `hold:` directive, so nothing here
// depends on how long a render takes.

/** a fresh name for each hold: a released name stays released */
let holds = 0
const holdName = (label: string) => `${label}_${++holds}`

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function waitFor(check: () => Promise<boolean>, label: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`)
    await sleep(20)
  }
}

describe.each(TEST_DIALECTS)('render concurrency limits on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({
      dialect,
      builtins: FAKE_RENDER_BUILTINS,
      roles: ['api', 'worker'],
      env: { DOCSVC_WORKER_CONCURRENCY: '4' },
    })
    await t.setPlanLimits('starter', {
      sync_concurrency: 2,
      bulk_concurrency: 1,
      requests_per_second: 1000,
      test_renders_per_minute: 1000,
    })
    ws = await t.createWorkspace({ plan: 'starter' })
  })
  afterAll(() => t?.close())

  const render = (html: string, extra: Record<string, unknown> = {}, kernel = t) =>
    kernel.inject({
      method: 'POST',
      url: '/v1/renders',
      key: ws.liveKey,
      payload: { input: { type: 'html', html }, ...extra },
    })

  const statuses = async (mode: 'sync' | 'async') => {
    const rows = await t.kernel.db.kysely
      .selectFrom('renders')
      .select(['id', 'status'])
      .where('workspace_id', '=', ws.workspace.id)
      .where('mode', '=', mode)
      .execute()
    return rows.map((row) => row.status)
  }
  const inFlight = async (mode: 'sync' | 'async') =>
    (await statuses(mode)).filter((status) => status === 'queued' || status === 'processing').length

  it('refuses a sync render over the plan’s sync_concurrency with 429 concurrency_limited and Retry-After', async () => {
    const hold = holdName('sync')
    const first = render(`hold:${hold}`)
    const second = render(`hold:${hold}`)
    await waitFor(async () => (await inFlight('sync')) === 2, 'two sync renders in flight')

    const refused = await render('third')
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['content-type']).toMatch(/application\/problem\+json/)
    expect(refused.json()).toMatchObject({ code: 'concurrency_limited', status: 429 })
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    // nothing was stored for the refused request
    expect(await inFlight('sync')).toBe(2)

    // async renders are not sync renders: accepted, and they wait their turn
    const queued = await render('async', { mode: 'async' })
    expect(queued.statusCode).toBe(202)

    releaseHeld(hold)
    expect((await first).statusCode).toBe(200)
    expect((await second).statusCode).toBe(200)
    // the slots are free again
    expect((await render('fourth')).statusCode).toBe(200)
  })

  it('lets exactly sync_concurrency renders of a simultaneous burst in; the others get 429', async () => {
    const hold = holdName('burst')
    let answered = 0
    const burst = Array.from({ length: 6 }, () =>
      render(`hold:${hold}`).then((response) => {
        answered++
        return response
      }),
    )
    // the held two answer only once released: every other request has had its answer by then
    await waitFor(async () => answered === 4, 'the refused requests')
    expect(await inFlight('sync')).toBe(2)
    releaseHeld(hold)
    const codes = (await Promise.all(burst)).map((response) => response.statusCode).sort()
    expect(codes).toEqual([200, 200, 429, 429, 429, 429])
  })

  it.runIf(dialect === 'postgres')(
    'counts sync renders across API processes sharing the database',
    async () => {
      const other = await startTestKernel({
        dialect,
        pgSchema: t.pgSchema!,
        builtins: FAKE_RENDER_BUILTINS,
        roles: ['api'],
      })
      try {
        const hold = holdName('cluster')
        const first = render(`hold:${hold}`)
        const second = render(`hold:${hold}`)
        await waitFor(async () => (await inFlight('sync')) === 2, 'two sync renders in flight')
        const refused = await render('elsewhere', {}, other)
        expect(refused.statusCode).toBe(429)
        expect(refused.json().code).toBe('concurrency_limited')
        releaseHeld(hold)
        await Promise.all([first, second])
      } finally {
        await other.close()
      }
    },
  )

  it('runs no more of a workspace’s async renders at once than its bulk_concurrency; the rest wait queued', async () => {
    const hold = holdName('bulk')
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      const accepted = await render(`hold:${hold} n:${i}`, { mode: 'async' })
      expect(accepted.statusCode).toBe(202)
      ids.push(accepted.json().id)
    }
    const processing = async () =>
      (await statuses('async')).filter((status) => status === 'processing').length
    await waitFor(async () => (await processing()) === 1, 'one async render running')
    // the worker has free slots: a second render of the workspace would start now
    await sleep(500)
    expect(await processing()).toBe(1)
    // another workspace is not held up by this one's backlog
    const other = await t.createWorkspace({ plan: 'starter' })
    const elsewhere = await t.inject({
      method: 'POST',
      url: '/v1/renders',
      key: other.liveKey,
      payload: { input: { type: 'html', html: 'other workspace' } },
    })
    expect(elsewhere.statusCode).toBe(200)
    releaseHeld(hold)
    await waitFor(async () => (await inFlight('async')) === 0, 'the async renders')
    for (const id of ids) {
      const got = await t.inject({ method: 'GET', url: `/v1/renders/${id}`, key: ws.liveKey })
      expect(got.json().status).toBe('succeeded')
    }
  })
})
