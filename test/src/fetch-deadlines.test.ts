import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../../core/src/testing/index.ts'

// Outbound fetches end by the render's deadline (issue 13, item 6). The drip server sends a
// byte a second for a minute: no idle timeout ever fires, only a deadline for the whole fetch.
// The render's deadline is the shortest allowed (5 s); the data_url's own limit is 10 s.

let t: TestKernel
let ws: TestWorkspace
let drip: Server
let dripUrl: string

beforeAll(async () => {
  drip = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.write('{"a":"')
    const timer = setInterval(() => res.write('x'), 1000)
    res.on('close', () => clearInterval(timer))
    setTimeout(() => {
      clearInterval(timer)
      res.end('"}')
    }, 60_000).unref()
  })
  await new Promise<void>((resolve) => drip.listen(0, '127.0.0.1', resolve))
  dripUrl = `http://127.0.0.1:${(drip.address() as AddressInfo).port}/data.json`
  t = await startTestKernel({
    roles: ['api', 'worker'],
    env: { DOCSVC_NETWORK_ALLOW: '127.0.0.1/32', DOCSVC_RENDER_TIMEOUT_SECONDS: '5' },
  })
  ws = await t.createWorkspace({ plan: 'scale' })
}, 60_000)

afterAll(async () => {
  await t?.close()
  drip?.closeAllConnections()
  await new Promise<void>((resolve) => drip?.close(() => resolve()))
})

describe('outbound fetch deadlines', () => {
  it("a data_url that drips a byte a second fails at the render's deadline with data_url_fetch_failed", async () => {
    const started = Date.now()
    const res = await t.inject({
      method: 'POST',
      url: '/v1/pdf/from-markdown',
      key: ws.testKey,
      payload: { markdown: '# {{ a }}', templating: true, data_url: dripUrl, delivery: 'url' },
    })
    const took = Date.now() - started
    expect(res.statusCode, res.body).toBe(422)
    expect(res.json()).toMatchObject({
      code: 'data_url_fetch_failed',
      detail: expect.stringMatching(/before the render's deadline/),
    })
    // the drip would go on for a minute; the render's 5 s (plus a worker's start) end it
    expect(took).toBeLessThan(30_000)
  })
})
