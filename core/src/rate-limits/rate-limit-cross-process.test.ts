import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { probeRoutes } from '../http/probe-routes.fixture.ts'
import { startTestKernel, type TestKernel } from '../testing/index.ts'

const remainingOf = (header: unknown) => Number(/;r=(\d+);/.exec(String(header))?.[1])

// Two kernels on one PostgreSQL schema stand for two API processes behind a load balancer.
describe('rate limits across processes on postgres', () => {
  const probe = probeRoutes()
  let first: TestKernel
  let second: TestKernel

  beforeAll(async () => {
    first = await startTestKernel({ dialect: 'postgres', extraV1Routes: [probe.routes] })
    second = await startTestKernel({
      dialect: 'postgres',
      pgSchema: first.pgSchema as string,
      extraV1Routes: [probe.routes],
    })
  })
  afterAll(async () => {
    await second?.close()
    await first?.close()
  })

  it('counts a request to one process against the other one’s remaining requests', async () => {
    // a fresh workspace's first request to each process: separate counters would both say
    // r=49; a shared one says 48 the second time (or 49 again if a window ended in between,
    // which is why a few fresh workspaces are tried)
    const drops: number[] = []
    for (let attempt = 0; attempt < 3; attempt++) {
      const ws = await first.createWorkspace({ plan: 'scale', name: `Pair ${attempt}` })
      const a = await first.inject({ method: 'GET', url: '/v1/test-echo', key: ws.liveKey })
      const b = await second.inject({ method: 'GET', url: '/v1/test-echo', key: ws.liveKey })
      expect([a.statusCode, b.statusCode]).toEqual([200, 200])
      expect(remainingOf(a.headers.ratelimit)).toBe(49)
      drops.push(remainingOf(a.headers.ratelimit) - remainingOf(b.headers.ratelimit))
      if (drops.includes(1)) break
    }
    expect(drops).toContain(1)
  })

  it('holds a burst split across both processes to the one plan limit', async () => {
    const ws = await first.createWorkspace({ plan: 'free' })
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 === 0 ? first : second).inject({ method: 'GET', url: '/v1/test-echo', key: ws.liveKey }),
      ),
    )
    const refused = answers.filter((r) => r.statusCode === 429)
    expect(refused.length).toBeGreaterThan(0)
    for (const res of refused) {
      expect(res.json().code).toBe('rate_limited')
      expect(res.headers['retry-after']).toBe('1')
    }
    // a window allows 2: six requests within at most two windows leave at most 4 through
    expect(answers.filter((r) => r.statusCode === 200).length).toBeLessThanOrEqual(4)
  })
})
