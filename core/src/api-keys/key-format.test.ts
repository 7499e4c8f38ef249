import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, TEST_DIALECTS, type TestKernel } from '../testing/index.ts'
import { AUTH_TEST_ENV } from './auth-test-support.ts'
import { hashSecret, newKeyParts, parseKeyString, secretMatches } from './key-format.ts'

const SHAPE = /^doc_(test|live)_([0-9a-z]{24})_([A-Za-z0-9]{40})$/

describe('key string format (SPEC 2.3)', () => {
  it('makes doc_<mode>_<24-char id>_<40-char secret> keys that differ every time', () => {
    const keys = Array.from({ length: 50 }, (_, i) => newKeyParts(i % 2 ? 'live' : 'test').full)
    for (const key of keys) expect(key).toMatch(SHAPE)
    expect(new Set(keys).size).toBe(keys.length)
    expect(new Set(keys.map((k) => k.slice(-40))).size).toBe(keys.length)
  })

  it('parses its own keys back into mode, id and secret', () => {
    const parts = newKeyParts('live')
    expect(parseKeyString(parts.full)).toEqual({ mode: 'live', keyId: parts.keyId, secret: parts.secret })
  })

  it.each([
    'doc_live_short_' + 'A'.repeat(40),
    `doc_live_${'a'.repeat(24)}_${'A'.repeat(39)}`,
    `doc_live_${'a'.repeat(24)}_${'A'.repeat(41)}`,
    `doc_prod_${'a'.repeat(24)}_${'A'.repeat(40)}`,
    `DOC_LIVE_${'a'.repeat(24)}_${'A'.repeat(40)}`,
    ` doc_live_${'a'.repeat(24)}_${'A'.repeat(40)}`,
    `doc_live_${'a'.repeat(24)}_${'A'.repeat(40)}\n`,
    `doc_live_${'a'.repeat(24)}_${'A'.repeat(39)}_`,
    '',
  ])('refuses %j', (text) => {
    expect(parseKeyString(text)).toBeUndefined()
  })

  it('hashes a secret with SHA-256 and compares only equal secrets as equal', () => {
    const { secret } = newKeyParts('test')
    const hash = hashSecret(secret)
    expect(hash).toBe(createHash('sha256').update(secret).digest('hex'))
    expect(secretMatches(secret, hash)).toBe(true)
    // a secret one character off (never the same character: secrets may end in any letter)
    const other = secret.endsWith('x') ? 'y' : 'x'
    expect(secretMatches(`${secret.slice(0, -1)}${other}`, hash)).toBe(false)
    expect(secretMatches(secret, 'not-a-hash')).toBe(false)
  })
})

describe.each(TEST_DIALECTS)('stored API keys on %s', (dialect) => {
  let t: TestKernel

  beforeAll(async () => {
    t = await startTestKernel({ dialect, env: AUTH_TEST_ENV })
  })
  afterAll(() => t.close())

  it('stores only the SHA-256 hash of the secret, never the key or the secret', async () => {
    const { workspace, liveKey, testKey } = await t.createWorkspace()
    const rows = await t.kernel.container.cradle.db.kysely
      .selectFrom('api_keys')
      .selectAll()
      .where('workspace_id', '=', workspace.id)
      .execute()
    expect(rows).toHaveLength(2)
    for (const key of [liveKey, testKey]) {
      const { mode, keyId, secret } = parseKeyString(key)!
      const row = rows.find((r) => r.id === `key_${keyId}`)!
      expect(row.mode).toBe(mode)
      expect(row.secret_hash).toBe(createHash('sha256').update(secret).digest('hex'))
      expect(row.last4).toBe(secret.slice(-4))
      const stored = JSON.stringify(row)
      expect(stored).not.toContain(secret)
      expect(stored).not.toContain(secret.slice(0, 20))
      expect(stored).not.toContain(key)
    }
  })

  it('shows only the prefix and the last four characters in listings', async () => {
    const { workspace, liveKey } = await t.createWorkspace()
    const { keyId, secret } = parseKeyString(liveKey)!
    const views = await t.kernel.container.cradle.apiKeyService.list(workspace.id)
    const view = views.find((v) => v.id === `key_${keyId}`)!
    expect(view.prefix).toBe(`doc_live_${keyId}`)
    expect(view.last4).toBe(secret.slice(-4))
    expect(JSON.stringify(views)).not.toContain(secret)
    expect(JSON.stringify(views)).not.toContain(hashSecret(secret))
    expect(view).not.toHaveProperty('secret_hash')
  })
})
