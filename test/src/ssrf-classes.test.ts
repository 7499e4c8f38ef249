import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mapWithLimit } from '../../core/src/kernel/map-with-limit.ts'
import type { HostResolver } from '../../core/src/net/host-resolver.ts'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../../core/src/testing/index.ts'
import { postWebhook } from '../../core/src/webhooks/webhook-sender.ts'

// SSRF classes (issue 13): every kind of address an attacker reaches for, sent to every way the
// service fetches a URL. Loopback only, no internet:
// - the test's own site listens on 127.0.0.2, the one address DOCSVC_NETWORK_ALLOW opens (the
//   switch the operator has; tests use it, never a bypass). It serves pages and redirects.
// - a canary listens on 127.0.0.1 and ::1 on the same port: any connection it sees is an escape.
//   Every loopback class (127.0.0.1 in all its spellings, and the IPv6 forms that carry it)
//   points at that port, so a class that got through would be counted there.
// - a fake DNS answers the names: canary.test is 127.0.0.1, intranet.test 10.1.2.3, and
//   rebind.test answers 127.0.0.2 (the allowed stand-in for a public address) the first time,
//   127.0.0.1 after: a guard that checked one answer and connected with another would escape.

interface SsrfClass {
  id: string
  name: string
  url: (port: number) => string
}

const CLASSES: SsrfClass[] = [
  { id: 'loopback-v4', name: 'loopback 127.0.0.1', url: (p) => `http://127.0.0.1:${p}/` },
  { id: 'loopback-v6', name: 'loopback ::1', url: (p) => `http://[::1]:${p}/` },
  { id: 'loopback-https', name: 'loopback over https', url: (p) => `https://127.0.0.1:${p}/` },
  { id: 'rfc1918-10', name: 'RFC 1918 10/8', url: () => 'http://10.0.0.1/' },
  { id: 'rfc1918-172', name: 'RFC 1918 172.16/12', url: () => 'http://172.16.5.4/' },
  { id: 'rfc1918-192', name: 'RFC 1918 192.168/16', url: () => 'http://192.168.1.1/' },
  { id: 'link-local-v4', name: 'link-local 169.254/16', url: () => 'http://169.254.10.10/' },
  { id: 'link-local-v6', name: 'link-local fe80::/10', url: () => 'http://[fe80::1]/' },
  {
    id: 'metadata-v4',
    name: 'metadata 169.254.169.254',
    url: () => 'http://169.254.169.254/latest/meta-data/',
  },
  {
    id: 'metadata-v6',
    name: 'metadata fd00:ec2::254',
    url: () => 'http://[fd00:ec2::254]/latest/meta-data/',
  },
  { id: 'cgnat', name: 'CGNAT 100.64/10', url: () => 'http://100.64.0.1/' },
  { id: 'this-network', name: '0.0.0.0/8', url: (p) => `http://0.0.0.0:${p}/` },
  { id: 'v4-mapped', name: 'IPv4-mapped ::ffff:127.0.0.1', url: (p) => `http://[::ffff:127.0.0.1]:${p}/` },
  { id: 'v4-compatible', name: 'IPv4-compatible ::127.0.0.1', url: (p) => `http://[::127.0.0.1]:${p}/` },
  { id: 'nat64', name: 'NAT64 64:ff9b::127.0.0.1', url: (p) => `http://[64:ff9b::127.0.0.1]:${p}/` },
  { id: 'nat64-local', name: 'NAT64 local-use 64:ff9b:1::/48', url: () => 'http://[64:ff9b:1::a00:1]/' },
  { id: '6to4', name: '6to4 2002:7f00:1::', url: (p) => `http://[2002:7f00:1::1]:${p}/` },
  { id: 'teredo', name: 'Teredo with server 10.0.0.1', url: () => 'http://[2001:0:a00:1::1]/' },
  { id: 'decimal', name: 'decimal 2130706433', url: (p) => `http://2130706433:${p}/` },
  { id: 'octal', name: 'octal 0177.0.0.1', url: (p) => `http://0177.0.0.1:${p}/` },
  { id: 'hex', name: 'hex 0x7f.1', url: (p) => `http://0x7f.1:${p}/` },
  { id: 'short', name: 'short 127.1', url: (p) => `http://127.1:${p}/` },
  { id: 'unique-local', name: 'unique-local fc00::/7', url: () => 'http://[fd12:3456::1]/' },
  { id: 'multicast-v4', name: 'multicast 224.0.0.1', url: () => 'http://224.0.0.1/' },
  { id: 'broadcast', name: 'broadcast 255.255.255.255', url: () => 'http://255.255.255.255/' },
  { id: 'multicast-v6', name: 'multicast ff02::1', url: () => 'http://[ff02::1]/' },
  { id: 'name-loopback', name: 'a name for 127.0.0.1', url: (p) => `http://canary.test:${p}/` },
  { id: 'name-private', name: 'a name for 10.1.2.3', url: () => 'http://intranet.test/' },
  { id: 'rebinding', name: 'a rebinding name', url: (p) => `http://rebind.test:${p}/` },
]

