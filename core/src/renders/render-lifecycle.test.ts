import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  recordedEvents,
  startTestKernel,
  TEST_DIALECTS,
  type TestKernel,
  type TestWorkspace,
} from '../testing/index.ts'
import { FAKE_RENDER_BUILTINS } from './fake-render-plugins.fixture.ts'

describe.each(TEST_DIALECTS)('render events, retention and lost renders on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({ dialect, builtins: FAKE_RENDER_BUILTINS, roles: ['api', 'worker'] })
    ws = await t.createWorkspace({ plan: 'scale' })
  })
  afterAll(() => t.close())

  const render = (html: string, key = ws.liveKey) =>
    t.inject({ method: 'POST', url: '/v1/renders', key, payload: { input: { type: 'html', html } } })

  async function eventsOf(renderId: string) {
    const events = await recordedEvents(t.kernel)
    return events.filter((e) => (e.data as { object: { id: string } }).object.id === renderId)
  }

  it('writes render.succeeded with the full render record, in the same transaction', async () => {
    const done = (await render('events')).json()
    const events = await eventsOf(done.id)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ type: 'render.succeeded', workspace_id: ws.workspace.id })
    expect(events[0]?.id).toMatch(/^evt_/)
    const object = (events[0]!.data as { object: Record<string, unknown> }).object
    expect(object).toMatchObject({ id: done.id, status: 'succeeded', object: 'render' })
    expect((object.files as { url: string }[])[0]?.url).toMatch(/\/files\//)
    expect((events[0] as { test?: boolean }).test).toBeUndefined()
    // the same record GET answers (its links signed at another moment), started_at included
    const got = (await t.inject({ method: 'GET', url: `/v1/renders/${done.id}`, key: ws.liveKey })).json()
    const unlinked = (r: Record<string, unknown>) => ({
      ...r,
      files: (r.files as Record<string, unknown>[]).map(({ url: _u, expires_at: _e, ...f }) => f),
    })
    expect(unlinked(object)).toEqual(unlinked(got))
    expect(object.started_at).toEqual(expect.any(String))
    // the sync answer is that record, links and all
    expect(done).toEqual(object)
  })

  it('writes render.failed for failures, with test: true for test renders', async () => {
    const failed = await render('fail:navigation_failed', ws.testKey)
    const events = await eventsOf(failed.json().render_id)
    expect(events.map((e) => e.type)).toEqual(['render.failed'])
    expect((events[0] as { test?: boolean }).test).toBe(true)
  })

  it('expires hosted files at the end of retention and writes render.expired', async () => {
    const done = (await render('retained')).json()
    const { renderSweeper } = t.kernel.container.cradle
    const later = new Date(Date.now() + 400 * 24 * 3600 * 1000)
    const swept = await renderSweeper.sweep(later)
    expect(swept.expired).toBeGreaterThanOrEqual(1)
    const after = await t.inject({ method: 'GET', url: `/v1/renders/${done.id}`, key: ws.liveKey })
    expect(after.json().status).toBe('expired')
    const file = await t.inject({
      method: 'GET',
      url: `/v1/renders/${done.id}/files/${done.files[0].id}`,
      key: ws.liveKey,
    })
    expect(file.statusCode).toBe(410)
    expect((await eventsOf(done.id)).map((e) => e.type)).toEqual(['render.succeeded', 'render.expired'])
  })

  it('fails a render whose worker vanished with render_lost, unbilled', async () => {
    const done = (await render('lost')).json()
    const { db } = t.kernel
    // a render left in processing long ago: its worker died and the queue gave up on it
    await db.kysely
      .updateTable('renders')
      .set({ status: 'processing', finished_at: null, updated_at: '2020-01-01T00:00:00.000Z' })
      .where('id', '=', done.id)
      .execute()
    await t.kernel.container.cradle.renderSweeper.sweep()
    const after = (await t.inject({ method: 'GET', url: `/v1/renders/${done.id}`, key: ws.liveKey })).json()
    expect(after).toMatchObject({ status: 'failed', error: { code: 'render_lost' } })
    expect((await eventsOf(done.id)).map((e) => e.type)).toContain('render.failed')
  })
})
