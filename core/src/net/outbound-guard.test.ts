import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OutboundGuard } from './outbound-guard.ts'

let server: Server
let port: number

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/to-metadata') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end()
    } else if (req.url === '/to-file') {
      res.writeHead(302, { location: 'file:///etc/passwd' }).end()
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