/** Schemes other than http(s); `data:` only where it is not allowed (a page's own images may use it). */
const SCHEMES: (SsrfClass & { inPages: boolean })[] = [
  { id: 'file', name: 'file:', url: () => 'file:///etc/passwd', inPages: true },
  { id: 'ftp', name: 'ftp:', url: (p) => `ftp://127.0.0.1:${p}/`, inPages: true },
  { id: 'gopher', name: 'gopher:', url: (p) => `gopher://127.0.0.1:${p}/_GET`, inPages: true },
  { id: 'data', name: 'data:', url: () => 'data:application/json,{"secret":1}', inPages: false },
  { id: 'javascript', name: 'javascript:', url: () => 'javascript:alert(1)', inPages: false },
]

/** Tags the URL with its case, so a warning (or a canary hit) names it after redirects. */
function marked(url: string, tag: string): string {
  if (url.startsWith('data:') || url.startsWith('javascript:')) return url
  return `${url}${url.includes('?') ? '&' : '?'}c=${tag}`
}

let t: TestKernel
let ws: TestWorkspace
let site: Server
const canaries: Server[] = []
let port: number
let origin: string
const canaryHits: string[] = []
/** the `c` tag of each request the allowed site served */
const siteHits: string[] = []
const dnsCalls = new Map<string, number>()

const resolver: HostResolver = async (host) => {
  const n = (dnsCalls.get(host) ?? 0) + 1
  dnsCalls.set(host, n)
  if (host === 'canary.test') return [{ address: '127.0.0.1', family: 4 }]
  if (host === 'intranet.test') return [{ address: '10.1.2.3', family: 4 }]
  if (host === 'rebind.test') return [{ address: n === 1 ? '127.0.0.2' : '127.0.0.1', family: 4 }]
  throw Object.assign(new Error(`${host} not found`), { code: 'ENOTFOUND' })
}

function listen(server: Server, p: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(p, host, () => resolve())
  })
}

/** The site on 127.0.0.2 and the canaries on 127.0.0.1 and ::1, all on one port. */
async function startServers(): Promise<void> {
  site = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    siteHits.push(url.searchParams.get('c') ?? url.pathname)
    if (url.pathname === '/redirect')
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end()
    else if (url.pathname === '/data.json')
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"from":"site"}')
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<p>the allowed site</p>')
  })
  for (let attempt = 0; ; attempt++) {
    await listen(site, 0, '127.0.0.2')
    port = (site.address() as AddressInfo).port
    try {
      for (const host of ['127.0.0.1', '::1']) {
        const canary = createServer((_req, res) => {
          res.writeHead(200, { 'access-control-allow-origin': '*' }).end('CANARY')
        })
        // a connection is enough: a TLS hello or a tunnel never makes a request
        canary.on('connection', (socket) => canaryHits.push(`${host} from ${socket.remotePort}`))
        canary.on('request', (req) => canaryHits.push(`${host} ${req.url}`))
        canaries.push(canary)
        try {
          await listen(canary, port, host)
        } catch (err) {
          // a host without IPv6 loopback (some containers) cannot be reached at ::1 either
          const code = (err as NodeJS.ErrnoException).code
          if (host === '::1' && (code === 'EADDRNOTAVAIL' || code === 'EAFNOSUPPORT')) continue
          throw err
        }
      }
      break
    } catch (err) {
      for (const c of canaries.splice(0)) c.close()
      await new Promise<void>((resolve) => site.close(() => resolve()))
      if (attempt >= 5) throw err
    }
  }
  origin = `http://127.0.0.2:${port}`
}

const viaRedirect = (url: string, tag: string) =>
  `${origin}/redirect?c=${tag}-via&to=${encodeURIComponent(marked(url, `${tag}-r`))}`

interface Outcome {
  entry: string
  case: string
  held: boolean
  /** what the service answered, for the failure message */
  saw: string
}
const outcomes: Outcome[] = []

