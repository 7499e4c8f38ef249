import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'
import { probeRoutes } from './probe-routes.fixture.ts'

const MAX = 1024

/** A valid echo body of exactly `bytes` bytes. */
function bodyOf(bytes: number): string {
  const shell = '{"name":""}'
  return `{"name":"${'x'.repeat(bytes - shell.length)}"}`
}

function chunks(text: string, size = 300): Readable {
  const parts: Buffer[] = []
  for (let i = 0; i < text.length; i += size) parts.push(Buffer.from(text.slice(i, i + size)))
  return Readable.from(parts)
}

/** A real HTTP/1.1 request with Transfer-Encoding: chunked (no Content-Length at all). */
function postChunked(port: number, key: string, body: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/v1/test-echo',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        },
        (res) => {
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (d: string) => {
            text += d
          })
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
        },
      )
      req.on('error', reject)
      for (let i = 0; i < body.length; i += 300) req.write(body.slice(i, i + 300))
      req.end()
    },
  )
}

describe.each(TEST_DIALECTS)('request body limits on %s', (dialect) => {
  const probe = probeRoutes()
  let t: TestKernel
  let small: TestWorkspace
  let large: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({ dialect, extraV1Routes: [probe.routes] })
    const { planRepository } = t.kernel.container.cradle
    const starter = await planRepository.get('starter')
    if (!starter) throw new Error('starter plan missing')
    // a high request rate keeps these quick requests clear of the rate limit
    const limits = { ...starter.limits, max_body_bytes: MAX, requests_per_second: 1000 }
    await planRepository.update({ ...starter, limits })
    small = await t.createWorkspace({ plan: 'starter', name: 'Small' })
    large = await t.createWorkspace({ plan: 'scale', name: 'Large' })
  })
  afterAll(() => t?.close())

  function post(key: string, payload: string | Readable, headers: Record<string, string> = {}) {
    return t.inject({
      method: 'POST',
      url: '/v1/test-echo',
      key,
      headers: { 'content-type': 'application/json', ...headers },
      payload,
    })
  }

  it('accepts a body of exactly the plan’s max_body_bytes', async () => {
    const res = await post(small.testKey, bodyOf(MAX))
    expect(res.statusCode).toBe(201)
  })

  it('answers 413 payload_too_large one byte over, without running the handler', async () => {
    const before = probe.calls.echo
    const res = await post(small.testKey, bodyOf(MAX + 1))
    expect(res.statusCode).toBe(413)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ status: 413, code: 'payload_too_large' })
    expect(res.json().detail).toContain(String(MAX))
    expect(res.headers.ratelimit).toMatch(/^"workspace";/)
    expect(probe.calls.echo).toBe(before)
  })

  it('goes by the workspace’s plan', async () => {
    const res = await post(large.testKey, bodyOf(MAX + 1))
    expect(res.statusCode).toBe(201)
  })

  it('refuses on a declared Content-Length alone', async () => {
    const res = await post(small.testKey, '{"name":"x"}', { 'content-length': String(MAX + 1) })
    expect(res.statusCode).toBe(413)
    expect(res.json().code).toBe('payload_too_large')
  })

  it('counts a streamed body that declares no length', async () => {
    const before = probe.calls.echo
    const over = await post(small.testKey, chunks(bodyOf(3 * MAX)))
    expect(over.statusCode).toBe(413)
    expect(over.json().code).toBe('payload_too_large')
    expect(probe.calls.echo).toBe(before)

    const under = await post(small.testKey, chunks(bodyOf(MAX)))
    expect(under.statusCode).toBe(201)
    expect(under.json().body.name).toHaveLength(MAX - '{"name":""}'.length)
  })

  it('answers a real chunked HTTP request over the limit with 413', async () => {
    await t.kernel.app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = t.kernel.app.server.address() as AddressInfo
    const before = probe.calls.echo

    const over = await postChunked(port, small.testKey, bodyOf(3 * MAX))
    expect(over.status).toBe(413)
    expect(over.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(JSON.parse(over.body).code).toBe('payload_too_large')
    expect(probe.calls.echo).toBe(before)

    const under = await postChunked(port, small.testKey, bodyOf(MAX))
    expect(under.status).toBe(201)
    expect(probe.calls.echo).toBe(before + 1)
  })

  it('leaves no idempotency claim behind a 413', async () => {
    const key = `too-large-${dialect}`
    const refused = await post(small.testKey, bodyOf(MAX + 1), { 'idempotency-key': key })
    expect(refused.statusCode).toBe(413)
    const rows = await t.kernel.db.kysely
      .selectFrom('idempotency_keys')
      .select('key')
      .where('workspace_id', '=', small.workspace.id)
      .execute()
    expect(rows.map((r) => r.key)).not.toContain(`test:${key}`)
    const fixed = await post(small.testKey, bodyOf(100), { 'idempotency-key': key })
    expect(fixed.statusCode).toBe(201)
    expect(fixed.headers['idempotent-replayed']).toBeUndefined()
  })
})
