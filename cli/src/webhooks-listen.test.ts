import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startTestKernel, TEST_DIALECTS, type TestKernel } from '@docsvc/core/testing'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCli } from './cli-test-support.ts'

describe.each(TEST_DIALECTS)('docsvc webhooks listen on %s', (dialect) => {
  let t: TestKernel
  let serviceUrl: string
  const app = { received: [] as { headers: IncomingHttpHeaders; raw: Buffer }[], server: createServer() }
  let appUrl: string

  beforeAll(async () => {
    // the service may call the CLI's receiver on this machine: the operator allows loopback
    t = await startTestKernel({
      dialect,
      env: { DOCSVC_NETWORK_ALLOW: '127.0.0.1/32' },
      roles: ['api', 'worker'],
    })
    t.kernel.container.cradle.webhookSettings.pollMs = 20
    serviceUrl = await t.kernel.app.listen({ port: 0, host: '127.0.0.1' })
    app.server.on('request', (req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        app.received.push({ headers: req.headers, raw: Buffer.concat(chunks) })
        res.writeHead(202).end()
      })
    })
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve))
    appUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/hooks`
  })
  afterAll(async () => {
    await t?.close()
    app.server.closeAllConnections()
    await new Promise((resolve) => app.server.close(resolve))
  })

  it('registers a test-mode endpoint, forwards verified deliveries to the local URL, removes the endpoint on exit', async () => {
    const ws = await t.createWorkspace()
    const cli = startCli(
      ['webhooks', 'listen', '--forward-to', appUrl, '--api-url', serviceUrl, '--api-key', ws.testKey],
      {},
    )
    try {
      const [, endpointId] = await cli.waitFor(/Ready: endpoint (whe_[0-9a-z]+)/)
      const [, secret] = await cli.waitFor(/Signing secret[^:]*: (whsec_\S+)/)
      const endpoint = await t.inject({
        method: 'GET',
        url: `/v1/webhook-endpoints/${endpointId}`,
        key: ws.testKey,
      })
      expect(endpoint.json()).toMatchObject({
        test: true,
        enabled: true,
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/),
      })

      const sent = await t.inject({
        method: 'POST',
        url: `/v1/webhook-endpoints/${endpointId}/test`,
        key: ws.testKey,
        payload: { event: 'render.failed' },
      })
      expect(sent.statusCode).toBe(202)
      await cli.waitFor(/render\.failed\s+evt_\S+\s+signature ok\s+-> 202/)
      const [forwarded] = app.received
      // the local app gets the delivery as the service signed it, and can verify it itself
      const body = new Webhook(secret!).verify(forwarded!.raw, forwarded!.headers as Record<string, string>)
      expect(body).toMatchObject({ type: 'render.failed', test: true })
      expect(forwarded!.headers['user-agent']).toBe('Doc-Service-Webhooks/1.0')
      // the service logs the local app's answer
      const settled = async () => {
        for (let i = 0; i < 200; i++) {
          const res = await t.inject({
            method: 'GET',
            url: `/v1/webhook-deliveries/${sent.json().id}`,
            key: ws.testKey,
          })
          if (res.json().status !== 'pending') return res.json()
          await new Promise((resolve) => setTimeout(resolve, 25))
        }
      }
      expect(await settled()).toMatchObject({ status: 'succeeded', response: { status: 202 } })
    } finally {
      expect(await cli.stop(10_000)).toBe(0)
    }
    expect(cli.output()).toMatch(/Removed endpoint whe_/)
    const list = await t.inject({ method: 'GET', url: '/v1/webhook-endpoints', key: ws.testKey })
    expect(list.json().data).toEqual([])
  })

  it('refuses a live key before registering anything', async () => {
    const ws = await t.createWorkspace()
    const cli = startCli(
      ['webhooks', 'listen', '--forward-to', appUrl, '--api-url', serviceUrl, '--api-key', ws.liveKey],
      {},
    )
    expect(await cli.stop(10_000).catch(() => null)).not.toBe(0)
    const list = await t.inject({ method: 'GET', url: '/v1/webhook-endpoints', key: ws.liveKey })
    expect(list.json().data).toEqual([])
  })
})