/** A rebinding case about to run: its DNS starts over at the allowed answer. */
function freshDns(c: { rebinding: boolean }): void {
  if (!c.rebinding) return
  dnsCalls.delete('rebind.test')
  for (let i = siteHits.length - 1; i >= 0; i--)
    if (siteHits[i]?.startsWith('rebinding')) siteHits.splice(i, 1)
}

/**
 * The rebinding name may also end at the allowed site: the guard connected to the very address
 * it checked (127.0.0.2), never to the one the name turned into (the canary says which).
 */
function pinned(c: { tag: string; rebinding: boolean }): boolean {
  return c.rebinding && siteHits.includes(c.tag.endsWith('-redirect') ? 'rebinding-r' : 'rebinding')
}

/**
 * A refusal for the wrong reason, or told the wrong way: the port rule (the canary's port is
 * not a standard one) would hide an address class that got through; and a name's refusal must
 * not tell the tenant the internal address it resolved to.
 */
function wrongReason(tag: string, text: string | undefined): boolean {
  if (/standard .* port/.test(text ?? '')) return true
  return tag.startsWith('name-') && /10\.1\.2\.3|127\.0\.0\.1/.test(text ?? '')
}

function record(entry: string, tag: string, held: boolean, saw: string): void {
  outcomes.push({ entry, case: tag, held, saw })
}

beforeAll(async () => {
  await startServers()
  t = await startTestKernel({
    roles: ['api', 'worker'],
    // refused navigations are light: more at once keeps the table quick
    env: {
      DOCSVC_NETWORK_ALLOW: '127.0.0.2/32',
      DOCSVC_WORKER_CONCURRENCY: '4',
      DOCSVC_PLUGIN_CHROMIUM_CONCURRENCY: '4',
    },
    resolver,
  })
  ws = await t.createWorkspace({ plan: 'scale' })
  await t.setPlanLimits('scale', { requests_per_second: 10_000, test_renders_per_minute: 10_000 })
}, 60_000)

