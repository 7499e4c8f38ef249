import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProblemError } from '../kernel/problem-error.ts'
import type { HostResolver } from './host-resolver.ts'
import { OutboundGuard } from './outbound-guard.ts'

let server: Server
let port: number

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/to-metadata') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end()
    } else if (req.url === '/to-file') {
      res.writeHead(302, { location: 'file:///etc/passwd' }).end()
    } else if (req.url === '/drip') {
      // one byte a second for half a minute: never idle long enough for an idle timeout
      res.writeHead(200, { 'content-type': 'text/plain' })
      let sent = 0
      const timer = setInterval(() => {
        if (++sent >= 30 || res.destroyed) {
          clearInterval(timer)
          res.end()
        } else res.write('x')
      }, 1000)
      res.on('close', () => clearInterval(timer))
    } else if (req.url === '/hop') {
      res.writeHead(301, { location: '/hello' }).end()
    } else {
      res.end(`hello from ${req.url}`)
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

async function refusal(guard: OutboundGuard, url: string): Promise<string> {
  try {
    await guard.fetch(url, { timeoutMs: 2000 })
  } catch (err) {
    return (err as { code?: string }).code ?? String(err)
  }
  return 'fetched'
}

describe('OutboundGuard', () => {
  const closed = new OutboundGuard([])
  const open = new OutboundGuard(['127.0.0.1/32'])
  afterAll(async () => {
    await closed.close()
    await open.close()
  })

  it('refuses loopback, private, link-local and metadata addresses', async () => {
    for (const url of [
      `http://127.0.0.1:${port}/`,
      'http://127.0.0.1/',
      'http://[::1]/',
      'http://10.0.0.1/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://0.0.0.0/',
      'http://[::ffff:127.0.0.1]/',
    ]) {
      expect(await refusal(closed, url), url).toBe('url_not_allowed')
    }
  })

  it('refuses a name that resolves to loopback (checked at connection time)', async () => {
    expect(await refusal(closed, 'http://localhost/')).toBe('url_not_allowed')
    expect(await refusal(closed, `http://localhost:${port}/`)).toBe('url_not_allowed')
  })

  it('refuses other schemes, credentials and non-standard ports on public addresses', async () => {
    expect(await refusal(closed, 'file:///etc/passwd')).toBe('url_not_allowed')
    expect(await refusal(closed, 'ftp://example.com/')).toBe('url_not_allowed')
    expect(await refusal(closed, 'http://user:pw@example.com/')).toBe('url_not_allowed')
    expect(await refusal(closed, 'http://93.184.215.14:8080/')).toBe('url_not_allowed')
    expect(await refusal(closed, 'not a url')).toBe('url_not_allowed')
  })

  it('reaches networks the operator allows, on any port, and follows checked redirects', async () => {
    const res = await open.fetch(`http://127.0.0.1:${port}/hop`)
    expect(res.status).toBe(200)
    expect(res.body.toString()).toBe('hello from /hello')
    expect(await refusal(open, `http://127.0.0.1:${port}/to-metadata`)).toBe('url_not_allowed')
    expect(await refusal(open, `http://127.0.0.1:${port}/to-file`)).toBe('url_not_allowed')
    expect(await refusal(open, 'http://10.0.0.1/')).toBe('url_not_allowed')
  })

  it('does not follow redirects when told not to', async () => {
    const res = await open.fetch(`http://127.0.0.1:${port}/hop`, { maxRedirects: 0 })
    expect(res.status).toBe(301)
  })
})

async function failure(promise: Promise<unknown>): Promise<{ code: string; detail: string; ms: number }> {
  const started = Date.now()
  try {
    await promise
  } catch (err) {
    if (err instanceof ProblemError)
      return { code: err.code, detail: err.detail ?? '', ms: Date.now() - started }
    throw err
  }
  throw new Error('the fetch succeeded')
}

describe('OutboundGuard deadlines', () => {
  const open = new OutboundGuard(['127.0.0.1/32'])
  const never: HostResolver = () => new Promise(() => {})
  const silentDns = new OutboundGuard([], { resolver: never, dnsTimeoutMs: 300 })
  afterAll(async () => {
    await open.close()
    await silentDns.close()
  })

  it('ends a body that drips a byte a second at the fetch deadline, not when the server stops', async () => {
    const fetched = failure(open.fetch(`http://127.0.0.1:${port}/drip`, { timeoutMs: 1500 }))
    const { code, detail, ms } = await fetched
    expect([code, detail]).toEqual(['asset_fetch_failed', 'no answer within 1500 ms'])
    expect(ms).toBeLessThan(10_000)
  })

  it("ends it at the render's deadline when that comes first", async () => {
    const fetched = open.fetch(`http://127.0.0.1:${port}/drip`, {
      timeoutMs: 60_000,
      deadline: Date.now() + 1200,
    })
    const { code, detail, ms } = await failure(fetched)
    expect(code).toBe('asset_fetch_failed')
    expect(detail).toBe(`no complete answer from 127.0.0.1:${port} before the render's deadline`)
    expect(ms).toBeLessThan(10_000)
  })

  it('gives up on a DNS lookup that never answers at the DNS deadline, in the connection and the proxy check', async () => {
    const viaConnection = await failure(silentDns.fetch('http://silent.test/', { timeoutMs: 20_000 }))
    expect(viaConnection).toMatchObject({
      code: 'asset_fetch_failed',
      detail: 'no DNS answer for silent.test within 300 ms',
    })
    expect(viaConnection.ms).toBeLessThan(10_000)
    const viaProxyCheck = await failure(silentDns.resolveChecked(new URL('https://silent.test/')))
    expect(viaProxyCheck).toMatchObject({
      code: 'asset_fetch_failed',
      detail: 'no DNS answer for silent.test within 300 ms',
    })
  })
})

describe('OutboundGuard refusals', () => {
  it('tells the tenant a name is refused without the internal address it resolves to, and logs the address', async () => {
    const logged: Record<string, unknown>[] = []
    const guard = new OutboundGuard([], {
      resolver: async () => [{ address: '10.20.30.40', family: 4 }],
      log: { info: (details) => logged.push(details) },
    })
    try {
      for (const attempt of [
        guard.fetch('http://intranet.test/'),
        guard.resolveChecked(new URL('https://intranet.test/')),
      ]) {
        const { code, detail } = await failure(attempt)
        expect(code).toBe('url_not_allowed')
        expect(detail).toBe('the address of intranet.test is not allowed')
      }
      expect(logged[0]).toMatchObject({
        host: 'intranet.test',
        address: '10.20.30.40',
        reason: expect.stringMatching(/private/),
      })
    } finally {
      await guard.close()
    }
  })
})
