import http from 'node:http'
import type { AddressInfo } from 'node:net'
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  startTestKernel,
  TEST_DIALECTS,
  type TestKernel,
  type TestWorkspace,
} from '../../core/src/testing/index.ts'
import { type BadInputTarget, runBarrage } from './bad-input-case.ts'
import { pathsAndQueries } from './bad-input-path-cases.ts'
import { deepAndHuge, randomBodies, wrongTypes } from './bad-input-payload-cases.ts'
import { badInputRoutes } from './bad-input-routes.ts'
import {
  garbageRequests,
  garbledKeys,
  malformedHeaders,
  oversizedHeaders,
  unknownRoutesAndMethods,
} from './bad-input-transport-cases.ts'
import { problemOf, problemViolations } from './problem-check.ts'
import { seededRandom, seedFromEnv } from './seeded-random.ts'
import { fetchWire, sendRaw, sendRequest, type WireResponse } from './wire-client.ts'

const SEED = seedFromEnv()
const OUR_REQUEST_ID = /^req_[0-9a-z]{26}$/
const MB = 1024 * 1024

/** Lifts the plans' request rates: the barrage is about parsing, not about rate limits. */
async function liftRateLimits(t: TestKernel, planIds: string[]): Promise<void> {
  const { planRepository } = t.kernel.container.cradle
  for (const id of planIds) {
    const plan = await planRepository.get(id)
    if (!plan) throw new Error(`plan ${id} missing`)
    await planRepository.update({ ...plan, limits: { ...plan.limits, requests_per_second: 1_000_000 } })
  }
}

function openConnections(t: TestKernel): Promise<number> {
  return new Promise((resolve, reject) =>
    t.kernel.app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
  )
}

/** A chunked upload (no Content-Length), so only counting the bytes can stop it. */
function postChunked(port: number, key: string, totalBytes: number): Promise<WireResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/probe/itm_1',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        timeout: 15_000,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers as Record<string, string>,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
      },
    )
    req.on('timeout', () => req.destroy(new Error('no answer within 15 s')))
    // the server may answer and stop reading before all is sent
    req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'EPIPE' ? undefined : reject(err)))
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    let sent = 0
    const pump = () => {
      while (sent < totalBytes) {
        sent += chunk.length
        if (!req.write(chunk)) {
          req.once('drain', pump)
          return
        }
      }
      req.end()
    }
    req.write('{"name":"a","pad":"')
    pump()
  })
}