afterAll(async () => {
  await t?.close()
  for (const server of [site, ...canaries]) {
    if (!server?.listening) continue
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
})

const render = (path: string, body: object) =>
  t.inject({ method: 'POST', url: path, key: ws.testKey, payload: { delivery: 'url', ...body } })

/** Every class and scheme, direct and through a redirect from the allowed site. */
function cases(withSchemes: (s: (typeof SCHEMES)[number]) => boolean, redirects = true) {
  const list = [...CLASSES, ...SCHEMES.filter(withSchemes)]
  return list.flatMap((c) => {
    const url = c.url(port)
    const direct = { tag: c.id, url: marked(url, c.id), rebinding: c.id === 'rebinding' }
    return redirects
      ? [direct, { ...direct, tag: `${c.id}-redirect`, url: viaRedirect(url, c.id) }]
      : [direct]
  })
}

describe('SSRF classes against every way out', () => {
  it('the allowed site is reachable, so refusals below are the guard at work', async () => {
    const res = await render('/v1/pdf/from-url', { url: `${origin}/page` })
    expect(res.statusCode, res.body).toBe(200)
  })

  it('URL inputs (POST /v1/pdf/from-url)', { timeout: 120_000 }, async () => {
    await mapWithLimit(
      cases(() => true),
      4,
      async (c) => {
        freshDns(c)
        const res = await render('/v1/pdf/from-url', { url: c.url })
        const { code, detail } = res.json() as { code?: string; detail?: string }
        // a redirect the browser will not follow (to file:, javascript:) fails the navigation
        const codes = c.tag.endsWith('-redirect')
          ? ['url_not_allowed', 'navigation_failed']
          : ['url_not_allowed']
        const leak = wrongReason(c.tag, detail)
        record(
          'url input',
          c.tag,
          (res.statusCode === 422 && codes.includes(code ?? '') && !leak) || pinned(c),
          `${res.statusCode} ${code} ${detail}`,
        )
      },
    )
  })

  it('data_url (template data from a URL)', async () => {
    await mapWithLimit(
      cases(() => true),
      4,
      async (c) => {
        freshDns(c)
        const res = await render('/v1/pdf/from-markdown', {
          markdown: '# {{ from }}',
          templating: true,
          data_url: c.url,
        })
        const { code, detail } = res.json() as { code?: string; detail?: string }
        const leak = wrongReason(c.tag, detail)
        record(
          'data_url',
          c.tag,
          (res.statusCode === 422 && code === 'url_not_allowed' && !leak) || pinned(c),
          `${res.statusCode} ${code} ${detail}`,
        )
      },
    )
  })

  it('page subresources (<img> through the Chromium guard proxy)', async () => {
    const all = cases((s) => s.inPages)
    // the browser reports at most 20 failed assets a render: batches of 15
    for (let i = 0; i < all.length; i += 15) {
      const batch = all.slice(i, i + 15)
      for (const c of batch) freshDns(c)
      const html = `<p>page</p>${batch.map((c) => `<img src="${c.url.replaceAll('&', '&amp;')}">`).join('')}`
      const res = await render('/v1/pdf/from-html', { html })
      expect(res.statusCode, res.body).toBe(200)
      const warnings = (res.json().warnings ?? []) as { code: string; message: string }[]
      for (const c of batch) {
        const mark = c.tag.endsWith('-redirect') ? c.tag.replace(/-redirect$/, '') : c.tag
        const tags = c.tag.endsWith('-redirect') ? [`c=${mark}-r`, `c=${mark}-via`] : [`c=${mark}`]
        const said = warnings.find((w) => tags.some((tag) => w.message.includes(tag)))
        // the browser itself will not follow a redirect to file: (ERR_UNSAFE_REDIRECT)
        const refused =
          /was refused|not allowed|was not loaded|ERR_UNSAFE_REDIRECT/.test(said?.message ?? '') &&
          !wrongReason(c.tag, said?.message)
        record('page subresource', c.tag, refused || pinned(c), said ? said.message : 'no warning')
      }
    }
  })

  it('webhook endpoint registration (POST /v1/webhook-endpoints)', async () => {
    // registration connects to nothing: redirects and rebinding are the deliveries' to refuse
    for (const c of cases(() => true, false).filter((c) => !c.rebinding)) {
      const res = await t.inject({
        method: 'POST',
        url: '/v1/webhook-endpoints',
        key: ws.testKey,
        payload: { url: c.url, events: ['render.failed'] },
      })
      const body = res.json() as { code?: string; errors?: { code: string; message: string }[] }
      const first = body.errors?.[0]
      const leak = wrongReason(c.tag, first?.message)
      const held = res.statusCode === 400 && first?.code === 'url_not_allowed' && !leak
      record('webhook registration', c.tag, held, `${res.statusCode} ${body.code} ${first?.message}`)
    }
  })

  it('webhook delivery (the deliverer’s POST, redirects never followed)', async () => {
    const guard = t.kernel.container.cradle.outboundGuard
    for (const c of cases(() => true)) {
      freshDns(c)
      const sent = await postWebhook(
        guard,
        c.url,
        '{}',
        { 'content-type': 'application/json' },
        {
          timeoutMs: 5_000,
          excerptBytes: 100,
        },
      )
      const held =
        !sent.ok &&
        /^url_not_allowed: |^redirect to .* not followed$/.test(sent.error ?? '') &&
        !wrongReason(c.tag, sent.error ?? '')
      record('webhook delivery', c.tag, held, `${sent.status} ${sent.error}`)
    }
    // a rebinding endpoint registered while it pointed at the allowed address is refused on delivery
    dnsCalls.delete('rebind.test')
    const created = await t.inject({
      method: 'POST',
      url: '/v1/webhook-endpoints',
      key: ws.testKey,
      payload: { url: `http://rebind.test:${port}/hook`, events: ['render.failed'] },
    })
    expect(created.statusCode, created.body).toBe(201)
    const sent = await postWebhook(
      guard,
      `http://rebind.test:${port}/hook`,
      '{}',
      {},
      { timeoutMs: 5_000, excerptBytes: 100 },
    )
    record(
      'webhook delivery',
      'rebinding-after-registration',
      /^url_not_allowed: /.test(sent.error ?? ''),
      `${sent.error}`,
    )
  })

  it('refused every class everywhere, and nothing reached the canary', () => {
    const held = outcomes.filter((o) => o.held).length
    const escapes = outcomes.length - held + canaryHits.length
    const entries = new Set(outcomes.map((o) => o.entry))
    console.log(
      `SSRF classes: ${CLASSES.length} address classes and ${SCHEMES.length} schemes, direct and by redirect, against ${entries.size} entry points (${[...entries].join(', ')})`,
    )
    console.log(`SSRF classes refused: ${held}/${outcomes.length}, escapes: ${escapes}`)
    expect(outcomes.filter((o) => !o.held)).toEqual([])
    expect(canaryHits).toEqual([])
    expect(new Set(outcomes.map((o) => o.case.replace(/-redirect$/, ''))).size).toBeGreaterThanOrEqual(15)
  })
})
