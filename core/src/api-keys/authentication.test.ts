import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'
import { AUTH_TEST_ENV, expectProblem, getAccount } from './auth-test-support.ts'
import { parseKeyString } from './key-format.ts'

// shows what the guard decided about the caller; needs no scope
async function whoAmI(v1: FastifyInstance) {
  v1.get('/test-whoami', async (request) => ({
    test: request.auth!.test,
    key_id: request.auth!.key.id,
    workspace_id: request.auth!.workspace.id,
  }))
}

function swapSecret(key: string): string {
  const last = key.at(-1) === 'A' ? 'B' : 'A'
  return key.slice(0, -1) + last
}

describe.each(TEST_DIALECTS)('SPEC Part 5 authentication over HTTP on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({ dialect, env: AUTH_TEST_ENV, extraV1Routes: [whoAmI] })
    ws = await t.createWorkspace()
  })
  afterAll(() => t.close())

  describe('where the key is sent', () => {
    it('accepts Authorization: Bearer', async () => {
      const res = await getAccount(t, { headers: { authorization: `Bearer ${ws.liveKey}` } })
      expect(res.statusCode).toBe(200)
      expect(res.json().workspace.id).toBe(ws.workspace.id)
      expect(res.headers['x-workspace-id']).toBe(ws.workspace.id)
    })

    it('accepts the Bearer scheme in any letter case', async () => {
      const res = await getAccount(t, { headers: { authorization: `bearer ${ws.liveKey}` } })
      expect(res.statusCode).toBe(200)
    })

    it('accepts X-API-Key', async () => {
      const res = await getAccount(t, { headers: { 'x-api-key': ws.testKey } })
      expect(res.statusCode).toBe(200)
      expect(res.json().key.mode).toBe('test')
    })

    it('uses X-API-Key when Authorization is empty', async () => {
      const res = await getAccount(t, { headers: { authorization: '', 'x-api-key': ws.liveKey } })
      expect(res.statusCode).toBe(200)
    })
  })

  describe('401 authentication_required', () => {
    it('answers a request without any key', async () => {
      const body = expectProblem(await getAccount(t), 401, 'authentication_required')
      expect(body.detail).toMatch(/Bearer/)
    })

    it.each([
      ['an empty Authorization header', { authorization: '' }],
      ['a blank Authorization header', { authorization: '   ' }],
      ['an empty X-API-Key header', { 'x-api-key': '' }],
      ['a blank X-API-Key header', { 'x-api-key': '  ' }],
      ['Bearer without a token', { authorization: 'Bearer' }],
      ['Bearer followed by blanks only', { authorization: 'Bearer    ' }],
    ])('answers %s', async (_label, headers: Record<string, string>) => {
      expectProblem(await getAccount(t, { headers }), 401, 'authentication_required')
    })
  })

  describe('401 invalid_api_key', () => {
    it.each([
      ['a random string', 'not-a-key'],
      ['a key without its secret', () => ws.liveKey.slice(0, ws.liveKey.lastIndexOf('_'))],
      ['a secret one character short', () => ws.liveKey.slice(0, -1)],
      ['a secret one character long', () => `${ws.liveKey}A`],
      ['an unknown prefix', () => ws.liveKey.replace(/^doc_live_/, 'doc_prod_')],
      [
        'upper-case key id',
        () => ws.liveKey.replace(/^(doc_live_)([0-9a-z]{24})/, (_m, p, id) => p + id.toUpperCase()),
      ],
      ['a secret with a forbidden character', () => `${ws.liveKey.slice(0, -1)}-`],
    ])('refuses a malformed key: %s', async (_label, make) => {
      const key = typeof make === 'string' ? make : make()
      expectProblem(await getAccount(t, { key }), 401, 'invalid_api_key')
    })

    it('refuses a known key id with a wrong secret', async () => {
      expectProblem(await getAccount(t, { key: swapSecret(ws.liveKey) }), 401, 'invalid_api_key')
    })

    it('refuses a well-formed key whose id does not exist', async () => {
      const parsed = parseKeyString(ws.liveKey)!
      const otherId = parsed.keyId.slice(0, -1) + (parsed.keyId.endsWith('z') ? 'y' : 'z')
      const key = `doc_live_${otherId}_${parsed.secret}`
      expectProblem(await getAccount(t, { key }), 401, 'invalid_api_key')
    })

    it('refuses a test key id presented with the live prefix, and the reverse', async () => {
      const liveFromTest = ws.testKey.replace(/^doc_test_/, 'doc_live_')
      const testFromLive = ws.liveKey.replace(/^doc_live_/, 'doc_test_')
      expectProblem(await getAccount(t, { key: liveFromTest }), 401, 'invalid_api_key')
      expectProblem(await getAccount(t, { key: testFromLive }), 401, 'invalid_api_key')
    })

    it.each([
      ['Basic', (k: string) => `Basic ${Buffer.from(`${k}:`).toString('base64')}`],
      ['Token', (k: string) => `Token ${k}`],
      ['a bare key without a scheme', (k: string) => k],
      ['Bearer with two tokens', (k: string) => `Bearer ${k} ${k}`],
    ])('refuses the Authorization scheme %s even with a valid key', async (_label, header) => {
      const res = await getAccount(t, { headers: { authorization: header(ws.liveKey) } })
      expectProblem(res, 401, 'invalid_api_key')
    })

    it('refuses a key wrapped in Bearer inside X-API-Key', async () => {
      const res = await getAccount(t, { headers: { 'x-api-key': `Bearer ${ws.liveKey}` } })
      expectProblem(res, 401, 'invalid_api_key')
    })

    it('answers the same for a wrong secret and an unknown key id', async () => {
      const wrong = expectProblem(
        await getAccount(t, { key: swapSecret(ws.liveKey) }),
        401,
        'invalid_api_key',
      )
      const unknown = expectProblem(
        await getAccount(t, { key: `doc_live_${'0'.repeat(24)}_${'A'.repeat(40)}` }),
        401,
        'invalid_api_key',
      )
      expect(wrong.detail).toBe(unknown.detail)
    })
  })

  describe('401 api_key_expired and api_key_revoked', () => {
    it('refuses a key whose expiry has passed', async () => {
      const past = new Date(Date.now() - 60_000).toISOString()
      const { key } = await t.createKey({ workspaceId: ws.workspace.id, mode: 'live', expiresAt: past })
      const body = expectProblem(await getAccount(t, { key }), 401, 'api_key_expired')
      expect(body.detail).toContain(past)
    })

    it('accepts a key whose expiry is still ahead', async () => {
      const future = new Date(Date.now() + 3_600_000).toISOString()
      const { key } = await t.createKey({ workspaceId: ws.workspace.id, mode: 'live', expiresAt: future })
      expect((await getAccount(t, { key })).statusCode).toBe(200)
    })

    it('refuses a revoked key through either header', async () => {
      const { key, record } = await t.createKey({ workspaceId: ws.workspace.id, mode: 'test' })
      await t.kernel.container.cradle.apiKeyService.revoke(record.id)
      expectProblem(await getAccount(t, { key }), 401, 'api_key_revoked')
      expectProblem(await getAccount(t, { headers: { 'x-api-key': key } }), 401, 'api_key_revoked')
    })

    it('still says invalid_api_key for a revoked key sent with a wrong secret', async () => {
      const { key, record } = await t.createKey({ workspaceId: ws.workspace.id, mode: 'test' })
      await t.kernel.container.cradle.apiKeyService.revoke(record.id)
      expectProblem(await getAccount(t, { key: swapSecret(key) }), 401, 'invalid_api_key')
    })
  })

  describe('request ids on error answers', () => {
    it('repeats a client-sent X-Request-Id in the header and the body', async () => {
      const res = await getAccount(t, { headers: { 'x-request-id': 'client-req-42' } })
      expect(res.headers['x-request-id']).toBe('client-req-42')
      expect(expectProblem(res, 401, 'authentication_required').request_id).toBe('client-req-42')
    })

    it('gives each answer its own req_ id when the client sends none', async () => {
      const a = expectProblem(await getAccount(t, { key: 'nope' }), 401, 'invalid_api_key')
      const b = expectProblem(await getAccount(t, { key: 'nope' }), 401, 'invalid_api_key')
      expect(a.request_id).toMatch(/^req_/)
      expect(a.request_id).not.toBe(b.request_id)
    })
  })

  describe('403 insufficient_scope', () => {
    it('refuses a key without account:read and names the scope', async () => {
      const { key } = await t.createKey({
        workspaceId: ws.workspace.id,
        mode: 'live',
        scopes: ['render:write', 'templates:read'],
      })
      const body = expectProblem(await getAccount(t, { key }), 403, 'insufficient_scope')
      expect(body.detail).toContain('account:read')
    })

    it('accepts a key holding only account:read', async () => {
      const { key } = await t.createKey({
        workspaceId: ws.workspace.id,
        mode: 'live',
        scopes: ['account:read'],
      })
      const res = await getAccount(t, { key })
      expect(res.statusCode).toBe(200)
      expect(res.json().key.scopes).toEqual(['account:read'])
    })
  })

  describe('test keys and live keys', () => {
    it('marks a doc_test_ key as test and a doc_live_ key as live', async () => {
      expect(ws.testKey).toMatch(/^doc_test_/)
      expect(ws.liveKey).toMatch(/^doc_live_/)
      const test = await t.inject({ method: 'GET', url: '/v1/test-whoami', key: ws.testKey })
      const live = await t.inject({ method: 'GET', url: '/v1/test-whoami', key: ws.liveKey })
      expect(test.json()).toMatchObject({ test: true, workspace_id: ws.workspace.id })
      expect(live.json()).toMatchObject({ test: false, workspace_id: ws.workspace.id })
      expect(test.json().key_id).not.toBe(live.json().key_id)
    })

    it('ties each key to its own workspace', async () => {
      const other = await t.createWorkspace()
      const res = await t.inject({ method: 'GET', url: '/v1/test-whoami', key: other.liveKey })
      expect(res.json().workspace_id).toBe(other.workspace.id)
      expect(res.json().workspace_id).not.toBe(ws.workspace.id)
    })
  })
})
