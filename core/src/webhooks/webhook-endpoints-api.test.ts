import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'

// a public address literal: accepted without DNS, never contacted (these suites run no worker)
const PUBLIC = 'https://93.184.215.14/hooks'

/** SPEC 7.1: problem+json with status, code, title, type and the request id. */
function problemOf(
  res: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  status: number,
  code: string,
) {
  const body = res.json() as Record<string, unknown>
  expect({ status: res.statusCode, code: body.code }).toEqual({ status, code })
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  expect(body).toMatchObject({ status, type: expect.stringMatching(new RegExp(`/errors/${code}$`)) })
  expect(body.request_id).toBe(res.headers['x-request-id'])
  return body as { errors?: { path: string; code: string; message: string }[]; detail?: string }
}

describe.each(TEST_DIALECTS)('webhook endpoints API (SPEC 4.11) on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace
  let other: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({
      dialect,
      env: {
        DOCSVC_NETWORK_ALLOW: '10.1.0.0/16',
        DOCSVC_OPERATOR_TOKEN: 'operator-token-0123456789abcdef0123456789',
      },
    })
    ws = await t.createWorkspace()
    other = await t.createWorkspace({ name: 'Other' })
    await t.setPlanLimits('scale', { requests_per_second: 10_000 })
  })
  afterAll(() => t?.close())

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    key = ws.liveKey,
  ) => t.inject({ method, url, key, ...(payload ? { payload } : {}) })
  const create = (body: object, key = ws.liveKey) => call('POST', '/v1/webhook-endpoints', body, key)

  it('creates an endpoint (201) and shows its whsec_ secret once, never on reads', async () => {
    const res = await create({
      url: PUBLIC,
      events: ['render.succeeded', 'render.failed'],
      description: 'ERP',
      headers: { 'X-Tenant': 'acme' },
    })
    expect(res.statusCode).toBe(201)
    const created = res.json()
    expect(created).toMatchObject({
      object: 'webhook_endpoint',
      url: PUBLIC,
      events: ['render.succeeded', 'render.failed'],
      description: 'ERP',
      enabled: true,
      is_default: false,
      template_ids: null,
      headers: { 'X-Tenant': 'acme' },
      test: false,
    })
    expect(created.id).toMatch(/^whe_[0-9a-z]{26}$/)
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(24)

    const one = await call('GET', `/v1/webhook-endpoints/${created.id}`)
    expect(one.statusCode).toBe(200)
    expect(one.json()).toEqual({ ...created, secret: undefined, updated_at: created.updated_at })
    expect(one.body).not.toContain(created.secret.slice(6))
    const list = await call('GET', '/v1/webhook-endpoints')
    expect(list.statusCode).toBe(200)
    expect(list.json()).toMatchObject({ object: 'list', has_more: false })
    expect(list.json().data.map((e: { id: string }) => e.id)).toContain(created.id)
    expect(list.body).not.toContain('whsec_')
    // the secret is not stored in clear either
    const row = await t.kernel.db.kysely
      .selectFrom('webhook_endpoints')
      .select('secret')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow()
    expect(row.secret).not.toContain(created.secret.slice(6))
  })

  it('answers 400 validation_error for missing, mistyped and unknown fields', async () => {
    const cases: [object, string][] = [
      [{ events: ['render.succeeded'] }, '/url'],
      [{ url: PUBLIC }, '/events'],
      [{ url: PUBLIC, events: [] }, '/events'],
      [{ url: PUBLIC, events: ['render.started'] }, '/events/0'],
      [{ url: PUBLIC, events: ['render.failed'], secret: 'whsec_x' }, '/secret'],
      [{ url: PUBLIC, events: ['render.failed'], template_ids: ['nope'] }, '/template_ids/0'],
      [
        {
          url: PUBLIC,
          events: ['render.failed'],
          headers: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`X-H${i}`, 'v'])),
        },
        '/headers',
      ],
      [
        { url: PUBLIC, events: ['render.failed'], headers: { 'Webhook-Signature': 'forged' } },
        '/headers/Webhook-Signature',
      ],
      [{ url: PUBLIC, events: ['render.failed'], headers: { 'User-Agent': 'x' } }, '/headers/User-Agent'],
      [{ url: 'not a url', events: ['render.failed'] }, '/url'],
    ]
    for (const [body, path] of cases) {
      const res = await create(body)
      const problem = problemOf(res, 400, 'validation_error')
      expect(
        problem.errors?.map((e) => e.path),
        JSON.stringify(body),
      ).toContain(path)
    }
  })

  it('refuses http for live endpoints, credentials, and private or local targets unless allowed', async () => {
    const refused = [
      'http://93.184.215.14/hooks',
      'https://user:pw@93.184.215.14/hooks',
      'https://127.0.0.1/hooks',
      'https://10.0.0.1/hooks',
      'https://[::1]/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://localhost/hooks',
      'https://192.168.1.20:8443/hooks',
    ]
    for (const url of refused) {
      const res = await create({ url, events: ['render.failed'] })
      const problem = problemOf(res, 400, 'validation_error')
      expect(problem.errors?.[0], url).toMatchObject({ path: '/url', code: 'url_not_allowed' })
    }
    // 10.1.0.0/16 is inside DOCSVC_NETWORK_ALLOW: the operator's own network
    const allowed = await create({ url: 'https://10.1.0.5/hooks', events: ['render.failed'] })
    expect(allowed.statusCode).toBe(201)
    // test-mode endpoints may use http
    const testMode = await create(
      { url: 'http://93.184.215.14/hooks', events: ['render.failed'] },
      ws.testKey,
    )
    expect(testMode.statusCode).toBe(201)
    expect(testMode.json().test).toBe(true)
  })

  it('keeps test-mode and live endpoints apart, and other workspaces out (404)', async () => {
    const live = (await create({ url: PUBLIC, events: ['batch.completed'] })).json()
    const testKeyRead = await call('GET', `/v1/webhook-endpoints/${live.id}`, undefined, ws.testKey)
    expectProblem404(testKeyRead)
    expectProblem404(await call('GET', `/v1/webhook-endpoints/${live.id}`, undefined, other.liveKey))
    expectProblem404(
      await call('PATCH', `/v1/webhook-endpoints/${live.id}`, { enabled: false }, other.liveKey),
    )
    expectProblem404(await call('DELETE', `/v1/webhook-endpoints/${live.id}`, undefined, other.liveKey))
    expectProblem404(await call('GET', '/v1/webhook-endpoints/whe_doesnotexist0000000000000'))
    const testList = (await call('GET', '/v1/webhook-endpoints', undefined, ws.testKey)).json()
    expect(testList.data.every((e: { test: boolean }) => e.test)).toBe(true)
  })

  it('updates partially (200), keeps one default endpoint per mode, and refuses a secret (400)', async () => {
    const a = (await create({ url: PUBLIC, events: ['render.failed'], is_default: true })).json()
    const b = (await create({ url: PUBLIC, events: ['render.failed'] })).json()
    const patched = await call('PATCH', `/v1/webhook-endpoints/${b.id}`, {
      is_default: true,
      events: ['render.succeeded'],
      template_ids: ['tpl_0123456789abcdefghjkmnpqrs'],
      description: null,
    })
    expect(patched.statusCode).toBe(200)
    expect(patched.json()).toMatchObject({
      id: b.id,
      url: PUBLIC,
      is_default: true,
      events: ['render.succeeded'],
      template_ids: ['tpl_0123456789abcdefghjkmnpqrs'],
      description: null,
    })
    expect((await call('GET', `/v1/webhook-endpoints/${a.id}`)).json().is_default).toBe(false)
    problemOf(
      await call('PATCH', `/v1/webhook-endpoints/${b.id}`, { secret: 'whsec_AAAA' }),
      400,
      'validation_error',
    )
    const badUrl = problemOf(
      await call('PATCH', `/v1/webhook-endpoints/${b.id}`, { url: 'https://169.254.169.254/' }),
      400,
      'validation_error',
    )
    expect(badUrl.errors?.[0]).toMatchObject({ path: '/url', code: 'url_not_allowed' })
    expectProblem404(
      await call('PATCH', '/v1/webhook-endpoints/whe_doesnotexist0000000000000', { enabled: false }),
    )
  })

  it('deletes (204), then answers 404', async () => {
    const e = (await create({ url: PUBLIC, events: ['render.failed'] })).json()
    const res = await call('DELETE', `/v1/webhook-endpoints/${e.id}`)
    expect(res.statusCode).toBe(204)
    expect(res.body).toBe('')
    expectProblem404(await call('GET', `/v1/webhook-endpoints/${e.id}`))
    expectProblem404(await call('DELETE', `/v1/webhook-endpoints/${e.id}`))
  })

  it('rolls the secret (200, new secret once), with a bounded expire_previous_in (400), 404', async () => {
    const e = (await create({ url: PUBLIC, events: ['render.failed'] })).json()
    const res = await call('POST', `/v1/webhook-endpoints/${e.id}/roll-secret`, { expire_previous_in: 3600 })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ id: e.id, object: 'webhook_endpoint' })
    expect(res.json().secret).toMatch(/^whsec_/)
    expect(res.json().secret).not.toBe(e.secret)
    const row = await t.kernel.db.kysely
      .selectFrom('webhook_endpoints')
      .select(['previous_secret', 'previous_secret_expires_at'])
      .where('id', '=', e.id)
      .executeTakeFirstOrThrow()
    expect(row.previous_secret).not.toBeNull()
    const expires = new Date(row.previous_secret_expires_at!).getTime()
    expect(Math.abs(expires - (Date.now() + 3600_000))).toBeLessThan(60_000)
    const now = await call('POST', `/v1/webhook-endpoints/${e.id}/roll-secret`, { expire_previous_in: 0 })
    expect(now.statusCode).toBe(200)
    const after = await t.kernel.db.kysely
      .selectFrom('webhook_endpoints')
      .select(['previous_secret'])
      .where('id', '=', e.id)
      .executeTakeFirstOrThrow()
    expect(after.previous_secret).toBeNull()
    problemOf(
      await call('POST', `/v1/webhook-endpoints/${e.id}/roll-secret`, { expire_previous_in: -1 }),
      400,
      'validation_error',
    )
    problemOf(
      await call('POST', `/v1/webhook-endpoints/${e.id}/roll-secret`, { expire_previous_in: 'soon' }),
      400,
      'validation_error',
    )
    expectProblem404(
      await call('POST', '/v1/webhook-endpoints/whe_doesnotexist0000000000000/roll-secret', {}),
    )
  })

  it('queues a test event (202) with sample data of the real shape and test: true; 400; 404', async () => {
    const e = (await create({ url: PUBLIC, events: ['render.failed'] })).json()
    const res = await call('POST', `/v1/webhook-endpoints/${e.id}/test`, { event: 'render.succeeded' })
    expect(res.statusCode).toBe(202)
    expect(res.json()).toMatchObject({
      object: 'webhook_delivery',
      endpoint_id: e.id,
      event_type: 'render.succeeded',
      status: 'pending',
      attempt: 0,
    })
    expect(res.json().id).toMatch(/^whd_/)
    const detail = (await call('GET', `/v1/webhook-deliveries/${res.json().id}`)).json()
    const body = detail.request.body
    expect(body).toMatchObject({
      type: 'render.succeeded',
      workspace_id: ws.workspace.id,
      region: 'eu',
      test: true,
    })
    expect(body.id).toMatch(/^evt_/)
    expect(body.data.object).toMatchObject({ object: 'render', status: 'succeeded', output_format: 'pdf' })
    expect(body.data.object.id).toMatch(/^rnd_/)
    expect(body.data.object.files[0].id).toMatch(/^file_/)
    expect(body.data.object.files[0]).not.toHaveProperty('url')

    const bounced = await call('POST', `/v1/webhook-endpoints/${e.id}/test`, { event: 'email.bounced' })
    expect(bounced.statusCode).toBe(202)
    const bouncedBody = (await call('GET', `/v1/webhook-deliveries/${bounced.json().id}`)).json().request.body
    expect(bouncedBody.data.event).toMatchObject({ type: 'bounced' })
    expect(bouncedBody.data.object.object).toBe('email_send')

    problemOf(
      await call('POST', `/v1/webhook-endpoints/${e.id}/test`, { event: 'api_key.expiring' }),
      400,
      'validation_error',
    )
    problemOf(
      await call('POST', `/v1/webhook-endpoints/${e.id}/test`, { event: 'nope' }),
      400,
      'validation_error',
    )
    problemOf(await call('POST', `/v1/webhook-endpoints/${e.id}/test`, {}), 400, 'validation_error')
    expectProblem404(
      await call('POST', '/v1/webhook-endpoints/whe_doesnotexist0000000000000/test', {
        event: 'render.failed',
      }),
    )
  })

  it('lists deliveries newest first with filters and a cursor; GET 404', async () => {
    const e = (await create({ url: PUBLIC, events: ['render.failed'] })).json()
    const ids: string[] = []
    for (const event of ['render.failed', 'batch.completed', 'template.published']) {
      ids.push((await call('POST', `/v1/webhook-endpoints/${e.id}/test`, { event })).json().id)
    }
    const page1 = await call('GET', `/v1/webhook-deliveries?endpoint_id=${e.id}&limit=2`)
    expect(page1.statusCode).toBe(200)
    expect(page1.json().data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]])
    expect(page1.json()).toMatchObject({ has_more: true, next_cursor: ids[1] })
    const page2 = (
      await call('GET', `/v1/webhook-deliveries?endpoint_id=${e.id}&limit=2&cursor=${ids[1]}`)
    ).json()
    expect(page2.data.map((d: { id: string }) => d.id)).toEqual([ids[0]])
    expect(page2.has_more).toBe(false)
    const pending = (await call('GET', `/v1/webhook-deliveries?endpoint_id=${e.id}&status=pending`)).json()
    expect(pending.data).toHaveLength(3)
    expect(
      (await call('GET', `/v1/webhook-deliveries?endpoint_id=${e.id}&status=succeeded`)).json().data,
    ).toEqual([])
    problemOf(await call('GET', '/v1/webhook-deliveries?status=done'), 400, 'validation_error')
    problemOf(await call('GET', '/v1/webhook-deliveries?limit=101'), 400, 'validation_error')
    // another workspace, or the other mode, sees none of them
    expect(
      (await call('GET', `/v1/webhook-deliveries?endpoint_id=${e.id}`, undefined, other.liveKey)).json().data,
    ).toEqual([])
    expectProblem404(await call('GET', `/v1/webhook-deliveries/${ids[0]}`, undefined, ws.testKey))
    expectProblem404(await call('GET', '/v1/webhook-deliveries/whd_doesnotexist0000000000000'))
  })

  it('replays (202, same event id, replay_of); 404; 409 for a deleted or disabled endpoint', async () => {
    const { eventOutbox, webhookDispatcher } = t.kernel.container.cradle
    const e = (await create({ url: PUBLIC, events: ['batch.completed'] })).json()
    await eventOutbox.emit(t.kernel.db, {
      workspaceId: ws.workspace.id,
      type: 'batch.completed',
      test: false,
      data: { object: { id: 'bat_1', object: 'batch' } },
    })
    while ((await webhookDispatcher.dispatchPending()) > 0) {}
    const [original] = (await call('GET', `/v1/webhook-deliveries?endpoint_id=${e.id}`)).json().data
    expect(original).toMatchObject({ event_type: 'batch.completed', status: 'pending' })

    const replay = await call('POST', `/v1/webhook-deliveries/${original.id}/replay`)
    expect(replay.statusCode).toBe(202)
    expect(replay.json()).toMatchObject({
      replay_of: original.id,
      event_id: original.event_id,
      endpoint_id: e.id,
    })
    expect(replay.json().id).not.toBe(original.id)
    const replayed = (await call('GET', `/v1/webhook-deliveries/${replay.json().id}`)).json()
    const first = (await call('GET', `/v1/webhook-deliveries/${original.id}`)).json()
    expect(replayed.request.body).toEqual(first.request.body)

    expectProblem404(await call('POST', '/v1/webhook-deliveries/whd_doesnotexist0000000000000/replay'))
    expectProblem404(
      await call('POST', `/v1/webhook-deliveries/${original.id}/replay`, undefined, other.liveKey),
    )

    // a test event may be replayed to a disabled endpoint, a live event may not
    const testDelivery = (
      await call('POST', `/v1/webhook-endpoints/${e.id}/test`, { event: 'render.failed' })
    ).json()
    await call('PATCH', `/v1/webhook-endpoints/${e.id}`, { enabled: false })
    const disabled = problemOf(
      await call('POST', `/v1/webhook-deliveries/${original.id}/replay`),
      409,
      'conflict',
    )
    expect(disabled.detail).toMatch(/disabled/)
    expect((await call('POST', `/v1/webhook-deliveries/${testDelivery.id}/replay`)).statusCode).toBe(202)

    await call('DELETE', `/v1/webhook-endpoints/${e.id}`)
    const deleted = problemOf(
      await call('POST', `/v1/webhook-deliveries/${original.id}/replay`),
      409,
      'conflict',
    )
    expect(deleted.detail).toMatch(/deleted/)
    // the log stays after the endpoint is gone
    expect((await call('GET', `/v1/webhook-deliveries/${original.id}`)).statusCode).toBe(200)
  })

  it('checks scopes: webhooks:read reads, webhooks:write also reads, neither gives the other write', async () => {
    const reader = await t.createKey({
      workspaceId: ws.workspace.id,
      mode: 'live',
      scopes: ['webhooks:read'],
    })
    const writer = await t.createKey({
      workspaceId: ws.workspace.id,
      mode: 'live',
      scopes: ['webhooks:write'],
    })
    const none = await t.createKey({ workspaceId: ws.workspace.id, mode: 'live', scopes: ['renders:read'] })
    expect((await call('GET', '/v1/webhook-endpoints', undefined, reader.key)).statusCode).toBe(200)
    expect((await call('GET', '/v1/webhook-deliveries', undefined, writer.key)).statusCode).toBe(200)
    problemOf(await create({ url: PUBLIC, events: ['render.failed'] }, reader.key), 403, 'insufficient_scope')
    problemOf(await call('GET', '/v1/webhook-endpoints', undefined, none.key), 403, 'insufficient_scope')
    expect((await create({ url: PUBLIC, events: ['render.failed'] }, writer.key)).statusCode).toBe(201)
  })

  it('waits 10 seconds for an answer unless a test changes it (SPEC 6.4)', () => {
    expect(t.kernel.container.cradle.webhookSettings.timeoutMs).toBe(10_000)
  })

  it('lists auto-disabled endpoints for the operator only', async () => {
    const e = (await create({ url: PUBLIC, events: ['render.failed'] })).json()
    const { webhookEndpointRepository } = t.kernel.container.cradle
    const start = new Date('2026-01-01T00:00:00Z')
    expect(await webhookEndpointRepository.recordFailure(e.id, start, 5 * 86_400_000)).toBe(false)
    expect(
      await webhookEndpointRepository.recordFailure(
        e.id,
        new Date(start.getTime() + 5 * 86_400_000),
        5 * 86_400_000,
      ),
    ).toBe(true)
    const unauthenticated = await t.inject({ method: 'GET', url: '/admin/v1/webhook-endpoints/disabled' })
    expect(unauthenticated.statusCode).toBe(401)
    expect(
      (await t.inject({ method: 'GET', url: '/admin/v1/webhook-endpoints/disabled', key: ws.liveKey }))
        .statusCode,
    ).toBe(401)
    const res = await t.inject({
      method: 'GET',
      url: '/admin/v1/webhook-endpoints/disabled',
      headers: { authorization: 'Bearer operator-token-0123456789abcdef0123456789' },
    })
    expect(res.statusCode).toBe(200)
    const listed = res.json().data.find((d: { id: string }) => d.id === e.id)
    expect(listed).toMatchObject({
      enabled: false,
      disabled_reason: 'failing',
      workspace_id: ws.workspace.id,
    })
    expect((await call('GET', `/v1/webhook-endpoints/${e.id}`)).json()).toMatchObject({
      enabled: false,
      disabled_reason: 'failing',
    })
  })
})

function expectProblem404(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
  problemOf(res, 404, 'not_found')
}
