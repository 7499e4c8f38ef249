import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { probeRoutes } from '../http/probe-routes.fixture.ts'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../testing/index.ts'

// Two kernels on one PostgreSQL schema stand for two API processes of a cluster.
describe('Idempotency-Key across processes on postgres', () => {
  const probe = probeRoutes()
  let first: TestKernel
  let second: TestKernel
  let ws: TestWorkspace

  function post(t: TestKernel, url: string, idemKey: string, payload: Record<string, unknown>) {
    return t.inject({
      method: 'POST',
      url,
      key: ws.liveKey,
      headers: { 'idempotency-key': idemKey },
      payload,
    })
  }

  beforeAll(async () => {
    first = await startTestKernel({ dialect: 'postgres', extraV1Routes: [probe.routes] })
    second = await startTestKernel({
      dialect: 'postgres',
      pgSchema: first.pgSchema as string,
      extraV1Routes: [probe.routes],
    })
    ws = await first.createWorkspace()
  })
  afterAll(async () => {
    await second?.close()
    await first?.close()
  })

  it('shows one process the other one’s claim (409) and then its stored response', async () => {
    const key = `xproc-${Date.now()}`
    const gate = probe.holdNextSlow()
    const running = post(first, '/v1/test-slow', key, { job: 'x' })
    await gate.entered

    const during = await post(second, '/v1/test-slow', key, { job: 'x' })
    expect(during.statusCode).toBe(409)
    expect(during.json().code).toBe('idempotency_in_progress')

    gate.open()
    const done = await running
    expect(done.statusCode).toBe(202)

    const replay = await post(second, '/v1/test-slow', key, { job: 'x' })
    expect(replay.statusCode).toBe(202)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.headers.location).toBe(done.headers.location)
    expect(replay.body).toBe(done.body)
    expect(probe.calls.slow).toBe(1)
  })

  it('refuses the key in the other process when the body differs', async () => {
    const key = `xproc-reuse-${Date.now()}`
    expect((await post(first, '/v1/test-echo', key, { name: 'a' })).statusCode).toBe(201)
    const before = probe.calls.echo
    const reused = await post(second, '/v1/test-echo', key, { name: 'b' })
    expect(reused.statusCode).toBe(422)
    expect(reused.json().code).toBe('idempotency_key_reused')
    expect(probe.calls.echo).toBe(before)
  })

  it('lets only one of two simultaneous first requests run', async () => {
    const key = `xproc-race-${Date.now()}`
    const gate = probe.holdNextSlow()
    const before = probe.calls.slow
    const racing = [
      post(first, '/v1/test-slow', key, { race: true }),
      post(second, '/v1/test-slow', key, { race: true }),
    ]
    // the loser answers 409 at once while the winner waits at the gate
    await Promise.race(racing)
    gate.open()
    const [a, b] = await Promise.all(racing)
    if (!a || !b) throw new Error('two answers expected')
    const statuses = [a.statusCode, b.statusCode].sort()
    expect(statuses).toEqual([202, 409])
    expect(probe.calls.slow).toBe(before + 1)
  })
})
