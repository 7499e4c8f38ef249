import { afterEach, describe, expect, it } from 'vitest'
import { FAKE_RENDER_BUILTINS, releaseHeld } from '../renders/fake-render-plugins.fixture.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel } from '../testing/index.ts'

// The stop order (kernel/shutdown.ts) over real HTTP: requests in flight first, then the queue's
// workers, then the database; and a sync render longer than the deadline does not hold it up.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
let holds = 0

describe.each(TEST_DIALECTS)('shutdown on %s', (dialect) => {
  let t: TestKernel | undefined

  afterEach(async () => {
    await t?.close()
    t = undefined
  })

  /** a kernel serving on a port, whose steps write down when they happen */
  async function serving() {
    t = await startTestKernel({ dialect, builtins: FAKE_RENDER_BUILTINS, roles: ['api', 'worker'] })
    const kernel = t.kernel
    const ws = await t.createWorkspace({ plan: 'scale' })
    const steps: string[] = []
    const { queue } = kernel.container.cradle
    const stopQueue = queue.stop.bind(queue)
    queue.stop = async (deadlineMs) => {
      steps.push('queue stopping')
      await stopQueue(deadlineMs)
    }
    const closeDb = kernel.db.close.bind(kernel.db)
    kernel.db.close = async () => {
      steps.push('database closing')
      await closeDb()
    }
    await kernel.app.listen({ port: 0, host: '127.0.0.1' })
    // the server's side of the answer: when its last byte is handed to the socket (the client's
    // reading of it may lag behind the stop on a busy machine, and is not what is checked)
    kernel.app.server.on('request', (req, res) => {
      if (req.url === '/v1/renders') res.on('finish', () => steps.push(`answered ${res.statusCode}`))
    })
    const address = kernel.app.server.address()
    const port = typeof address === 'object' && address ? address.port : 0
    const hold = `shutdown_${++holds}`
    const response = fetch(`http://127.0.0.1:${port}/v1/renders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ws.liveKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { type: 'html', html: `hold:${hold}` }, delivery: { type: 'binary' } }),
    }).then(
      async (res) => ({ status: res.status, body: await res.text() }),
      (err: Error) => ({ status: 0, body: err.message }),
    )
    for (let i = 0; i < 500; i++) {
      const row = await kernel.db.kysely.selectFrom('renders').select('status').executeTakeFirst()
      if (row?.status === 'processing') break
      await sleep(20)
    }
    return { kernel, steps, hold, response }
  }

  it('lets a sync render in flight finish, then stops the queue, then closes the database', async () => {
    const { kernel, steps, hold, response } = await serving()
    const closing = kernel.close(20_000)
    await sleep(200)
    // still answering the render: the queue must keep running its job
    expect(steps).toEqual([])
    releaseHeld(hold)
    const answered = await response
    await closing
    expect(answered.status).toBe(200)
    expect(answered.body).toContain(`PDF hold:${hold}`)
    expect(steps).toEqual(['answered 200', 'queue stopping', 'database closing'])
  })

  it('does not wait past its deadline for a sync render: the queue stops, the connection ends, the database closes; the render is retried, not lost', async () => {
    const { kernel, steps, hold, response } = await serving()
    const first = t!
    await kernel.close(1_000)
    await response
    expect(steps.slice(0, 1)).toEqual(['queue stopping'])
    expect(steps).toContain('database closing')
    expect(steps.indexOf('database closing')).toBeGreaterThan(steps.indexOf('queue stopping'))

    // another process on the same store takes the job back and renders it, as attempt 2
    releaseHeld(hold)
    const next = await startTestKernel({
      dialect,
      builtins: FAKE_RENDER_BUILTINS,
      roles: ['api', 'worker'],
      ...(dialect === 'postgres'
        ? { pgSchema: first.pgSchema! }
        : { env: { DOCSVC_DATA_DIR: first.dataDir } }),
    })
    try {
      const row = async () =>
        next.kernel.db.kysely.selectFrom('renders').select(['status', 'attempts']).executeTakeFirst()
      for (let i = 0; i < 750 && (await row())?.status !== 'succeeded'; i++) await sleep(20)
      expect(await row()).toEqual({ status: 'succeeded', attempts: 2 })
    } finally {
      await next.close()
    }
  })
})
