import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, type TestKernel } from '../testing/index.ts'
import { MemoryRateLimitStore, type RateLimitStore, SqlRateLimitStore } from './rate-limit-store.ts'
import { RateLimiter, rateLimitHeaders } from './rate-limiter.ts'

// a window start, so tests pick their own position inside a window
const T0 = 1_800_000_000_000

type StoreCase = { name: string; open(): Promise<{ store: RateLimitStore; close(): Promise<void> }> }

const STORES: StoreCase[] = [
  { name: 'memory', open: async () => ({ store: new MemoryRateLimitStore(), close: async () => {} }) },
  ...(['sqlite', 'postgres'] as const).map((dialect) => ({
    name: `sql on ${dialect}`,
    async open() {
      const t = await startTestKernel({ dialect })
      return { store: new SqlRateLimitStore(t.kernel.db), close: () => t.close() }
    },
  })),
]

describe.each(STORES)('RateLimitStore ($name)', ({ open }) => {
  let store: RateLimitStore
  let close: () => Promise<void>
  let n = 0
  const bucket = () => `bucket-${++n}`

  beforeAll(async () => {
    ;({ store, close } = await open())
  })
  afterAll(() => close?.())

  it('counts hits in one fixed window and tells when it ends', async () => {
    const b = bucket()
    expect(await store.hit(b, 1000, T0)).toEqual({ count: 1, resetAt: T0 + 1000 })
    expect(await store.hit(b, 1000, T0 + 500)).toEqual({ count: 2, resetAt: T0 + 1000 })
    expect(await store.hit(b, 1000, T0 + 999)).toEqual({ count: 3, resetAt: T0 + 1000 })
  })

  it('starts over in the next window', async () => {
    const b = bucket()
    await store.hit(b, 1000, T0 + 100)
    await store.hit(b, 1000, T0 + 200)
    expect(await store.hit(b, 1000, T0 + 1000)).toEqual({ count: 1, resetAt: T0 + 2000 })
  })

  it('peeks at the count of the current window without adding to it', async () => {
    const b = bucket()
    expect(await store.peek(b, 1000, T0)).toEqual({ count: 0, resetAt: T0 + 1000 })
    await store.hit(b, 1000, T0 + 100)
    await store.hit(b, 1000, T0 + 200)
    expect(await store.peek(b, 1000, T0 + 300)).toEqual({ count: 2, resetAt: T0 + 1000 })
    expect(await store.peek(b, 1000, T0 + 300)).toEqual({ count: 2, resetAt: T0 + 1000 })
    expect(await store.peek(b, 1000, T0 + 1000)).toEqual({ count: 0, resetAt: T0 + 2000 })
  })

  it('keeps buckets apart', async () => {
    const a = bucket()
    const b = bucket()
    await store.hit(a, 1000, T0)
    await store.hit(a, 1000, T0)
    expect((await store.hit(b, 1000, T0)).count).toBe(1)
  })

  it('gives every simultaneous hit its own count', async () => {
    const b = bucket()
    const counts = await Promise.all(Array.from({ length: 20 }, () => store.hit(b, 60_000, T0)))
    expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    )
  })
})

describe('SqlRateLimitStore shared by two processes on postgres', () => {
  let first: TestKernel
  let second: TestKernel
  beforeAll(async () => {
    first = await startTestKernel({ dialect: 'postgres' })
    second = await startTestKernel({ dialect: 'postgres', pgSchema: first.pgSchema as string })
  })
  afterAll(async () => {
    await second?.close()
    await first?.close()
  })

  it('adds both processes’ hits into one count', async () => {
    const a = new SqlRateLimitStore(first.kernel.db)
    const b = new SqlRateLimitStore(second.kernel.db)
    expect((await a.hit('shared', 1000, T0)).count).toBe(1)
    expect((await b.hit('shared', 1000, T0 + 10)).count).toBe(2)
    expect((await a.hit('shared', 1000, T0 + 20)).count).toBe(3)
  })

  it('sweeps counters of windows long gone', async () => {
    const store = new SqlRateLimitStore(first.kernel.db)
    const old = T0 - 3_600_000
    await store.hit('old-bucket', 1000, old)
    await new SqlRateLimitStore(first.kernel.db).hit('other', 1000, T0)
    const rows = await first.kernel.db.kysely
      .selectFrom('rate_limit_counters')
      .select('bucket')
      .where('bucket', 'like', 'old-bucket@%')
      .execute()
    expect(rows).toEqual([])
  })
})

describe('RateLimiter', () => {
  const policy = { name: 'workspace', limit: 2, windowSeconds: 1 }

  it('allows the plan’s requests per window, then refuses with Retry-After', async () => {
    const limiter = new RateLimiter({ rateLimitStore: new MemoryRateLimitStore() })
    const first = await limiter.consume('ws_1', policy, T0 + 200)
    expect(first).toMatchObject({ allowed: true, remaining: 1, reset: 1 })
    expect(rateLimitHeaders(first)).toEqual({
      'RateLimit-Policy': '"workspace";q=2;w=1',
      RateLimit: '"workspace";r=1;t=1',
    })
    expect((await limiter.consume('ws_1', policy, T0 + 300)).allowed).toBe(true)
    const third = await limiter.consume('ws_1', policy, T0 + 400)
    expect(third).toMatchObject({ allowed: false, remaining: 0 })
    expect(rateLimitHeaders(third)).toEqual({
      'RateLimit-Policy': '"workspace";q=2;w=1',
      RateLimit: '"workspace";r=0;t=1',
      'Retry-After': '1',
    })
    expect((await limiter.consume('ws_1', policy, T0 + 1000)).allowed).toBe(true)
  })

  it('rounds the time to reset up to whole seconds for longer windows', async () => {
    const limiter = new RateLimiter({ rateLimitStore: new MemoryRateLimitStore() })
    const hourly = { name: 'link', limit: 1, windowSeconds: 3600 }
    await limiter.consume('ip', hourly, T0 + 1000)
    const refused = await limiter.consume('ip', hourly, T0 + 1500)
    expect(refused.reset).toBe(3599)
    expect(rateLimitHeaders(refused)['Retry-After']).toBe('3599')
  })

  it('keeps policies of the same bucket name apart', async () => {
    const limiter = new RateLimiter({ rateLimitStore: new MemoryRateLimitStore() })
    await limiter.consume('1.2.3.4', policy, T0)
    await limiter.consume('1.2.3.4', policy, T0)
    const other = await limiter.consume('1.2.3.4', { ...policy, name: 'anonymous' }, T0)
    expect(other.allowed).toBe(true)
  })
})
