import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, TEST_DIALECTS, type TestKernel } from '../testing/index.ts'
import { type IdempotencyStore, REPLAY_WINDOW_MS } from './idempotency-store.ts'

const MINUTE = 60_000

describe.each(TEST_DIALECTS)('IdempotencyStore on %s', (dialect) => {
  let t: TestKernel
  let store: IdempotencyStore
  let workspaceId: string
  let n = 0
  const key = () => `store-${++n}`

  beforeAll(async () => {
    t = await startTestKernel({ dialect })
    store = t.kernel.container.cradle.idempotencyStore
    workspaceId = (await t.createWorkspace()).workspace.id
  })
  afterAll(() => t?.close())

  it('replays the stored status, headers and exact body bytes', async () => {
    const k = key()
    const body = Buffer.from([0, 255, 1, 254, 37, 80, 68, 70])
    const headers = { 'content-type': 'application/pdf', location: '/v1/renders/rnd_1' }
    expect(await store.start(workspaceId, k, 'fp')).toEqual({ kind: 'claimed' })
    await store.complete(workspaceId, k, { status: 202, headers, body })
    const again = await store.start(workspaceId, k, 'fp')
    if (again.kind !== 'replay') throw new Error('expected a replay')
    expect(again.response.status).toBe(202)
    expect(again.response.headers).toEqual(headers)
    expect(Buffer.compare(again.response.body, body)).toBe(0)
  })

  it('says in progress (with Retry-After) until the claim completes', async () => {
    const k = key()
    await store.start(workspaceId, k, 'fp')
    await expect(store.start(workspaceId, k, 'fp')).rejects.toMatchObject({
      code: 'idempotency_in_progress',
      extras: { headers: { 'Retry-After': '1' } },
    })
  })

  it('checks the fingerprint before the state: another body is reused even while in progress', async () => {
    const k = key()
    await store.start(workspaceId, k, 'fp-1')
    await expect(store.start(workspaceId, k, 'fp-2')).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    })
  })

  it('release frees an in-progress claim but never a stored response', async () => {
    const running = key()
    await store.start(workspaceId, running, 'fp')
    await store.release(workspaceId, running)
    expect(await store.start(workspaceId, running, 'other')).toEqual({ kind: 'claimed' })

    const done = key()
    await store.start(workspaceId, done, 'fp')
    await store.complete(workspaceId, done, { status: 200, headers: {}, body: Buffer.from('ok') })
    await store.release(workspaceId, done)
    expect((await store.start(workspaceId, done, 'fp')).kind).toBe('replay')
  })

  it('lets another process take over a claim whose owner died (stale after 15 minutes)', async () => {
    const k = key()
    const t0 = new Date()
    await store.start(workspaceId, k, 'fp', t0)
    await expect(
      store.start(workspaceId, k, 'fp', new Date(t0.getTime() + 14 * MINUTE)),
    ).rejects.toMatchObject({
      code: 'idempotency_in_progress',
    })
    expect(await store.start(workspaceId, k, 'fp', new Date(t0.getTime() + 16 * MINUTE))).toEqual({
      kind: 'claimed',
    })
  })

  it('keeps keys of different workspaces apart', async () => {
    const k = key()
    const other = (await t.createWorkspace({ name: 'Other' })).workspace.id
    await store.start(workspaceId, k, 'fp-a')
    expect(await store.start(other, k, 'fp-b')).toEqual({ kind: 'claimed' })
  })

  it('purges rows past their 24 hours and keeps the others', async () => {
    const old = key()
    const fresh = key()
    const t0 = new Date(Date.now() - REPLAY_WINDOW_MS - MINUTE)
    await store.start(workspaceId, old, 'fp', t0)
    await store.complete(workspaceId, old, { status: 200, headers: {}, body: Buffer.from('old') })
    await store.start(workspaceId, fresh, 'fp')
    expect(await store.purgeExpired()).toBeGreaterThanOrEqual(1)
    const left = await t.kernel.db.kysely
      .selectFrom('idempotency_keys')
      .select('key')
      .where('key', 'in', [old, fresh])
      .execute()
    expect(left.map((r) => r.key)).toEqual([fresh])
  })
})
