import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_RENDER_BUILTINS } from '../renders/fake-render-plugins.fixture.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'

// Issue 13 item 7: an idempotent answer that carries a render's file keeps a pointer to the
// render, never the bytes; a replay reads the file again, and a render that kept no copy (zero
// retention) answers 410 file_expired instead of bytes (docs/decisions/0027-renders-at-rest.md).
describe.each(TEST_DIALECTS)('idempotent replays of file answers on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace
  let n = 0
  const freshKey = () => `file-replay-${dialect}-${++n}-${Date.now()}`

  beforeAll(async () => {
    t = await startTestKernel({ dialect, builtins: FAKE_RENDER_BUILTINS, roles: ['api', 'worker'] })
    ws = await t.createWorkspace({ plan: 'growth' })
    await t.setPlanLimits('growth', { requests_per_second: 10_000 })
  })
  afterAll(() => t?.close())

  const render = (body: object, key: string) =>
    t.inject({
      method: 'POST',
      url: '/v1/renders',
      key: ws.liveKey,
      payload: body,
      headers: { 'idempotency-key': key },
    })

  /** the stored answer of a key, as the database holds it */
  async function storedRow(key: string) {
    const row = await t.kernel.db.kysely
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('workspace_id', '=', ws.workspace.id)
      .where('key', '=', `live:${key}`)
      .executeTakeFirstOrThrow()
    return { ...row, body: Buffer.from(row.body ?? Buffer.alloc(0)) }
  }

  async function renderCount(): Promise<number> {
    const row = await t.kernel.db.kysely
      .selectFrom('renders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', ws.workspace.id)
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  it('binary: the row keeps no bytes; a replay sends the same file and headers, and renders nothing', async () => {
    const key = freshKey()
    const first = await render({ input: { type: 'html', html: 'bytes:300000' }, delivery: 'binary' }, key)
    expect(first.statusCode).toBe(200)
    expect(first.rawPayload.length).toBe(300_000)
    const row = await storedRow(key)
    expect(row.body.length).toBe(0)
    expect(row.replay).not.toBeNull()
    const count = await renderCount()

    const again = await render({ input: { type: 'html', html: 'bytes:300000' }, delivery: 'binary' }, key)
    expect(again.statusCode).toBe(200)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true)
    for (const name of ['content-type', 'content-disposition', 'x-render-id', 'location', 'x-request-id']) {
      expect(again.headers[name], name).toBe(first.headers[name])
    }
    expect(await renderCount()).toBe(count)
  })

  it('base64: the row keeps the record without the data; a replay carries the same record and data', async () => {
    const key = freshKey()
    const body = { input: { type: 'html', html: 'base64-replay-marker' }, delivery: 'base64' }
    const first = await render(body, key)
    expect(first.statusCode).toBe(200)
    const data = first.json().files[0].data as string
    expect(Buffer.from(data, 'base64').toString()).toBe('PDF base64-replay-marker')
    const row = await storedRow(key)
    expect(row.body.toString()).not.toContain(data)
    expect(JSON.parse(row.body.toString()).id).toBe(first.json().id)

    const again = await render(body, key)
    expect(again.statusCode).toBe(200)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json()).toEqual(first.json())
  })

  it('zero retention, binary: the row keeps no bytes and a replay is 410 file_expired naming the render', async () => {
    const key = freshKey()
    const body = {
      input: { type: 'html', html: 'zero-retention-marker' },
      delivery: 'binary',
      retention_days: 0,
    }
    const first = await render(body, key)
    expect(first.statusCode).toBe(200)
    expect(first.body).toBe('PDF zero-retention-marker')
    const row = await storedRow(key)
    expect(row.body.length).toBe(0)
    expect(JSON.stringify(row)).not.toContain('zero-retention-marker')

    const again = await render(body, key)
    expect(again.statusCode).toBe(410)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(again.json()).toMatchObject({ code: 'file_expired', render_id: first.headers['x-render-id'] })
    expect(again.body).not.toContain('zero-retention-marker')
  })

  it('zero retention, base64: no data in the row, and a replay is 410 file_expired', async () => {
    const key = freshKey()
    const body = { input: { type: 'html', html: 'zero-b64-marker' }, delivery: 'base64', retention_days: 0 }
    const first = await render(body, key)
    expect(first.statusCode).toBe(200)
    const data = first.json().files[0].data as string
    expect((await storedRow(key)).body.toString()).not.toContain(data)
    const again = await render(body, key)
    expect(again.statusCode).toBe(410)
    expect(again.json()).toMatchObject({ code: 'file_expired', render_id: first.json().id })
  })

  it('hosted: false, or files purged since: a replay is 410 file_expired, not bytes', async () => {
    const unhostedKey = freshKey()
    const unhosted = { input: { type: 'html', html: 'unhosted' }, delivery: 'binary', hosted: false }
    expect((await render(unhosted, unhostedKey)).statusCode).toBe(200)
    const again = await render(unhosted, unhostedKey)
    expect(again.statusCode).toBe(410)
    expect(again.json()).toMatchObject({ code: 'file_expired' })

    const purgedKey = freshKey()
    const hosted = { input: { type: 'html', html: 'purged later' }, delivery: 'binary' }
    const first = await render(hosted, purgedKey)
    expect(first.statusCode).toBe(200)
    const id = first.headers['x-render-id'] as string
    const purge = await t.inject({ method: 'DELETE', url: `/v1/renders/${id}/files`, key: ws.liveKey })
    expect(purge.statusCode).toBe(200)
    const replay = await render(hosted, purgedKey)
    expect(replay.statusCode).toBe(410)
    expect(replay.json()).toMatchObject({ code: 'file_expired', render_id: id })
  })

  it('a JSON answer (url delivery) is still replayed byte for byte', async () => {
    const key = freshKey()
    const body = { input: { type: 'html', html: 'linked' }, delivery: 'url' }
    const first = await render(body, key)
    expect(first.statusCode).toBe(200)
    const again = await render(body, key)
    expect(again.statusCode).toBe(200)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.body).toBe(first.body)
    expect(again.headers.location).toBe(first.headers.location)
  })
})
