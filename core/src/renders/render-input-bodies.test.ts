import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'
import { FAKE_RENDER_BUILTINS } from './fake-render-plugins.fixture.ts'
import { LARGE_BODY_BYTES } from './render-input-bodies.ts'

describe.each(TEST_DIALECTS)('large input bodies live in the file store on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({ dialect, builtins: FAKE_RENDER_BUILTINS, roles: ['api', 'worker'] })
    ws = await t.createWorkspace({ plan: 'growth' })
  })
  afterAll(() => t.close())

  const bigHtml = (directive: string) => `${directive} <p>${'x'.repeat(LARGE_BODY_BYTES + 10)}</p>`

  async function storedRequest(id: string): Promise<string> {
    const row = await t.kernel.db.kysely
      .selectFrom('renders')
      .select('request')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    return row.request
  }

  async function exists(key: string): Promise<boolean> {
    const object = await t.kernel.container.cradle.fileStore.get(key)
    object?.stream.destroy()
    return object !== undefined
  }

  it('renders a body over 64 KB from the store and deletes it once the render ends', async () => {
    const html = bigHtml('big')
    const res = await t.inject({
      method: 'POST',
      url: '/v1/renders',
      key: ws.liveKey,
      payload: { input: { type: 'html', html }, delivery: 'binary' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe(`PDF ${html}`)
    const id = res.headers['x-render-id'] as string
    const request = JSON.parse(await storedRequest(id))
    expect(request.input.html).toBeUndefined()
    expect((await storedRequest(id)).length).toBeLessThan(2000)
    const key = request.stored_bodies.html as string
    expect(key).toBe(`${ws.workspace.id}/${id}/input-html.txt`)
    expect(await exists(key)).toBe(false)
  })

  it('keeps small bodies in the request row', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/renders',
      key: ws.liveKey,
      payload: { input: { type: 'html', html: '<p>small</p>' } },
    })
    const request = JSON.parse(await storedRequest(res.json().id))
    expect(request.input.html).toBe('<p>small</p>')
    expect(request.stored_bodies).toBeUndefined()
  })

  it('deletes the stored body of a render canceled while queued', async () => {
    // an API without a worker: the render stays queued until canceled
    const api = await startTestKernel({ dialect, builtins: FAKE_RENDER_BUILTINS, roles: ['api'] })
    try {
      const own = await api.createWorkspace({ plan: 'growth' })
      const queued = await api.inject({
        method: 'POST',
        url: '/v1/renders',
        key: own.liveKey,
        payload: { mode: 'async', input: { type: 'html', html: bigHtml('queued') } },
      })
      expect(queued.statusCode).toBe(202)
      const { renderRepository, fileStore } = api.kernel.container.cradle
      const key = (await renderRepository.getById(queued.json().id))!.request.stored_bodies!.html!
      const before = await fileStore.get(key)
      before?.stream.destroy()
      expect(before?.size).toBeGreaterThan(LARGE_BODY_BYTES)
      const canceled = await api.inject({
        method: 'POST',
        url: `/v1/renders/${queued.json().id}/cancel`,
        key: own.liveKey,
      })
      expect(canceled.json().status).toBe('canceled')
      expect(await fileStore.get(key)).toBeUndefined()
    } finally {
      await api.close()
    }
  })
})
