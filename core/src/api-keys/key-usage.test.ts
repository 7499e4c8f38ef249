import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, TEST_DIALECTS, type TestKernel } from '../testing/index.ts'
import type { ApiKeyView } from './api-key.ts'
import type { ApiKeyRepository, KeyUsageDelta } from './api-key-repository.ts'
import { AUTH_TEST_ENV, getAccount } from './auth-test-support.ts'
import { parseKeyString } from './key-format.ts'
import { KeyUsageRecorder } from './key-usage-recorder.ts'

const HOUR = 3_600_000
const DAY = 24 * HOUR

describe.each(TEST_DIALECTS)('key usage tracking (SPEC Part 5.10) on %s', (dialect) => {
  let t: TestKernel

  beforeAll(async () => {
    t = await startTestKernel({ dialect, env: AUTH_TEST_ENV })
  })
  afterAll(() => t.close())

  const cradle = () => t.kernel.container.cradle

  async function viewOf(workspaceId: string, key: string, now?: Date): Promise<ApiKeyView> {
    await cradle().keyUsageRecorder.flush()
    const id = `key_${parseKeyString(key)!.keyId}`
    const views = await cradle().apiKeyService.list(workspaceId, now)
    return views.find((v) => v.id === id)!
  }

  it('shows last use, last IP and request counts after requests', async () => {
    const { workspace, liveKey, testKey } = await t.createWorkspace()
    const fresh = await viewOf(workspace.id, liveKey)
    expect(fresh).toMatchObject({ last_used_at: null, last_ip: null, requests_24h: 0, requests_30d: 0 })

    const before = Date.now()
    for (const ip of ['198.51.100.1', '198.51.100.1', '198.51.100.2'])
      expect((await getAccount(t, { key: liveKey, remoteAddress: ip })).statusCode).toBe(200)
    expect((await getAccount(t, { key: liveKey, remoteAddress: '2001:db8::42' })).statusCode).toBe(200)
    expect((await getAccount(t, { key: testKey, remoteAddress: '203.0.113.5' })).statusCode).toBe(200)
    const after = Date.now()

    const live = await viewOf(workspace.id, liveKey)
    expect(live.last_ip).toBe('2001:db8::42')
    expect(Date.parse(live.last_used_at!)).toBeGreaterThanOrEqual(before)
    expect(Date.parse(live.last_used_at!)).toBeLessThanOrEqual(after)
    expect(live).toMatchObject({ requests_24h: 4, requests_30d: 4, unused: false })

    const test = await viewOf(workspace.id, testKey)
    expect(test).toMatchObject({ last_ip: '203.0.113.5', requests_24h: 1, requests_30d: 1 })
  })

  it('adds up across flushes', async () => {
    const { workspace, liveKey } = await t.createWorkspace()
    await getAccount(t, { key: liveKey })
    expect((await viewOf(workspace.id, liveKey)).requests_24h).toBe(1)
    await getAccount(t, { key: liveKey })
    await getAccount(t, { key: liveKey })
    expect((await viewOf(workspace.id, liveKey)).requests_24h).toBe(3)
  })

  it('counts nothing for requests refused before the key was proven', async () => {
    const { workspace, liveKey } = await t.createWorkspace()
    const wrongSecret = `${liveKey.slice(0, -1)}${liveKey.endsWith('A') ? 'B' : 'A'}`
    expect((await getAccount(t, { key: wrongSecret, remoteAddress: '192.0.2.66' })).statusCode).toBe(401)
    const view = await viewOf(workspace.id, liveKey)
    expect(view).toMatchObject({ last_used_at: null, last_ip: null, requests_24h: 0, requests_30d: 0 })
  })

  it('splits counts into the last 24 hours and the last 30 days', async () => {
    const { workspace, liveKey } = await t.createWorkspace()
    const { keyId } = parseKeyString(liveKey)!
    const now = Date.now()
    const recorder = cradle().keyUsageRecorder
    await getAccount(t, { key: liveKey, remoteAddress: '198.51.100.9' })
    recorder.record(`key_${keyId}`, '192.0.2.2', new Date(now - 2 * HOUR))
    recorder.record(`key_${keyId}`, '192.0.2.30', new Date(now - 30 * HOUR))
    recorder.record(`key_${keyId}`, '192.0.2.29', new Date(now - 29 * DAY))
    recorder.record(`key_${keyId}`, '192.0.2.31', new Date(now - 31 * DAY))

    const view = await viewOf(workspace.id, liveKey, new Date(now))
    expect(view).toMatchObject({ requests_24h: 2, requests_30d: 4 })
    // older uses recorded later do not move last use back
    expect(view.last_ip).toBe('198.51.100.9')
    expect(Date.parse(view.last_used_at!)).toBeGreaterThan(now - HOUR)
  })

  it('flags keys unused for 90 days', async () => {
    const { workspace, liveKey, testKey } = await t.createWorkspace()
    await getAccount(t, { key: liveKey })
    const now = Date.now()
    // the live key was used now, the test key never (it counts from its creation)
    expect((await viewOf(workspace.id, liveKey, new Date(now + 89 * DAY))).unused).toBe(false)
    expect((await viewOf(workspace.id, testKey, new Date(now + 89 * DAY))).unused).toBe(false)
    expect((await viewOf(workspace.id, liveKey, new Date(now + 91 * DAY))).unused).toBe(true)
    expect((await viewOf(workspace.id, testKey, new Date(now + 91 * DAY))).unused).toBe(true)

    const { keyId } = parseKeyString(testKey)!
    cradle().keyUsageRecorder.record(`key_${keyId}`, '192.0.2.1', new Date(now + 10 * DAY))
    expect((await viewOf(workspace.id, testKey, new Date(now + 91 * DAY))).unused).toBe(false)
  })

  it('flags a key whose stored last use is more than 90 days old', async () => {
    const { workspace, liveKey } = await t.createWorkspace()
    const { keyId } = parseKeyString(liveKey)!
    await cradle()
      .db.kysely.updateTable('api_keys')
      .set({ created_at: new Date(Date.now() - 200 * DAY).toISOString() })
      .where('id', '=', `key_${keyId}`)
      .execute()
    expect((await viewOf(workspace.id, liveKey)).unused).toBe(true)
    await getAccount(t, { key: liveKey })
    expect((await viewOf(workspace.id, liveKey)).unused).toBe(false)
  })
})

