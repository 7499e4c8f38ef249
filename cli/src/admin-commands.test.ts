import { createKernel, loadConfig } from '@docsvc/core'
import { describe, expect, it } from 'vitest'
import { cliDatabase, cliJson, runCli } from './cli-test-support.ts'

type Json = Record<string, unknown>
type KeyJson = Json & { id: string; key: string }

const KEY_SHAPE = /^doc_(test|live)_[0-9a-z]{24}_[A-Za-z0-9]{40}$/

/** Boots a kernel on the CLI's database and asks GET /v1/account with each key. */
async function accountStatuses(env: Record<string, string>, keys: string[]) {
  const kernelEnv = { ...env, DOCSVC_LOG_LEVEL: 'silent' }
  const kernel = await createKernel({ config: loadConfig(kernelEnv), env: kernelEnv, roles: ['api'] })
  try {
    return await Promise.all(
      keys.map(async (key) => {
        const res = await kernel.app.inject({
          method: 'GET',
          url: '/v1/account',
          headers: { authorization: `Bearer ${key}` },
        })
        return { status: res.statusCode, body: res.json() as Json }
      }),
    )
  } finally {
    await kernel.close()
  }
}

describe('workspace and key commands', () => {
  // both databases at once: the test mostly waits on child processes
  it.concurrent.each(['sqlite', 'postgres'] as const)(
    'on %s: create, list, roll, revoke; the printed keys work against the API',
    async (dialect) => {
      // the operator's flow starts with `docsvc migrate` on nothing
      const db = await cliDatabase(dialect, { migrated: false })
      try {
        await adminFlow(dialect, db.env)
      } finally {
        await db.cleanup()
      }
    },
    90_000,
  )
})

async function adminFlow(dialect: 'sqlite' | 'postgres', env: Record<string, string>) {
  const migrated = await cliJson<{ applied: string[]; mode: string }>(['migrate'], env)
  expect(migrated.applied).toContain('0001-platform')
  expect(migrated.mode).toBe(dialect === 'postgres' ? 'cluster' : 'embedded')

  // independent commands run side by side: each spawn costs about a second
  const [acme, beta, again] = await Promise.all([
    cliJson(['workspace', 'create', '--name', 'Acme', '--plan', 'pro'], env),
    cliJson(['workspace', 'create', '--name', 'Beta'], env),
    cliJson<{ applied: string[] }>(['migrate'], env),
  ])
  expect(acme).toMatchObject({ id: expect.stringMatching(/^ws_/), name: 'Acme', plan_id: 'pro' })
  expect(beta).toMatchObject({ id: expect.stringMatching(/^ws_/), plan_id: 'free', status: 'active' })
  expect(again.applied).toEqual([])

  const acmeId = acme.id as string
  const betaId = beta.id as string
  const [testKey, liveKey, suspended, moved] = await Promise.all([
    cliJson<KeyJson>(
      [
        'key',
        'create',
        '--workspace',
        acmeId,
        '--mode',
        'test',
        '--name',
        'ci',
        '--scopes',
        'account:read,renders:read',
        '--ip-allow',
        '127.0.0.0/8,::1/128',
        '--expires-at',
        '2099-01-01T00:00:00Z',
        '--templates',
        'tpl_a',
      ],
      env,
    ),
    cliJson<KeyJson>(['key', 'create', '--workspace', acmeId, '--mode', 'live'], env),
    cliJson(['workspace', 'suspend', betaId], env),
    cliJson(['workspace', 'set-plan', acmeId, 'growth'], env),
  ])
  expect(testKey.key).toMatch(KEY_SHAPE)
  expect(testKey.key.startsWith('doc_test_')).toBe(true)
  expect(testKey).toMatchObject({
    id: expect.stringMatching(/^key_/),
    mode: 'test',
    name: 'ci',
    scopes: ['account:read', 'renders:read'],
    ip_allowlist: ['127.0.0.0/8', '::1/128'],
    template_allowlist: ['tpl_a'],
    expires_at: '2099-01-01T00:00:00.000Z',
  })
  expect(testKey).not.toHaveProperty('secret_hash')
  expect(liveKey.key).toMatch(/^doc_live_/)
  expect(suspended).toMatchObject({ id: betaId, status: 'suspended' })
  expect(moved).toMatchObject({ id: acmeId, plan_id: 'growth' })

  const [listed, listedText, rolled, revoked, workspaces, resumed] = await Promise.all([
    cliJson<Json[]>(['key', 'list', '--workspace', acmeId], env),
    runCli(['key', 'list', '--workspace', acmeId], env),
    cliJson<KeyJson>(['key', 'roll', testKey.id, '--grace', '24'], env),
    cliJson(['key', 'revoke', liveKey.id], env),
    cliJson<Json[]>(['workspace', 'list'], env),
    cliJson(['workspace', 'resume', betaId], env),
  ])
  // the roll runs alongside, so its new key may or may not be listed yet
  expect(listed.map((k) => k.id)).toEqual(expect.arrayContaining([testKey.id, liveKey.id]))
  for (const text of [JSON.stringify(listed), listedText.stdout]) {
    expect(text).not.toContain('secret_hash')
    expect(text).not.toContain(testKey.key.slice(-40))
    expect(text).not.toContain(liveKey.key.slice(-40))
  }
  expect(listed.find((k) => k.id === testKey.id)).toMatchObject({
    prefix: testKey.key.slice(0, 33),
    last4: testKey.key.slice(-4),
    scopes: ['account:read', 'renders:read'],
  })
  expect(listedText.stdout).toContain(testKey.id)
  expect(rolled.key).toMatch(KEY_SHAPE)
  expect(rolled).toMatchObject({ rolled_from: testKey.id, mode: 'test', scopes: testKey.scopes })
  expect(rolled.id).not.toBe(testKey.id)
  expect(revoked).toMatchObject({ id: liveKey.id, revoked_at: expect.any(String) })
  expect(workspaces.map((w) => w.id)).toEqual(expect.arrayContaining([acmeId, betaId]))
  expect(resumed).toMatchObject({ id: betaId, status: 'active' })

  const [afterList, statuses] = await Promise.all([
    cliJson<Json[]>(['key', 'list', '--workspace', acmeId], env),
    accountStatuses(env, [rolled.key, testKey.key, liveKey.key]),
  ])
  const status = Object.fromEntries(afterList.map((k) => [k.id, k.status]))
  expect(status).toEqual({ [testKey.id]: 'rolling', [rolled.id]: 'active', [liveKey.id]: 'revoked' })
  const [withRolled, withOld, withRevoked] = statuses
  expect(withRolled?.status).toBe(200)
  expect(withRolled?.body).toMatchObject({ workspace: { id: acmeId }, plan: { id: 'growth' } })
  expect(withOld?.status).toBe(200) // inside its 24 h grace period
  expect(withRevoked?.status).toBe(401)
  expect(withRevoked?.body.code).toBe('api_key_revoked')
}
