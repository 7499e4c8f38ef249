import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { probeRoutes } from '../http/probe-routes.fixture.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'

const ANONYMOUS_PER_SECOND = 2
// more than two windows' worth: even if the burst straddles one window edge, one window overflows
const burstSize = (limit: number) => limit * 2 + 1

function expectRateLimitHeaders(res: LightMyRequestResponse, policy: string, limit: number) {
  expect(res.headers['ratelimit-policy']).toBe(`"${policy}";q=${limit};w=1`)
  expect(res.headers.ratelimit).toMatch(new RegExp(`^"${policy}";r=\\d+;t=1$`))
}

function expectRateLimited(res: LightMyRequestResponse, policy: string, limit: number) {
  expect(res.statusCode).toBe(429)
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  expect(res.json()).toMatchObject({ status: 429, code: 'rate_limited' })
  expect(res.headers['retry-after']).toBe('1')
  expect(res.headers['ratelimit-policy']).toBe(`"${policy}";q=${limit};w=1`)
  expect(res.headers.ratelimit).toBe(`"${policy}";r=0;t=1`)
}

describe.each(TEST_DIALECTS)('rate limits through HTTP on %s', (dialect) => {
  const probe = probeRoutes()
  let t: TestKernel
  let ws: TestWorkspace
  let ip = 0
  // anonymous requests come from their own address per test, so tests do not share a bucket
  const freshIp = () => `198.51.100.${++ip}`

  beforeAll(async () => {
    t = await startTestKernel({
      dialect,
      env: { DOCSVC_ANONYMOUS_REQUESTS_PER_SECOND: String(ANONYMOUS_PER_SECOND) },
      extraV1Routes: [probe.routes],
    })
    ws = await t.createWorkspace({ plan: 'scale' })
  })
  afterAll(() => t?.close())

  const burst = (count: number, send: (i: number) => Promise<LightMyRequestResponse>) =>
    Promise.all(Array.from({ length: count }, (_, i) => send(i)))

  it('puts RateLimit-Policy and RateLimit on success and error answers alike', async () => {
    const { key: narrow } = await t.createKey({
      workspaceId: ws.workspace.id,
      mode: 'test',
      scopes: ['renders:read'],
    })
    const answers: [number, LightMyRequestResponse][] = [
      [200, await t.inject({ method: 'GET', url: '/v1/test-echo', key: ws.testKey })],
      [
        201,
        await t.inject({ method: 'POST', url: '/v1/test-echo', key: ws.testKey, payload: { name: 'a' } }),
      ],
      [400, await t.inject({ method: 'POST', url: '/v1/test-echo', key: ws.testKey, payload: { name: 5 } })],
      [
        415,
        await t.inject({
          method: 'POST',
          url: '/v1/test-echo',
          key: ws.testKey,
          headers: { 'content-type': 'text/plain' },
          payload: 'x',
        }),
      ],
      [403, await t.inject({ method: 'GET', url: '/v1/test-echo', key: narrow })],
    ]
    for (const [status, res] of answers) {
      expect(res.statusCode).toBe(status)
      expectRateLimitHeaders(res, 'workspace', 50)
      expect(res.headers['retry-after']).toBeUndefined()
    }
    // without a valid key the caller's address is what is counted
    const anonymous: [number, LightMyRequestResponse][] = [
      [401, await t.inject({ method: 'GET', url: '/v1/test-echo', remoteAddress: freshIp() })],
      [
        401,
        await t.inject({
          method: 'GET',
          url: '/v1/test-echo',
          key: 'doc_test_nope',
          remoteAddress: freshIp(),
        }),
      ],
      [404, await t.inject({ method: 'GET', url: '/v1/no-such-route', remoteAddress: freshIp() })],
    ]
    for (const [status, res] of anonymous) {
      expect(res.statusCode).toBe(status)
      expectRateLimitHeaders(res, 'anonymous', ANONYMOUS_PER_SECOND)
    }
  })

  it('counts down the remaining requests of the window', async () => {
    const other = await t.createWorkspace({ plan: 'scale', name: 'Countdown' })
    const remaining: number[] = []
    for (let i = 0; i < 3; i++) {
      const res = await t.inject({ method: 'GET', url: '/v1/test-echo', key: other.testKey })
      remaining.push(Number(/r=(\d+)/.exec(String(res.headers.ratelimit))?.[1]))
    }
    // strictly falling, unless a window ended in between (then it starts again at 49)
    for (let i = 1; i < remaining.length; i++) {
      expect([(remaining[i - 1] as number) - 1, 49]).toContain(remaining[i])
    }
    expect(remaining.every((r) => r <= 49)).toBe(true)
  })

  it('answers 429 rate_limited with Retry-After beyond the plan’s requests per second', async () => {
    const free = await t.createWorkspace({ plan: 'free', name: 'Free' })
    const answers = await burst(burstSize(2), () =>
      t.inject({ method: 'GET', url: '/v1/test-echo', key: free.liveKey }),
    )
    const refused = answers.filter((r) => r.statusCode === 429)
    expect(refused.length).toBeGreaterThan(0)
    for (const res of refused) expectRateLimited(res, 'workspace', 2)
    for (const res of answers.filter((r) => r.statusCode !== 429)) {
      expect(res.statusCode).toBe(200)
      expectRateLimitHeaders(res, 'workspace', 2)
    }
  })

  it('limits each workspace on its own', async () => {
    const noisy = await t.createWorkspace({ plan: 'free', name: 'Noisy' })
    const quiet = await t.createWorkspace({ plan: 'free', name: 'Quiet' })
    const answers = await burst(burstSize(2), () =>
      t.inject({ method: 'GET', url: '/v1/test-echo', key: noisy.testKey }),
    )
    expect(answers.some((r) => r.statusCode === 429)).toBe(true)
    const res = await t.inject({ method: 'GET', url: '/v1/test-echo', key: quiet.testKey })
    expect(res.statusCode).toBe(200)
  })

  it('follows a plan the operator edits', async () => {
    const { planRepository } = t.kernel.container.cradle
    const starter = await planRepository.get('starter')
    if (!starter) throw new Error('starter plan missing')
    await planRepository.update({ ...starter, limits: { ...starter.limits, requests_per_second: 3 } })
    const ws3 = await t.createWorkspace({ plan: 'starter', name: 'Edited' })
    const res = await t.inject({ method: 'GET', url: '/v1/test-echo', key: ws3.testKey })
    expectRateLimitHeaders(res, 'workspace', 3)
    const answers = await burst(burstSize(3), () =>
      t.inject({ method: 'GET', url: '/v1/test-echo', key: ws3.testKey }),
    )
    for (const refused of answers.filter((r) => r.statusCode === 429))
      expectRateLimited(refused, 'workspace', 3)
    expect(answers.some((r) => r.statusCode === 429)).toBe(true)
  })

  it('limits requests with bad keys per client address', async () => {
    const guesser = freshIp()
    const answers = await burst(burstSize(ANONYMOUS_PER_SECOND), (i) =>
      t.inject({ method: 'GET', url: '/v1/test-echo', key: `doc_test_guess${i}`, remoteAddress: guesser }),
    )
    const refused = answers.filter((r) => r.statusCode === 429)
    expect(refused.length).toBeGreaterThan(0)
    for (const res of refused) expectRateLimited(res, 'anonymous', ANONYMOUS_PER_SECOND)
    for (const res of answers.filter((r) => r.statusCode !== 429)) {
      expect(res.statusCode).toBe(401)
      expect(res.json().code).toBe('invalid_api_key')
    }

    // another address is not held back, nor is a valid key from the guessing address
    const bystander = await t.inject({
      method: 'GET',
      url: '/v1/test-echo',
      key: 'doc_test_x',
      remoteAddress: freshIp(),
    })
    expect(bystander.statusCode).toBe(401)
    const valid = await t.inject({
      method: 'GET',
      url: '/v1/test-echo',
      key: ws.testKey,
      remoteAddress: guesser,
    })
    expect(valid.statusCode).toBe(200)
  })

  it('leaves no idempotency claim behind for a rate-limited POST', async () => {
    const free = await t.createWorkspace({ plan: 'free', name: 'Idempotent' })
    const keys = Array.from({ length: burstSize(2) }, (_, i) => `rl-${dialect}-${i}`)
    const answers = await burst(keys.length, (i) =>
      t.inject({
        method: 'POST',
        url: '/v1/test-echo',
        key: free.testKey,
        headers: { 'idempotency-key': keys[i] as string },
        payload: { name: 'x' },
      }),
    )
    const rows = await t.kernel.db.kysely
      .selectFrom('idempotency_keys')
      .select('key')
      .where('workspace_id', '=', free.workspace.id)
      .execute()
    const claimed = new Set(rows.map((r) => r.key))
    expect(answers.some((r) => r.statusCode === 429)).toBe(true)
    answers.forEach((res, i) => {
      expect([201, 429]).toContain(res.statusCode)
      expect(claimed.has(`test:${keys[i]}`)).toBe(res.statusCode === 201)
    })
  })
})
