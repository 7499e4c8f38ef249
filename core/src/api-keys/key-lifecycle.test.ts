import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProblemError } from '../kernel/problem-error.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel } from '../testing/index.ts'
import type { ApiKeyService } from './api-key-service.ts'
import { AUTH_TEST_ENV, expectProblem, getAccount } from './auth-test-support.ts'

const HOUR = 3_600_000

function hoursAgo(hours: number): Date {
  return new Date(Date.now() - hours * HOUR)
}

async function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err, 'expected the call to fail').toBeInstanceOf(Error)
  return err as ProblemError
}

describe.each(TEST_DIALECTS)('API key roll, revoke and lookup on %s', (dialect) => {
  let t: TestKernel
  let keys: ApiKeyService
  let workspaceId: string

  beforeAll(async () => {
    t = await startTestKernel({ dialect, env: AUTH_TEST_ENV })
    keys = t.kernel.container.cradle.apiKeyService
    workspaceId = (await t.createWorkspace()).workspace.id
  })
  afterAll(() => t.close())

  const newKey = () =>
    t.createKey({
      workspaceId,
      mode: 'live',
      name: 'billing server',
      scopes: ['account:read', 'render:write'],
      ipAllowlist: ['127.0.0.0/8', '::1/128'],
      templateAllowlist: ['tpl_0000000000aaaaaaaaaaaaaaaa'],
      expiresAt: new Date(Date.now() + 30 * 24 * HOUR).toISOString(),
    })

  describe('roll', () => {
    it('keeps the old key working during a 1 h grace period and gives a working new key', async () => {
      const old = await newKey()
      const before = Date.now()
      const rolled = await keys.roll(old.record.id, 1)
      expect(rolled.key).not.toBe(old.key)
      expect(rolled.key).toMatch(/^doc_live_[0-9a-z]{24}_[A-Za-z0-9]{40}$/)
      expect((await getAccount(t, { key: old.key })).statusCode).toBe(200)
      const res = await getAccount(t, { key: rolled.key })
      expect(res.statusCode).toBe(200)
      expect(res.json().key.id).toBe(rolled.record.id)

      const oldRecord = await keys.get(workspaceId, old.record.id)
      expect(oldRecord.rolled_to).toBe(rolled.record.id)
      const graceMs = Date.parse(oldRecord.grace_until!) - before
      expect(graceMs).toBeGreaterThanOrEqual(HOUR)
      expect(graceMs).toBeLessThan(HOUR + 60_000)
      const views = await keys.list(workspaceId)
      expect(views.find((v) => v.id === old.record.id)?.status).toBe('rolling')
      expect(views.find((v) => v.id === rolled.record.id)?.status).toBe('active')
    })

    it('gives the new key the same name, mode, scopes and restrictions', async () => {
      const old = await newKey()
      const { record } = await keys.roll(old.record.id, 24)
      expect(record.id).not.toBe(old.record.id)
      expect(record).toMatchObject({
        workspace_id: workspaceId,
        name: 'billing server',
        mode: 'live',
        scopes: ['account:read', 'render:write'],
        ip_allowlist: ['127.0.0.0/8', '::1/128'],
        template_allowlist: ['tpl_0000000000aaaaaaaaaaaaaaaa'],
        expires_at: old.record.expires_at,
      })
      expect(record.secret_hash).not.toBe(old.record.secret_hash)
    })

    it('revokes the old key at once with grace 0', async () => {
      const old = await newKey()
      const rolled = await keys.roll(old.record.id, 0)
      expectProblem(await getAccount(t, { key: old.key }), 401, 'api_key_revoked')
      expect((await getAccount(t, { key: rolled.key })).statusCode).toBe(200)
      const views = await keys.list(workspaceId)
      expect(views.find((v) => v.id === old.record.id)?.status).toBe('revoked')
    })

    it.each([
      [1, 0.5, 2],
      [24, 23, 25],
      [72, 71, 73],
    ])(
      'grace %i h: works when rolled %d h ago, api_key_revoked when rolled %d h ago',
      async (grace, inside, past) => {
        const during = await newKey()
        await keys.roll(during.record.id, grace, hoursAgo(inside))
        expect((await getAccount(t, { key: during.key })).statusCode).toBe(200)

        const ended = await newKey()
        const rolled = await keys.roll(ended.record.id, grace, hoursAgo(past))
        const body = expectProblem(await getAccount(t, { key: ended.key }), 401, 'api_key_revoked')
        expect(body.detail).toMatch(/grace period/)
        expect((await getAccount(t, { key: rolled.key })).statusCode).toBe(200)
      },
    )

    it('ends the grace period when grace_until passes in the database', async () => {
      const old = await newKey()
      await keys.roll(old.record.id, 72)
      expect((await getAccount(t, { key: old.key })).statusCode).toBe(200)
      await t.kernel.container.cradle.db.kysely
        .updateTable('api_keys')
        .set({ grace_until: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', old.record.id)
        .execute()
      expectProblem(await getAccount(t, { key: old.key }), 401, 'api_key_revoked')
    })

    it.each([5, 2, 48, -1, 1.5, Number.NaN])(
      'refuses grace %d and leaves the key untouched',
      async (grace) => {
        const old = await newKey()
        const before = await keys.list(workspaceId)
        const err = await problemOf(keys.roll(old.record.id, grace))
        expect(err.code).toBe('validation_error')
        expect(err.detail).toContain('0, 1, 24, 72')
        expect(await keys.list(workspaceId)).toHaveLength(before.length)
        expect((await keys.get(workspaceId, old.record.id)).rolled_to).toBeNull()
        expect((await getAccount(t, { key: old.key })).statusCode).toBe(200)
      },
    )

    it('refuses to roll a key twice or to roll a revoked key', async () => {
      const rolled = await newKey()
      await keys.roll(rolled.record.id, 1)
      expect((await problemOf(keys.roll(rolled.record.id, 1))).code).toBe('conflict')
      const revoked = await newKey()
      await keys.revoke(revoked.record.id)
      expect((await problemOf(keys.roll(revoked.record.id, 1))).code).toBe('conflict')
    })

    it('lets only one of two simultaneous rolls win', async () => {
      const old = await newKey()
      const before = (await keys.list(workspaceId)).length
      const outcomes = await Promise.allSettled([keys.roll(old.record.id, 1), keys.roll(old.record.id, 24)])
      const won = outcomes.filter((o) => o.status === 'fulfilled')
      const lost = outcomes.filter((o) => o.status === 'rejected')
      expect(won).toHaveLength(1)
      expect(lost).toHaveLength(1)
      expect((lost[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'conflict' })
      expect(await keys.list(workspaceId)).toHaveLength(before + 1)
      const successor = (won[0] as PromiseFulfilledResult<{ key: string; record: { id: string } }>).value
      expect((await keys.get(workspaceId, old.record.id)).rolled_to).toBe(successor.record.id)
      expect((await getAccount(t, { key: successor.key })).statusCode).toBe(200)
    })

    it('answers not_found for a key that does not exist', async () => {
      expect((await problemOf(keys.roll('key_doesnotexist00000000000', 1))).code).toBe('not_found')
    })
  })

  describe('revoke', () => {
    it('disables a key at once and lists it as revoked', async () => {
      const { key, record } = await newKey()
      expect((await getAccount(t, { key })).statusCode).toBe(200)
      const revoked = await keys.revoke(record.id)
      expect(revoked.revoked_at).not.toBeNull()
      const body = expectProblem(await getAccount(t, { key }), 401, 'api_key_revoked')
      expect(body.detail).toMatch(/revoked/)
      const views = await keys.list(workspaceId)
      expect(views.find((v) => v.id === record.id)?.status).toBe('revoked')
    })

    it('refuses at once even when the revoking clock runs a little ahead (another pod)', async () => {
      const { key, record } = await newKey()
      await keys.revoke(record.id, new Date(Date.now() + 5000))
      expectProblem(await getAccount(t, { key }), 401, 'api_key_revoked')
    })

    it('ends the grace period of a rolled key when the old key is revoked', async () => {
      const old = await newKey()
      const rolled = await keys.roll(old.record.id, 72)
      await keys.revoke(old.record.id)
      expectProblem(await getAccount(t, { key: old.key }), 401, 'api_key_revoked')
      expect((await getAccount(t, { key: rolled.key })).statusCode).toBe(200)
    })

    it('keeps the first revocation time when revoked again', async () => {
      const { record } = await newKey()
      const first = await keys.revoke(record.id, hoursAgo(1))
      const second = await keys.revoke(record.id)
      expect(second.revoked_at).toBe(first.revoked_at)
    })
  })

  describe('create', () => {
    it('refuses an explicit empty scope list instead of granting every scope', async () => {
      const err = await problemOf(t.createKey({ workspaceId, mode: 'live', scopes: [] }))
      expect(err.code).toBe('validation_error')
    })

    it('grants every scope when no scopes are given', async () => {
      const { key } = await t.createKey({ workspaceId, mode: 'live' })
      const res = await getAccount(t, { key })
      expect(res.statusCode).toBe(200)
      expect(res.json().key.scopes).toEqual(
        expect.arrayContaining(['account:read', 'render:write', 'email:write']),
      )
    })

    it('refuses unknown scopes and unreadable expiry dates', async () => {
      const scope = await problemOf(t.createKey({ workspaceId, mode: 'live', scopes: ['account:write'] }))
      expect(scope.code).toBe('validation_error')
      expect(scope.detail).toContain('account:write')
      const expiry = await problemOf(t.createKey({ workspaceId, mode: 'live', expiresAt: 'next tuesday' }))
      expect(expiry.code).toBe('validation_error')
    })

    it('refuses a key for a workspace that does not exist', async () => {
      const err = await problemOf(t.createKey({ workspaceId: 'ws_doesnotexist0000000000000', mode: 'test' }))
      expect(err.code).toBe('not_found')
    })
  })

  describe('lookup across workspaces', () => {
    it('answers another workspace key exactly like a missing one', async () => {
      const other = await t.createWorkspace()
      const { record } = await t.createKey({ workspaceId: other.workspace.id, mode: 'live' })
      expect((await keys.get(other.workspace.id, record.id)).id).toBe(record.id)

      const missingId = `key_${'0'.repeat(24)}`
      const foreign = await problemOf(keys.get(workspaceId, record.id))
      const missing = await problemOf(keys.get(workspaceId, missingId))
      expect(foreign.code).toBe('not_found')
      expect(missing.code).toBe('not_found')
      expect(foreign.detail?.replace(record.id, '<id>')).toBe(missing.detail?.replace(missingId, '<id>'))
      expect(foreign.extras).toEqual(missing.extras)
    })

    it('never lists another workspace keys', async () => {
      const other = await t.createWorkspace()
      const mine = await keys.list(workspaceId)
      const theirs = await keys.list(other.workspace.id)
      expect(theirs).toHaveLength(2)
      expect(mine.every((k) => k.workspace_id === workspaceId)).toBe(true)
      expect(mine.map((k) => k.id)).not.toContain(theirs[0]!.id)
    })
  })
})
