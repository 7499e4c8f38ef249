import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { startTestKernel, TEST_DIALECTS, type TestKernel } from '../testing/index.ts'

const TOKEN = 'operator-secret-token-0123456789abcdef'

describe.each(TEST_DIALECTS)('admin API on %s', (dialect) => {
  let t: TestKernel
  const admin = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.inject({ method, url, headers: { authorization: `Bearer ${TOKEN}` }, ...(payload ? { payload } : {}) })

  beforeAll(async () => {
    t = await startTestKernel({ dialect, env: { DOCSVC_OPERATOR_TOKEN: TOKEN } })
  })
  afterAll(() => t.close())
  afterEach(() => {
    vi.useRealTimers()
  })

  it('refuses callers without the operator token, including workspace keys', async () => {
    const ws = await t.createWorkspace()
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${ws.liveKey}`]) {
      const res = await t.inject({
        method: 'GET',
        url: '/admin/v1/workspaces',
        headers: authorization ? { authorization } : {},
      })
      expect(res.statusCode).toBe(401)
      expect(res.json().code).toBe('operator_token_required')
    }
  })

  it('refuses an address outright after 10 wrong tokens in a minute, even with the right one', async () => {
    const from = (remoteAddress: string, token: string) =>
      t.inject({
        method: 'GET',
        url: '/admin/v1/workspaces',
        remoteAddress,
        headers: { authorization: `Bearer ${token}` },
      })
    // the clock stands still inside one window of the limit, whatever the test's speed
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Math.ceil(Date.now() / 60_000) * 60_000 + 1_000)
    const guesses = []
    for (let i = 0; i < 10; i++) guesses.push((await from('203.0.113.7', `guess-${i}`)).statusCode)
    expect(guesses).toEqual(Array(10).fill(401))
    for (const token of ['guess-10', TOKEN]) {
      const refused = await from('203.0.113.7', token)
      expect(refused.statusCode).toBe(429)
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(refused.json().code).toBe('rate_limited')
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    }
    // another address is not held back by them
    expect((await from('203.0.113.8', TOKEN)).statusCode).toBe(200)
  })

  it('creates a workspace and a key that then works on /v1', async () => {
    const created = await admin('POST', '/admin/v1/workspaces', { name: 'Acme', plan: 'growth' })
    expect(created.statusCode).toBe(201)
    const ws = created.json()
    expect(ws.id).toMatch(/^ws_/)
    const key = await admin('POST', '/admin/v1/keys', {
      workspace_id: ws.id,
      mode: 'live',
      scopes: ['account:read'],
    })
    expect(key.statusCode).toBe(201)
    const body = key.json()
    expect(body.key).toMatch(/^doc_live_[0-9a-z]{24}_[A-Za-z0-9]{40}$/)
    expect(body.secret_hash).toBeUndefined()
    const account = await t.inject({ method: 'GET', url: '/v1/account', key: body.key })
    expect(account.statusCode).toBe(200)
    expect(account.json().plan.id).toBe('growth')

    const suspended = await admin('PATCH', `/admin/v1/workspaces/${ws.id}`, { status: 'suspended' })
    expect(suspended.json().status).toBe('suspended')
    const refused = await t.inject({ method: 'GET', url: '/v1/account', key: body.key })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('workspace_suspended')
    await admin('PATCH', `/admin/v1/workspaces/${ws.id}`, { status: 'active' })

    const revoked = await admin('POST', `/admin/v1/keys/${body.id}/revoke`)
    expect(revoked.json().revoked_at).toBeTruthy()
    const gone = await t.inject({ method: 'GET', url: '/v1/account', key: body.key })
    expect(gone.json().code).toBe('api_key_revoked')
  })

  it('rolls a key with a grace period and lists usage', async () => {
    const ws = (await admin('POST', '/admin/v1/workspaces', { name: 'Roll' })).json()
    const first = (await admin('POST', '/admin/v1/keys', { workspace_id: ws.id, mode: 'test' })).json()
    const bad = await admin('POST', `/admin/v1/keys/${first.id}/roll`, { grace_hours: 5 })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].path).toBe('/grace_hours')
    const rolled = await admin('POST', `/admin/v1/keys/${first.id}/roll`, { grace_hours: 24 })
    expect(rolled.statusCode).toBe(200)
    expect(rolled.json().key).toMatch(/^doc_test_/)
    for (const key of [first.key, rolled.json().key]) {
      expect((await t.inject({ method: 'GET', url: '/v1/account', key })).statusCode).toBe(200)
    }
    const keys = (await admin('GET', `/admin/v1/workspaces/${ws.id}/keys`)).json().data
    expect(keys.map((k: { status: string }) => k.status).sort()).toEqual(['active', 'rolling'])
  })

  it('answers bad input with problems', async () => {
    const missing = await admin('POST', '/admin/v1/workspaces', {})
    expect(missing.statusCode).toBe(400)
    expect(missing.json().errors).toContainEqual(expect.objectContaining({ path: '/name', code: 'required' }))
    const plan = await admin('POST', '/admin/v1/workspaces', { name: 'x', plan: 'gold' })
    expect(plan.statusCode).toBe(400)
    expect(plan.json().detail).toMatch(/unknown plan gold/)
    const unknown = await admin('GET', '/admin/v1/workspaces/ws_00000000000000000000000000')
    expect(unknown.statusCode).toBe(404)
    expect((await admin('GET', '/admin/v1/plans')).json().data).toHaveLength(5)
  })
})

describe('admin API without an operator token', () => {
  it('is off', async () => {
    const t = await startTestKernel()
    try {
      const res = await t.inject({
        method: 'GET',
        url: '/admin/v1/workspaces',
        headers: { authorization: 'Bearer x' },
      })
      expect(res.statusCode).toBe(404)
      expect(res.json().code).toBe('not_found')
    } finally {
      await t.close()
    }
  })
})
