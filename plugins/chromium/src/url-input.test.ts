import type { IncomingHttpHeaders } from 'node:http'
import { ProblemError } from '@docsvc/core/sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrowserPool } from './browser-pool.ts'
import {
  html,
  outputContext,
  pdfText,
  startTestServer,
  type TestServer,
  testPool,
} from './chromium-test-support.ts'
import { HtmlOutput } from './html-output.ts'
import { PdfOutput } from './pdf-output.ts'

// The guard allows 127.0.0.1/32 (the operator switch tests use), so the local server is reachable;
// link-local and metadata addresses stay refused.
let pool: BrowserPool
let server: TestServer
let other: TestServer
let htmlOut: HtmlOutput
const seen: { path: string; headers: IncomingHttpHeaders }[] = []
const otherSeen: IncomingHttpHeaders[] = []

const basic = `Basic ${Buffer.from('ann:s3cret').toString('base64')}`

beforeAll(async () => {
  other = await startTestServer({
    '/pixel.png': (req, res) => {
      otherSeen.push(req.headers)
      res.writeHead(404)
      res.end()
    },
  })
  server = await startTestServer({
    '/article': html('<h1>Quarterly report</h1><p>Revenue grew.</p>'),
    '/assets': html(
      `<h1>With assets</h1><img src="/missing.png"><img src="file:///etc/passwd">
       <img src="http://169.254.169.254/latest/meta-data/x.png"><img src="/slow.png">`,
    ),
    '/slow.png': (_req, res) => setTimeout(() => res.writeHead(204).end(), 400),
    '/to-metadata': (_req, res) =>
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    '/hang': () => {},
    '/late-selector': html(
      `<body><script>setTimeout(() => { const d = document.createElement('div'); d.id = 'ready'; d.textContent = 'chart drawn'; document.body.append(d) }, 300)</script></body>`,
    ),
    '/late-data': html(
      `<body><p id="out">waiting</p><script>addEventListener('load', () => setTimeout(() => fetch('/data').then((r) => r.text()).then((t) => { document.getElementById('out').textContent = t }), 50))</script></body>`,
    ),
    '/data': (_req, res) => setTimeout(() => res.end('figures loaded'), 200),
    '/private': (req, res) => {
      seen.push({ path: '/private', headers: req.headers })
      if (req.headers.authorization !== basic) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="reports"' })
        return res.end('who are you')
      }
      html(
        `<p>secret report for ${req.headers['x-tenant']} with cookie ${req.headers.cookie}</p><img src="${other.url('/pixel.png')}">`,
      )(req, res)
    },
    '/set-storage': html(
      `<body><script>localStorage.setItem('k', 'url-A'); document.cookie = 'c=url-A'; document.body.textContent = 'stored'</script></body>`,
    ),
    '/get-storage': html(
      `<body><script>document.body.textContent = 'ls=' + localStorage.getItem('k') + ' cookie=' + document.cookie</script></body>`,
    ),
  })
  pool = testPool(['127.0.0.1/32'], { slowAssetMs: 250 })
  await pool.start()
  htmlOut = new HtmlOutput(pool)
})

afterAll(async () => {
  await pool.stop()
  await server.close()
  await other.close()
})

const render = (doc: Parameters<HtmlOutput['render']>[0], ctx = outputContext()) =>
  htmlOut.render(doc, {}, ctx).then((f) => f.bytes.toString('utf8'))

const failure = (doc: Parameters<HtmlOutput['render']>[0]) =>
  htmlOut.render(doc, {}, outputContext()).then(
    () => {
      throw new Error('expected the render to fail')
    },
    (err: unknown) => {
      expect(err).toBeInstanceOf(ProblemError)
      return err as ProblemError
    },
  )

