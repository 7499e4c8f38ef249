import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { QueueBackend } from '../sdk/queue-contracts.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'
import { FAKE_RENDER_BUILTINS } from './fake-render-plugins.fixture.ts'

// A render is stored, then its job sent: what happens when the send fails, or when the process
// stops between the two (simulated by a send that never returns).

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const LATER = () => new Date(Date.now() + 5 * 60_000)

describe.each(TEST_DIALECTS)('render row and job on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace
  let queue: QueueBackend

  beforeAll(async () => {
    t = await startTestKernel({ dialect, builtins: FAKE_RENDER_BUILTINS, roles: ['api', 'worker'] })
    ws = await t.createWorkspace({ plan: 'scale' })
    queue = t.kernel.container.cradle.queue
  })
  afterAll(() => t?.close())

  const render = (html: string, mode: 'sync' | 'async') =>
    t.inject({
      method: 'POST',
      url: '/v1/renders',
      key: ws.liveKey,
      payload: { input: { type: 'html', html }, mode },
    })

  const rowOf = (html: string) =>
    t.kernel.db.kysely
      .selectFrom('renders')
      .selectAll()
      .where('workspace_id', '=', ws.workspace.id)
      .where('request', 'like', `%${html}%`)
      .executeTakeFirst()

  /** the next send hangs, as if the process stopped there; `resume` lets it fail afterwards */
  function hangNextSend() {
    const send = queue.send
    let fail = (_err: Error) => {}
    queue.send = () => {
      queue.send = send
      return new Promise((_resolve, reject) => {
        fail = reject
      })
    }
    return { resume: () => fail(new Error('the process had stopped')) }
  }

  async function waitForRow(html: string) {
    for (let i = 0; i < 500; i++) {
      const row = await rowOf(html)
      if (row) return row
      await sleep(20)
    }
    throw new Error(`no render row for ${html}`)
  }

  it('fails a render whose job cannot be sent, at once and unbilled; it never runs later', async () => {
    const send = queue.send
    queue.send = async () => {
      queue.send = send
      throw new Error('queue unavailable')
    }
    const refused = await render('send-fails', 'async')
    expect(refused.statusCode).toBeGreaterThanOrEqual(500)
    const row = await rowOf('send-fails')
    expect(row).toMatchObject({ status: 'failed', job_id: null })
    expect(JSON.parse(row!.error as string).code).toBe('render_lost')
    const swept = await t.kernel.container.cradle.renderSweeper.sweep(LATER())
    expect(swept.resent).toBe(0)
    expect((await rowOf('send-fails'))?.status).toBe('failed')
  })

  it('sends the job of an async render stored without one; the render then runs once', async () => {
    const hung = hangNextSend()
    const pending = render('orphan-async', 'async')
    const orphan = await waitForRow('orphan-async')
    expect(orphan).toMatchObject({ status: 'queued', job_id: null })

    const swept = await t.kernel.container.cradle.renderSweeper.sweep(LATER())
    expect(swept.resent).toBe(1)
    for (let i = 0; i < 500 && (await rowOf('orphan-async'))?.status !== 'succeeded'; i++) await sleep(20)
    const done = await rowOf('orphan-async')
    expect(done).toMatchObject({ status: 'succeeded', attempts: 1 })
    expect(done?.job_id).toEqual(expect.any(String))
    // sweeping again sends nothing more
    expect((await t.kernel.container.cradle.renderSweeper.sweep(LATER())).resent).toBe(0)

    hung.resume()
    await pending
    expect((await rowOf('orphan-async'))?.status).toBe('succeeded')
  })

  it('fails a sync render stored without its job as render_lost: no one waits for it any more', async () => {
    const hung = hangNextSend()
    const pending = render('orphan-sync', 'sync')
    await waitForRow('orphan-sync')
    const swept = await t.kernel.container.cradle.renderSweeper.sweep(LATER())
    expect(swept).toMatchObject({ resent: 0, lost: 1 })
    const row = await rowOf('orphan-sync')
    expect(row?.status).toBe('failed')
    expect(JSON.parse(row!.error as string).code).toBe('render_lost')
    hung.resume()
    await pending
  })
})