describe('KeyUsageRecorder when a write fails', () => {
  function failingOnce() {
    const written: KeyUsageDelta[][] = []
    let failures = 1
    const repo = {
      async recordUsage(deltas: KeyUsageDelta[]) {
        if (failures-- > 0) throw new Error('database unavailable')
        written.push(deltas.map((d) => ({ ...d })))
      },
    }
    const recorder = new KeyUsageRecorder({
      apiKeyRepository: repo as unknown as ApiKeyRepository,
      config: { keyUsageFlushMs: 60_000 },
    })
    return { recorder, written }
  }

  it('keeps the counts of a failed flush for the next one', async () => {
    const { recorder, written } = failingOnce()
    const at = new Date('2030-01-01T10:15:00Z')
    recorder.record('key_a', '192.0.2.1', at)
    recorder.record('key_a', '192.0.2.1', at)
    await expect(recorder.flush()).rejects.toThrow('database unavailable')
    recorder.record('key_a', '192.0.2.9', new Date('2030-01-01T10:20:00Z'))
    await recorder.flush()
    expect(written).toEqual([
      [
        {
          keyId: 'key_a',
          hour: '2030-01-01T10',
          count: 3,
          lastUsedAt: '2030-01-01T10:20:00.000Z',
          lastIp: '192.0.2.9',
        },
      ],
    ])
    await recorder.dispose()
  })

  it('goes on flushing after a failure', async () => {
    const { recorder, written } = failingOnce()
    recorder.record('key_b', '192.0.2.1')
    await recorder.flush().catch(() => {})
    await recorder.flush()
    recorder.record('key_b', '192.0.2.1')
    await recorder.flush()
    expect(written.map((batch) => batch.map((d) => d.count))).toEqual([[1], [1]])
    await recorder.dispose()
  })
})
