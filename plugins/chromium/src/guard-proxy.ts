import { randomBytes } from 'node:crypto'
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import { connect, type Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { OutboundGuardApi } from '@docsvc/core/sdk'

/**
 * Headers on the proxy's own answers: `<token>:refused` (the guard said no) or `<token>:failed`
 * (the upstream could not be reached). The token is a per-process secret a page cannot forge.
 */
export const PROXY_HEADER = 'x-docsvc-proxy'
export const PROXY_REASON_HEADER = 'x-docsvc-proxy-reason'

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

const UPSTREAM_IDLE_MS = 60_000
const REMEMBERED_PROBLEMS = 256

/** Why the proxy last refused a host, or could not reach it. */
export interface HostProblem {
  refused: boolean
  reason: string
}

/**
 * The only way out for Chromium (DESIGN.md §7): an HTTP proxy on 127.0.0.1 that the browser is
 * launched with. Each plain request and each CONNECT tunnel asks the outbound guard for one
 * checked address and connects to exactly that address, so DNS rebinding and redirects to
 * private or metadata addresses are refused at the socket, whatever the page does.
 */
export class GuardProxy {
  readonly token = randomBytes(16).toString('hex')
  readonly #guard: OutboundGuardApi
  readonly #server: Server
  readonly #sockets = new Set<Duplex>()
  /** host -> its last problem; a failed CONNECT reaches the page only as a tunnel error */
  readonly #problems = new Map<string, HostProblem>()

  constructor(guard: OutboundGuardApi) {
    this.#guard = guard
    // whatever a page sends, the proxy answers or closes: nothing it does may throw past here
    this.#server = createServer((req, res) => {
      this.#forward(req, res).catch(() => res.destroy())
    })
    this.#server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.#tunnel(req, socket, head).catch(() => socket.destroy())
    })
    this.#server.on('upgrade', (_req: IncomingMessage, socket: Duplex) => socket.destroy())
    this.#server.on('connection', (socket: Socket) => this.#track(socket))
    this.#server.on('clientError', (_err, socket) => socket.destroy())
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject)
      this.#server.listen(0, '127.0.0.1', () => resolve())
    })
    const address = this.#server.address()
    if (!address || typeof address === 'string') throw new Error('the guard proxy has no port')
    return address.port
  }

  /** A host's last problem, for messages about requests the page saw fail. */
  problemWith(host: string): HostProblem | undefined {
    return this.#problems.get(host.toLowerCase())
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy()
    await new Promise<void>((resolve) => this.#server.close(() => resolve()))
  }

  #track(socket: Duplex): void {
    this.#sockets.add(socket)
    socket.once('close', () => this.#sockets.delete(socket))
  }

  #remember(host: string, problem: HostProblem): void {
    const key = host.toLowerCase().replace(/^\[|\]$/g, '')
    this.#problems.delete(key)
    this.#problems.set(key, problem)
    if (this.#problems.size > REMEMBERED_PROBLEMS) {
      const oldest = this.#problems.keys().next().value
      if (oldest !== undefined) this.#problems.delete(oldest)
    }
  }

  /** A checked address, or the refusal reason. */
  async #check(url: URL): Promise<{ address: string } | { refused: string }> {
    try {
      return { address: await this.#guard.resolveChecked(url) }
    } catch (err) {
      const reason = (err as Error).message || 'refused by the outbound guard'
      this.#remember(url.hostname, { refused: true, reason })
      return { refused: reason }
    }
  }

  async #forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL
    try {
      url = new URL(req.url ?? '')
    } catch {
      return this.#refuse(res, 400, 'the proxy only takes absolute http URLs')
    }
    if (url.protocol !== 'http:') return this.#refuse(res, 400, `${url.protocol} is not proxied`)
    const checked = await this.#check(url)
    if ('refused' in checked) return this.#refuse(res, 403, checked.refused)
    const upstream = httpRequest({
      host: checked.address,
      port: url.port || 80,
      method: req.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      headers: { ...endToEnd(req.headers), host: url.host },
      setHost: false,
      timeout: UPSTREAM_IDLE_MS,
    })
    upstream.on('response', (up) => {
      try {
        res.writeHead(up.statusCode ?? 502, up.statusMessage, endToEnd(up.headers))
      } catch {
        // an answer Node will not repeat (a malformed header): the page sees a failed request
        up.destroy()
        return res.destroy()
      }
      up.pipe(res)
      up.on('error', () => res.destroy())
    })
    upstream.on('timeout', () => upstream.destroy(new Error('upstream timed out')))
    upstream.on('error', (err) => {
      if (!res.headersSent) this.#refuse(res, 502, unreachable(url.host, err), 'failed')
      else res.destroy()
    })
    req.on('aborted', () => upstream.destroy())
    req.pipe(upstream)
  }

  #refuse(
    res: ServerResponse,
    status: number,
    reason: string,
    verdict: 'refused' | 'failed' = 'refused',
  ): void {
    res.writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      [PROXY_HEADER]: `${this.token}:${verdict}`,
      [PROXY_REASON_HEADER]: encodeURIComponent(reason),
    })
    res.end(reason)
  }

  async #tunnel(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy())
    const target = connectTarget(req.url ?? '')
    if (!target) return refuseTunnel(socket, 400)
    const { host, port, url } = target
    const checked = await this.#check(url)
    if ('refused' in checked) return refuseTunnel(socket, 403)
    if (socket.destroyed) return
    const upstream = connect({ host: checked.address, port })
    this.#track(upstream)
    upstream.setTimeout(UPSTREAM_IDLE_MS, () => upstream.destroy())
    upstream.once('connect', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length > 0) upstream.write(head)
      upstream.pipe(socket)
      socket.pipe(upstream)
    })
    upstream.on('error', (err) => {
      if (!upstream.connecting) return socket.destroy()
      this.#remember(host, { refused: false, reason: unreachable(`${host}:${port}`, err) })
      refuseTunnel(socket, 502)
    })
    socket.once('close', () => upstream.destroy())
  }
}

/**
 * A CONNECT request-target as `host:port`, with the URL it is checked as, or undefined when it
 * is not one: a port outside 1-65535 or a host no URL takes (`[zz]`, `%%`) is a 400, never an
 * exception. Port 80 tunnels carry ws://; anything else is TLS (https, wss), checked as https.
 */
export function connectTarget(target: string): { host: string; port: number; url: URL } | undefined {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(target)
  if (!match) return undefined
  const [, host = '', portText = ''] = match
  const port = Number(portText)
  if (port < 1 || port > 65_535) return undefined
  try {
    const url = new URL(port === 80 ? `http://${host}/` : `https://${host}:${port}/`)
    return { host, port, url }
  } catch {
    return undefined
  }
}

/** Why an upstream failed, by its code: the message would name the address connected to. */
function unreachable(where: string, err: Error): string {
  return `${where} could not be reached (${(err as { code?: string }).code ?? 'connection failed'})`
}

/** Chromium shows a refused tunnel only as ERR_TUNNEL_CONNECTION_FAILED; the reason is remembered. */
function refuseTunnel(socket: Duplex, status: 400 | 403 | 502): void {
  const text = { 400: 'Bad Request', 403: 'Forbidden', 502: 'Bad Gateway' }[status]
  socket.end(`HTTP/1.1 ${status} ${text}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`)
}

function endToEnd(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value
  }
  return out
}