describe.each(TEST_DIALECTS)('bad input over real sockets on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace
  let free: TestWorkspace
  let target: BadInputTarget
  const random = seededRandom(SEED)

  beforeAll(async () => {
    t = await startTestKernel({
      dialect,
      env: { DOCSVC_ANONYMOUS_REQUESTS_PER_SECOND: '1000000' },
      extraV1Routes: [badInputRoutes],
    })
    ws = await t.createWorkspace({ plan: 'scale' })
    free = await t.createWorkspace({ plan: 'free' })
    await liftRateLimits(t, ['scale', 'free'])
    await t.kernel.app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = t.kernel.app.server.address() as AddressInfo
    target = { port, base: `http://127.0.0.1:${port}`, key: ws.testKey }
  })
  afterAll(() => t?.close())

  it('a valid request passes, so the 4xx answers below are about the input', async () => {
    const ok = await sendRequest(target.port, {
      method: 'POST',
      target: '/v1/probe/itm_1',
      headers: [
        ['Authorization', `Bearer ${ws.testKey}`],
        ['Content-Type', 'application/json'],
      ],
      body: '{"name":"a","count":3,"tags":["x"],"options":{"mode":"fast"}}',
    })
    expect(ok.status, ok.body).toBe(201)
    const list = await sendRequest(target.port, {
      target: '/v1/probe?limit=5&order=asc',
      headers: [['X-API-Key', ws.testKey]],
    })
    expect(list.status, list.body).toBe(200)
  })

  it('answers bytes that are not HTTP with problem+json written to the socket', async () => {
    expect(await runBarrage(garbageRequests(random, target, 60), SEED)).toEqual([])
  })

  it('answers oversized headers (64 KB and more) with 431 headers_too_large', async () => {
    expect(await runBarrage(oversizedHeaders(random, target), SEED, 4)).toEqual([])
  })

  it('answers malformed header names and values with a 4xx problem', async () => {
    expect(await runBarrage(malformedHeaders(random, target, 63), SEED)).toEqual([])
  })

  it('answers garbled keys in Authorization and X-API-Key with 401 (or 400 where HTTP forbids the bytes)', async () => {
    expect(await runBarrage(garbledKeys(random, target, 24), SEED)).toEqual([])
  })

  it('answers bodies that are not JSON, and other content types, with 400 or 415', async () => {
    expect(await runBarrage(randomBodies(random, target, 48), SEED)).toEqual([])
  })

  it('answers wrong JSON types and out-of-range values with validation_error pointing at the field', async () => {
    expect(await runBarrage(wrongTypes(random, target, 40), SEED)).toEqual([])
  })

  it('refuses 10,000-deep JSON and survives huge arrays and objects', async () => {
    expect(await runBarrage(deepAndHuge(target), SEED, 3)).toEqual([])
  })

  it('answers unicode, emoji and broken percent-encoding in paths and query strings', async () => {
    expect(await runBarrage(pathsAndQueries(random, target, 70), SEED)).toEqual([])
  })

  it('answers unknown routes and methods (CONNECT included) with a 4xx problem', async () => {
    expect(await runBarrage(unknownRoutesAndMethods(random, target, 40), SEED)).toEqual([])
  })

  it('handles 5 MB bodies: validated under a large plan, 413 over a small one, 401 without a key', async () => {
    const json = (key?: string) => ({
      'content-type': 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    })
    const fiveMb = JSON.stringify({ name: 'n'.repeat(5 * MB) })
    const post = (body: string | Buffer, key?: string) =>
      fetchWire(`${target.base}/v1/probe/itm_1`, { method: 'POST', headers: json(key), body })

    const tooLong = await post(fiveMb, ws.testKey)
    expect(problemViolations(tooLong, { status: 400, codes: ['validation_error'] })).toEqual([])
    expect(problemOf(tooLong).errors?.[0]).toMatchObject({ path: '/name', code: 'maxLength' })

    const binary = await post(random.bytes(5 * MB), ws.testKey)
    expect(problemViolations(binary, { status: 400, codes: ['invalid_json'] })).toEqual([])

    // the Free plan takes 5 MB bodies at most
    const overFree = await post(`${fiveMb}${' '.repeat(1024)}`, free.testKey)
    expect(problemViolations(overFree, { status: 413, codes: ['payload_too_large'] })).toEqual([])

    const chunked = await postChunked(target.port, free.testKey, 6 * MB)
    expect(problemViolations(chunked, { status: 413, codes: ['payload_too_large'] })).toEqual([])

    const unkeyed = await post(fiveMb)
    expect(problemViolations(unkeyed, { status: 401, codes: ['authentication_required'] })).toEqual([])
  })

  it('echoes a sane X-Request-Id and replaces an insane one with its own req_ id', async () => {
    for (const path of ['/v1/account', '/no/such/route', '/healthz']) {
      const res = await sendRequest(target.port, { target: path, headers: [['X-Request-Id', 'abc-123']] })
      expect(res.headers['x-request-id'], path).toBe('abc-123')
      if (res.status >= 400) expect(problemOf(res).request_id).toBe('abc-123')
    }
    const insane: [string, string | Buffer][][] = [
      [['X-Request-Id', 'r'.repeat(129)]],
      [['X-Request-Id', 'has spaces in it']],
      [['X-Request-Id', Buffer.from('ünïcödé-🔑')]],
      [['X-Request-Id', Buffer.from('latin1-\xe9', 'latin1')]],
      [['X-Request-Id', '<script>alert(1)</script>']],
      [['X-Request-Id', '../../etc/passwd']],
      [['X-Request-Id', '']],
      [
        ['X-Request-Id', 'first'],
        ['X-Request-Id', 'second'],
      ],
    ]
    for (const headers of insane) {
      const res = await sendRequest(target.port, { target: '/v1/account', headers })
      const label = JSON.stringify(headers.map(([, v]) => v.toString()))
      expect(problemViolations(res, { status: 401 }), label).toEqual([])
      expect(res.headers['x-request-id'], label).toMatch(OUR_REQUEST_ID)
    }
    // answers written straight to the socket carry our own id too, in header and body
    const raw = await sendRaw(target.port, 'NOT HTTP\r\nX-Request-Id: abc-123\r\n\r\n', { halfClose: true })
    expect(problemViolations(raw, { status: 400 })).toEqual([])
    expect(raw.headers['x-request-id']).toMatch(OUR_REQUEST_ID)
  })

  it('answers an HTTP/1.1 request without Host, and an unknown Expect, as problem+json', async () => {
    const noHost = await sendRequest(target.port, { target: '/v1/account', noHost: true })
    expect(problemViolations(noHost, { status: 400, codes: ['validation_error'] })).toEqual([])
    const expectation = await sendRequest(target.port, {
      target: '/v1/account',
      headers: [['Expect', '200-ok']],
    })
    expect(problemViolations(expectation, { status: 401 })).toEqual([])
  })

  it('answers a client that half-closes right after its request', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await sendRequest(
        target.port,
        { target: '/v1/probe/slow', headers: [['X-API-Key', ws.testKey]] },
        { halfClose: true },
      )
      expect(res.status, res.body).toBe(200)
    }
  })

  it('closes a connection after a raw error answer even when the client keeps it open', async () => {
    const before = await openConnections(t)
    const socket = net.connect({ port: target.port, host: '127.0.0.1', allowHalfOpen: true })
    const answer = new Promise<string>((resolve) => {
      const chunks: Buffer[] = []
      socket.on('data', (c: Buffer) => chunks.push(c))
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')))
    })
    socket.on('error', () => {})
    socket.write('\x00\x01 not http\r\n\r\n')
    expect(await answer).toMatch(/^HTTP\/1\.1 400 /)
    const deadline = Date.now() + 4000
    while ((await openConnections(t)) > before && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100))
    expect(await openConnections(t)).toBeLessThanOrEqual(before)
    socket.destroy()
  })

  it('is still healthy afterwards: /healthz answers 200 and a valid key still works', async () => {
    const health = await fetchWire(`${target.base}/healthz`)
    expect(health.status).toBe(200)
    expect(JSON.parse(health.body)).toEqual({ status: 'ok' })
    const account = await fetchWire(`${target.base}/v1/account`, {
      headers: { authorization: `Bearer ${ws.liveKey}` },
    })
    expect(account.status, account.body).toBe(200)
    expect(JSON.parse(account.body).workspace.id).toBe(ws.workspace.id)
    const post = await fetchWire(`${target.base}/v1/probe/itm_ok`, {
      method: 'POST',
      headers: { 'x-api-key': ws.testKey, 'content-type': 'application/json' },
      body: '{"name":"still fine"}',
    })
    expect(post.status, post.body).toBe(201)
  })
})
