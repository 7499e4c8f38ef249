import { request } from 'node:http'
import { connect } from 'node:net'
import { ProblemError } from '@docsvc/core/sdk'
import { testOutboundGuard } from '@docsvc/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrowserPool } from './browser-pool.ts'
import { html, outputContext, startTestServer, type TestServer, testPool } from './chromium-test-support.ts'
import { GuardProxy, PROXY_HEADER } from './guard-proxy.ts'
import { HtmlOutput } from './html-output.ts'

// No DOCSVC_NETWORK_ALLOW here: loopback, private and metadata addresses are all refused.
let pool: BrowserPool
let server: TestServer
let htmlOut: HtmlOutput
const hits: string[] = []

beforeAll(async () => {
  server = await startTestServer({
    '/secret': (req, res) => {
      hits.push(req.url ?? '')
      html('<p>internal secret</p>')(req, res)
    },
  })
  pool = testPool([])
  await pool.start()
  htmlOut = new HtmlOutput(pool)
})

afterAll(async () => {
  await pool.stop()
  await server.close()
})

describe('Chromium without an allowed network', () => {
  it('refuses a loopback URL input with url_not_allowed before anything is fetched', async () => {
    const err = await htmlOut
      .render({ kind: 'url', url: server.url('/secret') }, {}, outputContext())
      .catch((e) => e)
    expect(err).toBeInstanceOf(ProblemError)
    expect(err.code).toBe('url_not_allowed')
    expect(hits).toEqual([])
  })

  it('refuses file:, and loopback over http, https and fetch() from inside HTML, as warnings', async () => {
    const ctx = outputContext()
    const out = await htmlOut.render(
      {
        kind: 'html',
        html: `<body><p>visible</p>
          <img src="file:///etc/passwd">
          <img src="${server.url('/secret?img')}">
          <img src="https://127.0.0.1:${new URL(server.origin).port}/secret?tls">
          <iframe src="http://[::1]:${new URL(server.origin).port}/secret?v6"></iframe>
          <script>fetch(${JSON.stringify(server.url('/secret?fetch'))}).then(
            (r) => r.text().then((t) => { document.body.dataset.fetched = t }),
            () => { document.body.dataset.fetched = 'blocked' })</script>
        </body>`,
      },
      {},
      ctx,
    )
    const text = out.bytes.toString('utf8')
    expect(text).toContain('visible')
    expect(text).not.toContain('internal secret')
    expect(hits).toEqual([])
    const failed = ctx.warnings.filter((w) => w.code === 'asset_failed').map((w) => w.message)
    expect(failed.find((m) => m.startsWith('file:'))).toMatch(/file: URLs are not allowed/)
    expect(failed.find((m) => m.includes('?img'))).toMatch(/was refused: .*loopback/)
    expect(failed.find((m) => m.includes('?tls'))).toMatch(/was refused: .*loopback/)
    expect(failed.find((m) => m.includes('?v6'))).toMatch(/was refused/)
  })
})

describe('the guard proxy', () => {
  let proxy: GuardProxy
  let port: number

  beforeAll(async () => {
    proxy = new GuardProxy(testOutboundGuard([]))
    port = await proxy.listen()
  })

  afterAll(async () => {
    await proxy.close()
  })

  it('answers a refused plain request with 403 and its own token, without connecting', async () => {
    const res = await new Promise<{ status: number; header: string | undefined }>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: server.url('/secret'), method: 'GET' }, (r) => {
        r.resume()
        resolve({ status: r.statusCode ?? 0, header: r.headers[PROXY_HEADER] as string | undefined })
      })
        .on('error', reject)
        .end()
    })
    expect(res.status).toBe(403)
    expect(res.header).toBe(`${proxy.token}:refused`)
    expect(hits).toEqual([])
  })

  it('refuses a CONNECT tunnel to the metadata address and remembers why', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write('CONNECT 169.254.169.254:443 HTTP/1.1\r\n\r\n'),
      )
      let text = ''
      socket.on('data', (d) => {
        text += d.toString()
      })
      socket.on('close', () => resolve(text))
      socket.on('error', reject)
    })
    expect(answer).toMatch(/^HTTP\/1\.1 403/)
    expect(proxy.problemWith('169.254.169.254')).toMatchObject({
      refused: true,
      reason: expect.stringMatching(/linkLocal/),
    })
  })

  it('refuses requests that are not absolute http URLs', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/relative', method: 'GET' }, (r) => {
        r.resume()
        resolve(r.statusCode ?? 0)
      })
        .on('error', reject)
        .end()
    })
    expect(status).toBe(400)
  })

  it('answers every bad CONNECT target with 400 and a closed socket, and lives on', async () => {
    const unhandled: unknown[] = []
    const record = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', record)
    // an allowed network, so a bad port is not refused before it would reach connect()
    const open = new GuardProxy(testOutboundGuard(['127.0.0.1/32']))
    const openPort = await open.listen()
    try {
      for (const target of [
        'example.com:99999',
        '127.0.0.1:0',
        '127.0.0.1:65536',
        '[zz]:443',
        '%%%:443',
        'exa%mple.com:80',
        ':443',
        'example.com',
      ]) {
        expect(await connectAnswer(openPort, target), target).toMatch(/^HTTP\/1\.1 400 /)
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(unhandled).toEqual([])
      // still serving: a good tunnel to the allowed test server opens
      expect(await connectAnswer(openPort, new URL(server.origin).host, true)).toMatch(/^HTTP\/1\.1 200 /)
    } finally {
      process.off('unhandledRejection', record)
      await open.close()
    }
  })
})

/** What the proxy answers a CONNECT to `target` with, up to its close (or the first answer). */
function connectAnswer(proxyPort: number, target: string, firstAnswer = false): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(proxyPort, '127.0.0.1', () =>
      socket.write(`CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n\r\n`),
    )
    let text = ''
    socket.on('data', (d) => {
      text += d.toString()
      if (firstAnswer && text.includes('\r\n\r\n')) socket.destroy()
    })
    socket.on('close', () => resolve(text))
    socket.on('error', reject)
  })
}
