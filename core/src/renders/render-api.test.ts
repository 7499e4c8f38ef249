import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'
import { FAKE_RENDER_BUILTINS } from './fake-render-plugins.fixture.ts'

describe.each(TEST_DIALECTS)('render API on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({ dialect, builtins: FAKE_RENDER_BUILTINS, roles: ['api', 'worker'] })
    ws = await t.createWorkspace({ plan: 'growth' })
    // these tests fire requests back to back; the rate limit has its own suite
    const { planRepository } = t.kernel.container.cradle
    for (const id of ['growth', 'scale']) {
      const plan = (await planRepository.get(id))!
      await planRepository.update({ ...plan, limits: { ...plan.limits, requests_per_second: 10_000 } })
    }
  })
  afterAll(() => t.close())

  const render = (body: object, key = ws.liveKey, headers: Record<string, string> = {}) =>
    t.inject({ method: 'POST', url: '/v1/renders', key, payload: body, headers })

  async function fetchFile(url: string) {
    const { pathname } = new URL(url)
    return t.inject({ method: 'GET', url: pathname })
  }

  it('renders synchronously: 200 with the succeeded render and a signed file URL', async () => {
    const res = await render({
      input: { type: 'html', html: '<h1>Hello</h1>' },
      reference: 'inv-1',
      metadata: { order: '42' },
    })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body).toMatchObject({
      object: 'render',
      status: 'succeeded',
      test: false,
      input_type: 'html',
      output_format: 'pdf',
      reference: 'inv-1',
    })
    expect(body.id).toMatch(/^rnd_/)
    expect(body.files).toHaveLength(1)
    expect(body.files[0]).toMatchObject({ format: 'pdf', content_type: 'application/pdf', pages: 1 })
    expect(body.files[0].id).toMatch(/^file_/)
    const file = await fetchFile(body.files[0].url)
    expect(file.statusCode).toBe(200)
    expect(file.headers['content-type']).toBe('application/pdf')
    expect(file.body).toBe('PDF <h1>Hello</h1>')
  })

  it('accepts async renders with 202 and a Location to poll', async () => {
    const res = await render({ mode: 'async', input: { type: 'html', html: 'sleep:100 async' } })
    expect(res.statusCode).toBe(202)
    expect(res.headers.location).toBe(`/v1/renders/${res.json().id}`)
    expect(res.json().status).toBe('queued')
    let status = 'queued'
    for (let i = 0; i < 50 && status !== 'succeeded'; i++) {
      await new Promise((r) => setTimeout(r, 50))
      status = (
        await t.inject({ method: 'GET', url: res.headers.location as string, key: ws.liveKey })
      ).json().status
    }
    expect(status).toBe('succeeded')
  })

  it('delivers the file itself with delivery binary, and base64 inside the record', async () => {
    const binary = await render({ input: { type: 'html', html: 'bin' }, delivery: 'binary' })
    expect(binary.statusCode).toBe(200)
    expect(binary.headers['content-type']).toBe('application/pdf')
    expect(binary.headers['x-render-id']).toMatch(/^rnd_/)
    expect(binary.body).toBe('PDF bin')
    const b64 = await render({ input: { type: 'html', html: 'b64' }, delivery: { type: 'base64' } })
    expect(Buffer.from(b64.json().files[0].data, 'base64').toString()).toBe('PDF b64')
  })

  it('answers 413 output_too_large for binary over 20 MB and base64 over 10 MB', async () => {
    const big = await render({ input: { type: 'html', html: 'bytes:21000001' }, delivery: 'binary' })
    expect(big.statusCode).toBe(413)
    expect(big.json()).toMatchObject({ code: 'output_too_large' })
    expect(big.json().render_id).toMatch(/^rnd_/)
    const b64 = await render({ input: { type: 'html', html: 'bytes:10000001' }, delivery: 'base64' })
    expect(b64.statusCode).toBe(413)
  })

  it('watermarks test renders, never bills them, and bills a live render once', async () => {
    const before = (await t.inject({ method: 'GET', url: '/v1/account', key: ws.liveKey })).json().usage
      .renders
    const test = await render({ input: { type: 'html', html: 'x' }, delivery: 'binary' }, ws.testKey)
    expect(test.body).toBe('PDF TEST x')
    const live = await render({ input: { type: 'html', html: 'y' } })
    expect(live.json().test).toBe(false)
    const after = (await t.inject({ method: 'GET', url: '/v1/account', key: ws.liveKey })).json().usage
      .renders
    expect(after).toBe(before + 1)
  })

  it('limits test renders per minute by plan (429 rate_limited with Retry-After)', async () => {
    const { planRepository } = t.kernel.container.cradle
    const plan = (await planRepository.get('starter'))!
    await planRepository.update({
      ...plan,
      limits: { ...plan.limits, requests_per_second: 10_000, test_renders_per_minute: 2 },
    })
    const small = await t.createWorkspace({ plan: 'starter' })
    try {
      const codes = []
      for (let i = 0; i < 3; i++) {
        const res = await render({ mode: 'async', input: { type: 'html', html: 'x' } }, small.testKey)
        codes.push(res.statusCode)
        if (res.statusCode === 429) {
          expect(res.json().code).toBe('rate_limited')
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
        }
      }
      expect(codes).toEqual([202, 202, 429])
      // live renders of the same workspace are not test renders
      expect(
        (await render({ mode: 'async', input: { type: 'html', html: 'x' } }, small.liveKey)).statusCode,
      ).toBe(202)
    } finally {
      await planRepository.update(plan)
    }
  })

  it('refuses renders for a workspace not enabled in this region (403 region_not_enabled)', async () => {
    const elsewhere = await t.createWorkspace()
    await t.kernel.container.cradle.workspaceRepository.update(elsewhere.workspace.id, { regions: ['us'] })
    const res = await render({ input: { type: 'html', html: 'x' } }, elsewhere.liveKey)
    expect(res.statusCode).toBe(403)
    expect(res.json().code).toBe('region_not_enabled')
  })

  it('stops live renders when a plan without overage used its renders (402), test keys keep working', async () => {
    const { planRepository } = t.kernel.container.cradle
    const plan = (await planRepository.get('free'))!
    await planRepository.update({
      ...plan,
      limits: { ...plan.limits, requests_per_second: 10_000, included_renders: 1 },
    })
    const free = await t.createWorkspace({ plan: 'free' })
    try {
      expect((await render({ input: { type: 'html', html: 'one' } }, free.liveKey)).statusCode).toBe(200)
      const refused = await render({ input: { type: 'html', html: 'two' } }, free.liveKey)
      expect(refused.statusCode).toBe(402)
      expect(refused.json().code).toBe('render_limit_reached')
      expect((await render({ input: { type: 'html', html: 'test' } }, free.testKey)).statusCode).toBe(200)
    } finally {
      await planRepository.update(plan)
    }
  })

  it('needs a verified email address for live renders (403 email_not_verified), not for test ones', async () => {
    const unverified = await t.createWorkspace({ verifiedOwner: false })
    const live = await render({ input: { type: 'html', html: 'x' } }, unverified.liveKey)
    expect(live.statusCode).toBe(403)
    expect(live.json().code).toBe('email_not_verified')
    expect((await render({ input: { type: 'html', html: 'x' } }, unverified.testKey)).statusCode).toBe(200)
  })

  it('refuses test: true with a live key (403 test_key_required)', async () => {
    const res = await render({ test: true, input: { type: 'html', html: 'x' } })
    expect(res.statusCode).toBe(403)
    expect(res.json().code).toBe('test_key_required')
  })

  it('validates the input and options against their plugin schemas', async () => {
    const unknown = await render({ input: { type: 'docx', html: 'x' } })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().errors).toContainEqual(expect.objectContaining({ path: '/input/type' }))
    const missing = await render({ input: { type: 'html' } })
    expect(missing.json().errors).toContainEqual(
      expect.objectContaining({ path: '/input/html', code: 'required' }),
    )
    const option = await render({
      input: { type: 'html', html: 'x' },
      output: { format: 'pdf', pdf: { scale: 9 } },
    })
    expect(option.json().errors).toContainEqual(expect.objectContaining({ path: '/output/pdf/scale' }))
    const format = await render({ input: { type: 'html', html: 'x' }, output: { format: 'gif' } })
    expect(format.statusCode).toBe(400)
    const conflict = await render({ mode: 'async', delivery: 'binary', input: { type: 'html', html: 'x' } })
    expect(conflict.json().errors).toContainEqual(expect.objectContaining({ path: '/delivery' }))
  })

  it('answers a failed sync render with 422, its code and render_id, unbilled', async () => {
    const res = await render({ input: { type: 'html', html: 'fail:navigation_failed' } })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({ code: 'navigation_failed', status: 422 })
    const id = res.json().render_id
    const stored = await t.inject({ method: 'GET', url: `/v1/renders/${id}`, key: ws.liveKey })
    expect(stored.json()).toMatchObject({ status: 'failed', error: { code: 'navigation_failed' } })
    const crash = await render({ input: { type: 'html', html: 'crash:1' } })
    expect(crash.json().code).toBe('render_failed')
    // an engine's own words stay in our log (issue 13 item 10): the record and the event say less
    const crashed = await t.inject({
      method: 'GET',
      url: `/v1/renders/${crash.json().render_id}`,
      key: ws.liveKey,
    })
    expect(crashed.json().error).toEqual({
      code: 'render_failed',
      message: 'The service failed while working on it; the failure is logged.',
    })
    expect(crash.body).not.toContain('engine crashed')
  })

  it('fails renders over the plan page limit with page_limit_exceeded', async () => {
    const res = await render({ input: { type: 'html', html: 'pages:501' } })
    expect(res.statusCode).toBe(422)
    expect(res.json().code).toBe('page_limit_exceeded')
  })

  it('keeps warnings on the render', async () => {
    const res = await render({ input: { type: 'html', html: 'warn:1' } })
    expect(res.json().warnings).toEqual([{ code: 'asset_failed', message: 'an image could not be loaded' }])
  })

  it('applies the sync timeout: 408 render_timeout with cancel, 202 with continue', async () => {
    const { planRepository } = t.kernel.container.cradle
    const plan = (await planRepository.get('growth'))!
    await planRepository.update({ ...plan, limits: { ...plan.limits, sync_timeout_seconds: 1 } })
    try {
      const cancel = await render({ timeout_behavior: 'cancel', input: { type: 'html', html: 'sleep:2500' } })
      expect(cancel.statusCode).toBe(408)
      expect(cancel.json().code).toBe('render_timeout')
      const canceled = await t.inject({
        method: 'GET',
        url: `/v1/renders/${cancel.json().render_id}`,
        key: ws.liveKey,
      })
      expect(canceled.json().status).toBe('canceled')
      const cont = await render({ timeout_behavior: 'continue', input: { type: 'html', html: 'sleep:2500' } })
      expect(cont.statusCode).toBe(202)
      expect(cont.headers.location).toMatch(/^\/v1\/renders\/rnd_/)
    } finally {
      await planRepository.update(plan)
    }
  })

  it('cancels a queued render and refuses to cancel a finished one', async () => {
    const done = await render({ input: { type: 'html', html: 'done' } })
    const again = await t.inject({
      method: 'POST',
      url: `/v1/renders/${done.json().id}/cancel`,
      key: ws.liveKey,
    })
    expect(again.statusCode).toBe(409)
    expect(again.json().code).toBe('conflict')
    const missing = await t.inject({ method: 'POST', url: '/v1/renders/rnd_nope/cancel', key: ws.liveKey })
    expect(missing.statusCode).toBe(404)
    expect(missing.json().code).toBe('render_not_found')
  })

  it('serves files: 302 to a signed URL, inline bytes, and 410 after purge', async () => {
    const done = (await render({ input: { type: 'html', html: 'files' }, filename: 'invoice.pdf' })).json()
    const fileUrl = `/v1/renders/${done.id}/files/${done.files[0].id}`
    const redirect = await t.inject({ method: 'GET', url: `${fileUrl}?download=true`, key: ws.liveKey })
    expect(redirect.statusCode).toBe(302)
    const downloaded = await fetchFile(redirect.headers.location as string)
    expect(downloaded.headers['content-disposition']).toMatch(/^attachment; filename="invoice.pdf"/)
    const inline = await t.inject({ method: 'GET', url: `${fileUrl}?inline=true`, key: ws.liveKey })
    expect(inline.statusCode).toBe(200)
    expect(inline.body).toBe('PDF files')
    const purged = await t.inject({ method: 'DELETE', url: `/v1/renders/${done.id}/files`, key: ws.liveKey })
    expect(purged.statusCode).toBe(200)
    expect(purged.json().status).toBe('expired')
    const gone = await t.inject({ method: 'GET', url: fileUrl, key: ws.liveKey })
    expect(gone.statusCode).toBe(410)
    expect(gone.json().code).toBe('file_expired')
    expect((await fetchFile(done.files[0].url)).statusCode).toBe(410)
  })

  it('lists renders newest first with filters and a cursor; test keys see only test renders', async () => {
    const other = await t.createWorkspace()
    for (const ref of ['a', 'b', 'c']) {
      await t.inject({
        method: 'POST',
        url: '/v1/renders',
        key: other.liveKey,
        payload: { reference: ref, input: { type: 'html', html: ref } },
      })
    }
    await t.inject({
      method: 'POST',
      url: '/v1/renders',
      key: other.testKey,
      payload: { input: { type: 'html', html: 't' } },
    })
    const first = (await t.inject({ method: 'GET', url: '/v1/renders?limit=2', key: other.liveKey })).json()
    expect(first.data.map((r: { reference: string }) => r.reference)).toEqual(['c', 'b'])
    expect(first.has_more).toBe(true)
    const second = (
      await t.inject({
        method: 'GET',
        url: `/v1/renders?limit=2&cursor=${first.next_cursor}`,
        key: other.liveKey,
      })
    ).json()
    expect(second.data.map((r: { reference: string }) => r.reference)).toEqual(['a'])
    expect(second.has_more).toBe(false)
    const filtered = (
      await t.inject({
        method: 'GET',
        url: '/v1/renders?reference=b&status=succeeded,failed',
        key: other.liveKey,
      })
    ).json()
    expect(filtered.data).toHaveLength(1)
    const tests = (await t.inject({ method: 'GET', url: '/v1/renders', key: other.testKey })).json()
    expect(tests.data).toHaveLength(1)
    expect(tests.data[0].test).toBe(true)
    const bad = await t.inject({ method: 'GET', url: '/v1/renders?status=done', key: other.liveKey })
    expect(bad.statusCode).toBe(400)
    const hidden = await t.inject({
      method: 'GET',
      url: `/v1/renders/${first.data[0].id}`,
      key: other.testKey,
    })
    expect(hidden.statusCode).toBe(404)
  })

  it('replays a render request with the same Idempotency-Key', async () => {
    const headers = { 'idempotency-key': `render-${dialect}` }
    const first = await render({ input: { type: 'html', html: 'idem' } }, ws.liveKey, headers)
    const second = await render({ input: { type: 'html', html: 'idem' } }, ws.liveKey, headers)
    expect(second.headers['idempotent-replayed']).toBe('true')
    expect(second.json().id).toBe(first.json().id)
  })

  it('keeps a log of each render', async () => {
    const done = (await render({ input: { type: 'html', html: 'log' } })).json()
    const logs = await t.inject({ method: 'GET', url: `/v1/renders/${done.id}/logs`, key: ws.liveKey })
    expect(logs.statusCode).toBe(200)
    const lines = logs.json().lines as { at: string; message: string }[]
    expect(lines.map((l) => l.message)).toContain('input html')
    expect(lines.at(-1)?.message).toBe('stored 1 file')
    // each line keeps the time it was written, in order, within the render's run
    const times = lines.map((l) => Date.parse(l.at))
    expect(times).toEqual([...times].sort((a, b) => a - b))
    expect(times[0]).toBeGreaterThanOrEqual(Date.parse(done.started_at))
    expect(times.at(-1)).toBeLessThanOrEqual(Date.parse(done.finished_at))
  })

  it('offers the convenience endpoints', async () => {
    const pdf = await t.inject({
      method: 'POST',
      url: '/v1/pdf/from-html',
      key: ws.liveKey,
      payload: { html: 'conv', delivery: 'binary' },
    })
    expect(pdf.statusCode).toBe(200)
    expect(pdf.body).toBe('PDF conv')
    const png = await t.inject({
      method: 'POST',
      url: '/v1/images/from-html',
      key: ws.liveKey,
      payload: { html: 'img', format: 'png' },
    })
    expect(png.json()).toMatchObject({ status: 'succeeded', output_format: 'png' })
    const tpl = await t.inject({
      method: 'POST',
      url: '/v1/pdf/from-template',
      key: ws.liveKey,
      payload: { template_id: 'tpl_x' },
    })
    expect(tpl.statusCode).toBe(404)
    expect(tpl.json().code).toBe('template_not_found')
    const missing = await t.inject({ method: 'POST', url: '/v1/pdf/from-html', key: ws.liveKey, payload: {} })
    expect(missing.json().errors).toContainEqual(expect.objectContaining({ path: '/html' }))
  })
})
