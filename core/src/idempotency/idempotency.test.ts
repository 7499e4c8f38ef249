import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { probeRoutes } from '../http/probe-routes.fixture.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'

const DAY_MS = 24 * 3600 * 1000

describe.each(TEST_DIALECTS)('Idempotency-Key through HTTP on %s', (dialect) => {
  const probe = probeRoutes()
  let t: TestKernel
  let ws: TestWorkspace
  let keyNo = 0
  const freshKey = () => `idem-${dialect}-${++keyNo}-${Date.now()}`

  function post(url: string, idemKey: string | undefined, payload: unknown, key = ws.testKey) {
    return t.inject({
      method: 'POST',
      url,
      key,
      payload: payload as Record<string, unknown>,
      ...(idemKey !== undefined ? { headers: { 'idempotency-key': idemKey } } : {}),
    })
  }

  async function claimRows(workspaceId: string) {
    return t.kernel.db.kysely
      .selectFrom('idempotency_keys')
      .select(['key', 'state', 'status_code'])
      .where('workspace_id', '=', workspaceId)
      .execute()
  }

  beforeAll(async () => {
    t = await startTestKernel({ dialect, extraV1Routes: [probe.routes] })
    ws = await t.createWorkspace()
  })
  afterAll(() => t?.close())

  it('replays status, body and Location with Idempotent-Replayed: true, without running the handler', async () => {
    const key = freshKey()
    const first = await post('/v1/test-echo', key, { name: 'invoice' })
    expect(first.statusCode).toBe(201)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    const callsAfterFirst = probe.calls.echo

    const again = await post('/v1/test-echo', key, { name: 'invoice' })
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.headers.location).toBe(first.headers.location)
    expect(again.headers['content-type']).toBe(first.headers['content-type'])
    expect(again.body).toBe(first.body)
    expect(again.json().id).toBe(first.json().id)
    // the replay is the stored answer: its X-Request-Id matches a stored problem's request_id
    expect(again.headers['x-request-id']).toBe(first.headers['x-request-id'])
    expect(again.headers.ratelimit).toMatch(/^"workspace";r=\d+;t=\d+$/)
    expect(probe.calls.echo).toBe(callsAfterFirst)
  })

  it('runs every request again when no Idempotency-Key is sent', async () => {
    const before = probe.calls.echo
    const a = await post('/v1/test-echo', undefined, { name: 'same' })
    const b = await post('/v1/test-echo', undefined, { name: 'same' })
    expect([a.statusCode, b.statusCode]).toEqual([201, 201])
    expect(b.headers['idempotent-replayed']).toBeUndefined()
    expect(a.json().id).not.toBe(b.json().id)
    expect(probe.calls.echo).toBe(before + 2)
  })

  it('answers 422 idempotency_key_reused for the same key with another body or path', async () => {
    const key = freshKey()
    expect((await post('/v1/test-echo', key, { name: 'one' })).statusCode).toBe(201)
    const before = probe.calls.echo

    const other = await post('/v1/test-echo', key, { name: 'two' })
    expect(other.statusCode).toBe(422)
    expect(other.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(other.json()).toMatchObject({ status: 422, code: 'idempotency_key_reused' })
    expect(other.headers['idempotent-replayed']).toBeUndefined()

    const otherQuery = await post('/v1/test-echo?limit=3', key, { name: 'one' })
    expect(otherQuery.statusCode).toBe(422)
    expect(otherQuery.json().code).toBe('idempotency_key_reused')
    expect(probe.calls.echo).toBe(before)
  })

  it('answers 409 idempotency_in_progress while the first request runs, and replays after it', async () => {
    const key = freshKey()
    const gate = probe.holdNextSlow()
    const first = post('/v1/test-slow', key, { job: 1 })
    await gate.entered

    const during = await post('/v1/test-slow', key, { job: 1 })
    expect(during.statusCode).toBe(409)
    expect(during.json()).toMatchObject({ status: 409, code: 'idempotency_in_progress' })
    expect(during.headers['retry-after']).toBe('1')
    expect(probe.calls.slow).toBe(1)

    gate.open()
    const done = await first
    expect(done.statusCode).toBe(202)
    const after = await post('/v1/test-slow', key, { job: 1 })
    expect(after.statusCode).toBe(202)
    expect(after.headers['idempotent-replayed']).toBe('true')
    expect(after.headers.location).toBe(done.headers.location)
    expect(after.body).toBe(done.body)
    expect(probe.calls.slow).toBe(1)
  })

  it('scopes keys per workspace and per test or live mode', async () => {
    const other = await t.createWorkspace({ name: 'Other' })
    const key = freshKey()
    const before = probe.calls.echo
    const mine = await post('/v1/test-echo', key, { name: 'a' })
    const theirs = await post('/v1/test-echo', key, { name: 'b' }, other.testKey)
    const live = await post('/v1/test-echo', key, { name: 'c' }, ws.liveKey)
    expect([mine.statusCode, theirs.statusCode, live.statusCode]).toEqual([201, 201, 201])
    expect(probe.calls.echo).toBe(before + 3)
    for (const r of [mine, theirs, live]) expect(r.headers['idempotent-replayed']).toBeUndefined()

    // each scope replays its own response
    const theirsAgain = await post('/v1/test-echo', key, { name: 'b' }, other.testKey)
    expect(theirsAgain.headers['idempotent-replayed']).toBe('true')
    expect(theirsAgain.json().body).toEqual({ name: 'b' })
    const liveAgain = await post('/v1/test-echo', key, { name: 'c' }, ws.liveKey)
    expect(liveAgain.json().id).toBe(live.json().id)
    expect(probe.calls.echo).toBe(before + 3)
  })

  it('frees the key after a 5xx, so a retry runs the handler again', async () => {
    const key = freshKey()
    probe.failNextFlaky(1)
    const before = probe.calls.flaky
    const failed = await post('/v1/test-flaky', key, { n: 1 })
    expect(failed.statusCode).toBe(500)
    expect(failed.json().code).toBe('internal_error')
    expect((await claimRows(ws.workspace.id)).filter((r) => r.key.endsWith(key))).toEqual([])

    const retried = await post('/v1/test-flaky', key, { n: 1 })
    expect(retried.statusCode).toBe(200)
    expect(retried.headers['idempotent-replayed']).toBeUndefined()
    expect(probe.calls.flaky).toBe(before + 2)

    const replayed = await post('/v1/test-flaky', key, { n: 1 })
    expect(replayed.headers['idempotent-replayed']).toBe('true')
    expect(replayed.json()).toEqual(retried.json())
    expect(probe.calls.flaky).toBe(before + 2)
  })

  it('still answers, and frees the key, when the response cannot be stored', async () => {
    const store = t.kernel.container.cradle.idempotencyStore
    const complete = store.complete
    store.complete = async () => {
      throw new Error('database went away')
    }
    const key = freshKey()
    try {
      const res = await post('/v1/test-echo', key, { name: 'unsaved' })
      expect(res.statusCode).toBe(201)
      expect(res.json().body).toEqual({ name: 'unsaved' })
    } finally {
      store.complete = complete
    }
    expect((await claimRows(ws.workspace.id)).filter((r) => r.key.endsWith(key))).toEqual([])
    const retried = await post('/v1/test-echo', key, { name: 'unsaved' })
    expect(retried.statusCode).toBe(201)
    expect(retried.headers['idempotent-replayed']).toBeUndefined()
  })

  it('lets a key be used again once its 24 hours are over', async () => {
    const key = freshKey()
    const first = await post('/v1/test-echo', key, { name: 'old' })
    expect(first.statusCode).toBe(201)
    await t.kernel.db.kysely
      .updateTable('idempotency_keys')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('workspace_id', '=', ws.workspace.id)
      .where('key', '=', `test:${key}`)
      .execute()

    const reused = await post('/v1/test-echo', key, { name: 'new' })
    expect(reused.statusCode).toBe(201)
    expect(reused.headers['idempotent-replayed']).toBeUndefined()
    expect(reused.json().body).toEqual({ name: 'new' })
    const again = await post('/v1/test-echo', key, { name: 'new' })
    expect(again.json().id).toBe(reused.json().id)
  })

  it('keeps the stored response for the whole window and frees it after (store clock)', async () => {
    const store = t.kernel.container.cradle.idempotencyStore
    const key = `clock-${freshKey()}`
    const t0 = new Date()
    expect(await store.start(ws.workspace.id, key, 'fp-a', t0)).toEqual({ kind: 'claimed' })
    await store.complete(ws.workspace.id, key, { status: 201, headers: {}, body: Buffer.from('{}') })
    const nearlyDay = new Date(t0.getTime() + DAY_MS - 1000)
    expect((await store.start(ws.workspace.id, key, 'fp-a', nearlyDay)).kind).toBe('replay')
    await expect(store.start(ws.workspace.id, key, 'fp-b', nearlyDay)).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    })
    const dayLater = new Date(t0.getTime() + DAY_MS + 1000)
    expect(await store.start(ws.workspace.id, key, 'fp-b', dayLater)).toEqual({ kind: 'claimed' })
  })

  it.each([
    ['too long', 'k'.repeat(256)],
    ['a control character', 'abc\tdef'],
    ['a space', 'abc def'],
    ['empty', ''],
  ])('refuses an Idempotency-Key that is %s with 400 validation_error', async (_label, bad) => {
    const before = probe.calls.echo
    const res = await post('/v1/test-echo', bad, { name: 'x' })
    expect(res.statusCode).toBe(400)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({
      code: 'validation_error',
      errors: [{ path: '/idempotency-key', in: 'header', code: 'invalid' }],
    })
    expect(probe.calls.echo).toBe(before)
  })

  it('accepts a key of 255 visible characters', async () => {
    const res = await post('/v1/test-echo', `${freshKey()}-`.padEnd(255, '~'), { name: 'x' })
    expect(res.statusCode).toBe(201)
  })

  it.each([
    ['invalid JSON', { 'content-type': 'application/json' }, '{"name":', 400, 'invalid_json'],
    ['an empty JSON body', { 'content-type': 'application/json' }, '', 400, 'invalid_json'],
    ['a failed validation', { 'content-type': 'application/json' }, '{"nam":"x"}', 400, 'validation_error'],
    ['a wrong content type', { 'content-type': 'text/plain' }, 'name=x', 415, 'unsupported_media_type'],
  ])('leaves no claim behind after %s', async (_label, headers, payload, status, code) => {
    const key = freshKey()
    const res = await t.inject({
      method: 'POST',
      url: '/v1/test-echo',
      key: ws.testKey,
      headers: { ...headers, 'idempotency-key': key },
      payload,
    })
    expect(res.statusCode).toBe(status)
    expect(res.json().code).toBe(code)
    expect((await claimRows(ws.workspace.id)).filter((r) => r.key.endsWith(key))).toEqual([])

    const fixed = await post('/v1/test-echo', key, { name: 'fixed' })
    expect(fixed.statusCode).toBe(201)
    expect(fixed.headers['idempotent-replayed']).toBeUndefined()
  })

  it('leaves no claim behind after 401 and 403', async () => {
    const key = freshKey()
    const { key: narrow } = await t.createKey({
      workspaceId: ws.workspace.id,
      mode: 'test',
      scopes: ['renders:read'],
    })
    const forbidden = await post('/v1/test-echo', key, { name: 'x' }, narrow)
    expect(forbidden.statusCode).toBe(403)
    expect(forbidden.json().code).toBe('insufficient_scope')
    const unauthenticated = await t.inject({
      method: 'POST',
      url: '/v1/test-echo',
      headers: { 'idempotency-key': key },
      payload: { name: 'x' },
    })
    expect(unauthenticated.statusCode).toBe(401)
    expect((await claimRows(ws.workspace.id)).filter((r) => r.key.endsWith(key))).toEqual([])
    expect((await post('/v1/test-echo', key, { name: 'y' })).statusCode).toBe(201)
  })
})
