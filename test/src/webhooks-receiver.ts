import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http'
import { createServer as createTlsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

/** One request as the receiver got it, with the verification result per secret. */
export interface Received {
  path: string
  headers: IncomingMessage['headers']
  raw: Buffer
  body: Record<string, unknown>
  /** indexes of `secrets` whose signature verified against the raw bytes */
  verifiedBy: number[]
  at: number
}

/**
 * A local webhook receiver that verifies every delivery with the `standardwebhooks` library (not
 * our code), as a customer would, against the raw body. Paths choose its behaviour: `/ok`,
 * `/fail` (500), `/slow/<ms>`, `/redirect` (302 to /ok), `/close` (drops the socket).
 * With `tls` it listens on https (live endpoints must be https; the sender then needs the
 * certificate, e.g. through NODE_EXTRA_CA_CERTS).
 */
export class WebhookReceiver {
  readonly received: Received[] = []
  secrets: string[] = []
  readonly #server: Server
  readonly #scheme: 'http' | 'https'

  constructor(options: { tls?: { key: Buffer; cert: Buffer } } = {}) {
    this.#scheme = options.tls ? 'https' : 'http'
    const listener: RequestListener = (req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const raw = Buffer.concat(chunks)
        const path = req.url ?? '/'
        const verifiedBy = this.secrets.flatMap((secret, i) => {
          try {
            new Webhook(secret).verify(raw, req.headers as Record<string, string>)
            return [i]
          } catch {
            return []
          }
        })
        this.received.push({
          path,
          headers: req.headers,
          raw,
          body: JSON.parse(raw.toString('utf8')),
          verifiedBy,
          at: Date.now(),
        })
        if (path.startsWith('/fail')) return res.writeHead(500).end('receiver broke')
        if (path.startsWith('/redirect')) return res.writeHead(302, { location: '/ok' }).end()
        if (path.startsWith('/close')) return req.socket.destroy()
        const slow = /^\/slow\/(\d+)/.exec(path)
        const answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end(`thanks ${path}`)
        if (slow) setTimeout(answer, Number(slow[1]))
        else answer()
      })
    }
    this.#server = options.tls ? createTlsServer(options.tls, listener) : createServer(listener)
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve))
    return `${this.#scheme}://127.0.0.1:${(this.#server.address() as AddressInfo).port}`
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path)
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections()
    await new Promise((resolve) => this.#server.close(resolve))
  }
}

export async function waitFor<T>(
  probe: () => T | Promise<T>,
  what: string,
  timeoutMs = 10_000,
): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value as NonNullable<T>
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
