import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { isIP } from 'node:net'
import { Agent, type Dispatcher, request } from 'undici'
import { ProblemError } from '../kernel/problem-error.ts'
import { AddressPolicy, isStandardPort } from './address-policy.ts'

export interface GuardedResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
  url: string
}

export interface GuardedRequest {
  method?: 'GET' | 'POST' | 'HEAD'
  headers?: Record<string, string>
  body?: string | Buffer
  timeoutMs?: number
  maxBytes?: number
  /** redirects to follow, each hop checked again (0 for webhooks: never followed) */
  maxRedirects?: number
}

type LookupCallback = (err: Error | null, addresses: LookupAddress[] | string, family?: number) => void

function resolveAll(host: string): Promise<string[]> {
  if (isIP(host)) return Promise.resolve([host])
  return new Promise((resolve, reject) => {
    dnsLookup(host, { all: true }, (err, addresses) => {
      if (err)
        reject(new ProblemError('url_not_allowed', `${host} does not resolve (${err.code ?? err.message})`))
      else resolve(addresses.map((a) => a.address))
    })
  })
}

/**
 * The one way out (DESIGN.md §7). The URL is checked before the request (scheme, credentials,
 * port), and every address is checked inside the connection's own DNS lookup, so the address
 * connected to is the address checked: a name that rebinds to a private address is refused.
 * Redirects are followed by hand so each hop is checked again.
 */
export class OutboundGuard {
  readonly policy: AddressPolicy
  readonly #agent: Agent

  constructor(networkAllow: string[]) {
    this.policy = new AddressPolicy(networkAllow)
    this.#agent = new Agent({ connect: { lookup: this.#guardedLookup }, keepAliveTimeout: 4_000 })
  }

  get dispatcher(): Dispatcher {
    return this.#agent
  }

  /** url_not_allowed unless the URL may be fetched; resolves the host when its port needs it. */
  async checkUrl(text: string): Promise<URL> {
    let url: URL
    try {
      url = new URL(text)
    } catch {
      throw new ProblemError('url_not_allowed', `${text.slice(0, 200)} is not an absolute URL`)
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ProblemError('url_not_allowed', `${url.protocol} URLs are not allowed; use http or https`)
    }
    if (url.username || url.password)
      throw new ProblemError('url_not_allowed', 'URLs may not carry credentials')
    const host = url.hostname.replace(/^\[|\]$/g, '')
    const addresses = isStandardPort(url) && !isIP(host) ? [] : await resolveAll(host)
    for (const address of addresses) {
      const reason = this.policy.addressRefusal(address)
      if (reason) throw new ProblemError('url_not_allowed', `${url.host} is not allowed: ${reason}`)
      if (!isStandardPort(url) && !this.policy.isOperatorAllowed(address)) {
        throw new ProblemError(
          'url_not_allowed',
          `${url.host} is not allowed: only the standard ${url.protocol.slice(0, -1)} port may be used`,
        )
      }
    }
    return url
  }

  /** One checked address to connect to (the Chromium proxy uses it for CONNECT and plain requests). */
  async resolveChecked(url: URL): Promise<string> {
    await this.checkUrl(url.href)
    const addresses = await resolveAll(url.hostname.replace(/^\[|\]$/g, ''))
    for (const address of addresses) {
      const reason = this.policy.addressRefusal(address)
      if (reason) throw new ProblemError('url_not_allowed', `${url.host} is not allowed: ${reason}`)
    }
    return addresses[0]!
  }

  async fetch(text: string, options: GuardedRequest = {}): Promise<GuardedResponse> {
    let url = await this.checkUrl(text)
    const maxRedirects = options.maxRedirects ?? 5
    for (let hop = 0; ; hop++) {
      const res = await request(url, {
        dispatcher: this.#agent,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        ...(options.body !== undefined ? { body: options.body } : {}),
        headersTimeout: options.timeoutMs ?? 10_000,
        bodyTimeout: options.timeoutMs ?? 10_000,
      }).catch(unwrapGuardError)
      const location = res.headers.location
      if (
        res.statusCode >= 300 &&
        res.statusCode < 400 &&
        typeof location === 'string' &&
        hop < maxRedirects
      ) {
        await res.body.dump()
        url = await this.checkUrl(new URL(location, url).href)
        continue
      }
      const body = await readLimited(res.body, options.maxBytes ?? 50 * 1024 * 1024)
      return { status: res.statusCode, headers: res.headers, body, url: url.href }
    }
  }

  async close(): Promise<void> {
    await this.#agent.close()
  }

  #guardedLookup = (hostname: string, options: object, callback: LookupCallback) => {
    dnsLookup(hostname, { all: true }, (err, addresses) => {
      if (err) return callback(err, [])
      for (const { address } of addresses) {
        const reason = this.policy.addressRefusal(address)
        if (reason)
          return callback(new ProblemError('url_not_allowed', `${hostname} is not allowed: ${reason}`), [])
      }
      const first = addresses[0]
      if ((options as { all?: boolean }).all || !first) callback(null, addresses)
      else callback(null, first.address, first.family)
    })
  }
}

/** undici wraps errors from the connection's lookup; the guard's own refusal is what counts. */
function unwrapGuardError(err: Error & { cause?: unknown }): never {
  let current: unknown = err
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof ProblemError) throw current
    current = (current as { cause?: unknown }).cause
  }
  throw err
}

async function readLimited(body: AsyncIterable<Buffer>, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.length
    if (size > maxBytes)
      throw new ProblemError('asset_fetch_failed', `the response is larger than ${maxBytes} bytes`)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}
