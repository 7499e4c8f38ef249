import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  recordedEvents,
  startTestKernel,
  TEST_DIALECTS,
  type TestKernel,
  type TestWorkspace,
} from '../testing/index.ts'
import { FAKE_RENDER_BUILTINS } from './fake-render-plugins.fixture.ts'

// SPEC 4.2 `hosted` / `retention_days: 0`, and docs/decisions/0015-zero-retention.md.
describe.each(TEST_DIALECTS)('zero retention and hosted: false on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({ dialect, builtins: FAKE_RENDER_BUILTINS, roles: ['api', 'worker'] })
    ws = await t.createWorkspace({ plan: 'growth' })
    await t.setPlanLimits('growth', { requests_per_second: 10_000 })
  })
  afterAll(() => t.close())

  const render = (body: object, key = ws.liveKey) =>
    t.inject({ method: 'POST', url: '/v1/renders', key, payload: body })
  const get = (url: string, key = ws.liveKey) => t.inject({ method: 'GET', url, key })

  /** true while the stored object of the render's first file exists */
  async function stored(renderId: string): Promise<boolean> {
    const { renderRepository, fileStore } = t.kernel.container.cradle
    const [file] = await renderRepository.files(renderId)
    const object = await fileStore.get(file!.storage_key)
    object?.stream.destroy()
    return object !== undefined
  }

  async function succeededEvent(renderId: string) {
    const events = await recordedEvents(t.kernel)
    return events.find(
      (e) => e.type === 'render.succeeded' && (e.data as { object: { id: string } }).object.id === renderId,
    )
  }

  it('zero retention with binary delivery: the body is the file, then nothing is kept or served', async () => {
    const res = await render({
      input: { type: 'html', html: 'secret' },
      retention_days: 0,
      delivery: 'binary',
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('PDF secret')
    const id = res.headers['x-render-id'] as string
    expect(await stored(id)).toBe(false)
    const record = (await get(`/v1/renders/${id}`)).json()
    expect(record).toMatchObject({ status: 'succeeded', files_expire_at: null })
    expect(record.files).toHaveLength(1)
    expect(record.files[0]).toMatchObject({ format: 'pdf', pages: 1 })
    expect(record.files[0].url).toBeUndefined()
    for (const query of ['', '?inline=true']) {
      const file = await get(`/v1/renders/${id}/files/${record.files[0].id}${query}`)
      expect(file.statusCode).toBe(404)
      expect(file.json()).toMatchObject({ code: 'not_found', status: 404 })
    }
  })

  it('zero retention output too large for binary: 413 output_too_large, and the copy is dropped', async () => {
    const res = await render({
      input: { type: 'html', html: 'bytes:21000001' },
      retention_days: 0,
      delivery: 'binary',
    })
    expect(res.statusCode).toBe(413)
    expect(res.json()).toMatchObject({ code: 'output_too_large', status: 413 })
    expect(await stored(res.json().render_id)).toBe(false)
  })

  it('zero retention with base64 delivery: the bytes come in the record, the copy is gone after', async () => {
    const res = await render({ input: { type: 'html', html: 'b64' }, retention_days: 0, delivery: 'base64' })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(Buffer.from(body.files[0].data, 'base64').toString()).toBe('PDF b64')
    expect(body.files[0].url).toBeUndefined()
    expect(await stored(body.id)).toBe(false)
    const file = await get(`/v1/renders/${body.id}/files/${body.files[0].id}`)
    expect(file.statusCode).toBe(404)
  })

  it('zero retention without a delivery means none: the file is made, listed, never kept', async () => {
    const res = await render({ input: { type: 'html', html: 'none' }, retention_days: 0 })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.status).toBe('succeeded')
    expect(body.files[0]).toMatchObject({ format: 'pdf' })
    expect(body.files[0].url).toBeUndefined()
    expect(await stored(body.id)).toBe(false)
    // the webhook event lists the file but links no copy that is about to go
    const event = await succeededEvent(body.id)
    expect(event).toBeDefined()
    const files = (event!.data as { object: { files: Record<string, unknown>[] } }).object.files
    expect(files).toHaveLength(1)
    expect(files[0]).toMatchObject({ id: body.files[0].id, format: 'pdf' })
    expect(files[0]!.url).toBeUndefined()
  })

  it('zero retention refuses url delivery and hosted: true (400 validation_error)', async () => {
    const url = await render({ input: { type: 'html', html: 'x' }, retention_days: 0, delivery: 'url' })
    expect(url.statusCode).toBe(400)
    expect(url.json()).toMatchObject({ code: 'validation_error', status: 400 })
    expect(url.json().errors).toContainEqual(expect.objectContaining({ path: '/delivery', code: 'conflict' }))
    const hosted = await render({
      input: { type: 'html', html: 'x' },
      retention_days: 0,
      hosted: true,
      delivery: 'binary',
    })
    expect(hosted.statusCode).toBe(400)
    expect(hosted.json().errors).toContainEqual(
      expect.objectContaining({ path: '/hosted', code: 'conflict' }),
    )
  })

  it('zero retention with email delivery answers 422 email_needs_hosted_file, creating nothing', async () => {
    const before = (await get('/v1/renders?limit=100')).json().data.length
    const res = await t.inject({
      method: 'POST',
      url: '/v1/pdf/from-html',
      key: ws.liveKey,
      payload: { html: 'x', retention_days: 0, delivery: { type: 'none', email: [{ rule_id: 'emr_1' }] } },
    })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({ code: 'email_needs_hosted_file', status: 422 })
    expect((await get('/v1/renders?limit=100')).json().data.length).toBe(before)
  })

  it('keeps retention_days within the plan (400 above it) and test files at most a day', async () => {
    const over = await render({ input: { type: 'html', html: 'x' }, retention_days: 31 })
    expect(over.statusCode).toBe(400)
    expect(over.json().errors).toContainEqual(expect.objectContaining({ path: '/retention_days' }))
    const day = Date.now() + 24 * 3600 * 1000
    const test = (await render({ input: { type: 'html', html: 'x' }, retention_days: 30 }, ws.testKey)).json()
    expect(Date.parse(test.files_expire_at)).toBeLessThanOrEqual(day + 5000)
    const live = (await render({ input: { type: 'html', html: 'x' }, retention_days: 2 })).json()
    expect(Date.parse(live.files_expire_at)).toBeGreaterThan(day + 3600 * 1000)
  })

  it('zero retention works with test keys, and purging it keeps the status (SPEC 3)', async () => {
    const res = await render(
      { input: { type: 'html', html: 't' }, retention_days: 0, mode: 'async' },
      ws.testKey,
    )
    expect(res.statusCode).toBe(202)
    const id = res.json().id
    let record = res.json()
    for (let i = 0; i < 50 && record.status !== 'succeeded'; i++) {
      await new Promise((r) => setTimeout(r, 40))
      record = (await get(`/v1/renders/${id}`, ws.testKey)).json()
    }
    expect(record.status).toBe('succeeded')
    expect(await stored(id)).toBe(false)
    const purged = await t.inject({ method: 'DELETE', url: `/v1/renders/${id}/files`, key: ws.testKey })
    expect(purged.statusCode).toBe(200)
    expect(purged.json().status).toBe('succeeded')
  })

  it('hosted: false returns the file, then deletes the hosted copy: 410 file_expired after', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/pdf/from-html',
      key: ws.liveKey,
      payload: { html: 'unhosted', hosted: false, delivery: 'binary' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('PDF unhosted')
    const id = res.headers['x-render-id'] as string
    expect(await stored(id)).toBe(false)
    const record = (await get(`/v1/renders/${id}`)).json()
    expect(record.status).toBe('succeeded')
    expect(record.files[0].url).toBeUndefined()
    const file = await get(`/v1/renders/${id}/files/${record.files[0].id}`)
    expect(file.statusCode).toBe(410)
    expect(file.json()).toMatchObject({ code: 'file_expired', status: 410 })
  })

  it('hosted: false is purged like any render: DELETE .../files answers 200 expired', async () => {
    const res = await render({ input: { type: 'html', html: 'purge me' }, hosted: false, delivery: 'binary' })
    const id = res.headers['x-render-id'] as string
    const purged = await t.inject({ method: 'DELETE', url: `/v1/renders/${id}/files`, key: ws.liveKey })
    expect(purged.statusCode).toBe(200)
    expect(purged.json().status).toBe('expired')
  })

  it('hosted: false async keeps nothing once finished; url delivery with it is refused', async () => {
    const res = await render({ input: { type: 'html', html: 'later' }, hosted: false, mode: 'async' })
    expect(res.statusCode).toBe(202)
    const id = res.json().id
    let record = res.json()
    const fileStatus = async () => (await get(`/v1/renders/${id}/files/${record.files[0].id}`)).statusCode
    // the runner lets the copy go just after it records the success (the stored bytes first,
    // then the file's row): wait, bounded, for what a client sees at the end, the 410
    for (let i = 0; i < 100 && (record.status !== 'succeeded' || (await fileStatus()) !== 410); i++) {
      await new Promise((r) => setTimeout(r, 40))
      record = (await get(`/v1/renders/${id}`)).json()
    }
    expect(record.status).toBe('succeeded')
    expect(await stored(id)).toBe(false)
    expect(await fileStatus()).toBe(410)
    const url = await render({ input: { type: 'html', html: 'x' }, hosted: false, delivery: 'url' })
    expect(url.statusCode).toBe(400)
    expect(url.json().errors).toContainEqual(expect.objectContaining({ path: '/delivery' }))
  })

  it('hosted absent or null keeps the copy for the retention period', async () => {
    const res = await render({ input: { type: 'html', html: 'kept' }, hosted: null })
    expect(res.statusCode).toBe(200)
    expect(res.json().files[0].url).toMatch(/\/files\//)
    expect(await stored(res.json().id)).toBe(true)
  })

  it('the sweeper drops a transient copy the sync response never collected, status unchanged', async () => {
    const { planRepository, renderSweeper } = t.kernel.container.cradle
    const plan = (await planRepository.get('growth'))!
    await planRepository.update({ ...plan, limits: { ...plan.limits, sync_timeout_seconds: 1 } })
    let id: string
    try {
      const res = await render({
        input: { type: 'html', html: 'sleep:1500' },
        retention_days: 0,
        delivery: 'binary',
      })
      expect(res.statusCode).toBe(202)
      id = res.json().id
    } finally {
      await planRepository.update(plan)
    }
    let record = (await get(`/v1/renders/${id}`)).json()
    for (let i = 0; i < 60 && record.status !== 'succeeded'; i++) {
      await new Promise((r) => setTimeout(r, 50))
      record = (await get(`/v1/renders/${id}`)).json()
    }
    expect(await stored(id)).toBe(true)
    await renderSweeper.sweep(new Date(Date.now() + 10 * 60 * 1000))
    expect(await stored(id)).toBe(false)
    expect((await get(`/v1/renders/${id}`)).json()).toMatchObject({
      status: 'succeeded',
      files_expire_at: null,
    })
  })
})