describe('url input through the guard proxy', () => {
  it('loads a page from an allowed network and prints it', async () => {
    expect(await render({ kind: 'url', url: server.url('/article') })).toContain('Quarterly report')
    const file = await new PdfOutput(pool).render(
      { kind: 'url', url: server.url('/article') },
      {},
      outputContext(),
    )
    expect(pdfText(file.bytes)).toContain('Revenue grew.')
  })

  it('refuses a redirect to the metadata address with url_not_allowed', async () => {
    const err = await failure({ kind: 'url', url: server.url('/to-metadata') })
    expect(err.code).toBe('url_not_allowed')
    expect(err.message).toMatch(/169\.254\.169\.254.*link/i)
  })

  it('refuses file: URLs as input', async () => {
    const err = await failure({ kind: 'url', url: 'file:///etc/passwd' })
    expect(err.code).toBe('url_not_allowed')
  })

  it('keeps going when assets fail: asset_failed for missing, file: and refused ones, slow_asset for slow ones', async () => {
    const ctx = outputContext()
    expect(await render({ kind: 'url', url: server.url('/assets') }, ctx)).toContain('With assets')
    const byCode = (code: string) => ctx.warnings.filter((w) => w.code === code).map((w) => w.message)
    const failed = byCode('asset_failed')
    expect(failed).toHaveLength(3)
    expect(failed.find((m) => m.includes('/missing.png'))).toMatch(/answered 404/)
    expect(failed.find((m) => m.startsWith('file:'))).toMatch(/file: URLs are not allowed/)
    expect(failed.find((m) => m.includes('169.254.169.254'))).toMatch(/was refused/)
    expect(byCode('slow_asset')).toEqual([expect.stringMatching(/slow\.png took \d+ ms/)])
  })

  it('fails with navigation_failed when the page cannot be loaded or answers an error', async () => {
    const closed = await startTestServer({})
    const url = closed.url('/')
    await closed.close()
    const refused = await failure({ kind: 'url', url })
    expect(refused.code).toBe('navigation_failed')
    expect(refused.message).toMatch(/ECONNREFUSED/)
    const missing = await failure({ kind: 'url', url: server.url('/nope') })
    expect(missing.code).toBe('navigation_failed')
    expect(missing.message).toMatch(/answered 404/)
  })

  it('fails with wait_timeout when the page never settles, and the next render works', async () => {
    const err = await failure({ kind: 'url', url: server.url('/hang'), wait: { timeout_ms: 800 } })
    expect(err.code).toBe('wait_timeout')
    expect(err.message).toMatch(/within 800 ms/)
    expect(await render({ kind: 'url', url: server.url('/article') })).toContain('Quarterly report')
  })

  it('waits for a selector, for network idle and for a delay', async () => {
    const late = await render({
      kind: 'url',
      url: server.url('/late-selector'),
      wait: { selector: '#ready' },
    })
    expect(late).toContain('chart drawn')
    const never = await failure({
      kind: 'url',
      url: server.url('/late-selector'),
      wait: { selector: '#never', timeout_ms: 700 },
    })
    expect(never.code).toBe('wait_timeout')
    const idle = await render({ kind: 'url', url: server.url('/late-data'), wait: { until: 'networkidle' } })
    expect(idle).toContain('figures loaded')
    const delayed = await render({ kind: 'url', url: server.url('/late-selector'), wait: { delay_ms: 600 } })
    expect(delayed).toContain('chart drawn')
    // the expression is the inline documents' one implementation (wait-conditions.ts)
    const expression = await render({
      kind: 'url',
      url: server.url('/late-selector'),
      wait: { expression: "document.getElementById('ready') !== null" },
    })
    expect(expression).toContain('chart drawn')
  })

  it('sends basic auth, headers and cookies to the page, and headers to no other origin', async () => {
    const page = await render({
      kind: 'url',
      url: server.url('/private'),
      http: {
        basic_auth: { username: 'ann', password: 's3cret' },
        headers: { 'x-tenant': 'acme' },
        cookies: [{ name: 'session', value: 'abc' }],
      },
    })
    expect(page).toContain('secret report for acme with cookie session=abc')
    expect(otherSeen.length).toBeGreaterThan(0)
    for (const headers of otherSeen) {
      expect(headers['x-tenant']).toBeUndefined()
      expect(headers.authorization).toBeUndefined()
    }
    const err = await failure({ kind: 'url', url: server.url('/private') })
    expect(err.code).toBe('navigation_failed')
  })

  it('gives every URL render a context of its own: nothing stored survives', async () => {
    expect(await render({ kind: 'url', url: server.url('/set-storage') })).toContain('stored')
    expect(await render({ kind: 'url', url: server.url('/get-storage') })).toContain('ls=null cookie=<')
  })
})
