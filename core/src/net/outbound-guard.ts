import type { LookupAddress } from 'node:dns'
import { isIP } from 'node:net'
import { Agent, type Dispatcher, request } from 'undici'
import { ProblemError, problemFromCause } from '../kernel/problem-error.ts'
import { AddressPolicy, isStandardPort } from './address-policy.ts'
import {
  DNS_TIMEOUT_MS,
  type HostResolver,
  type ResolvedAddress,
  resolveWithin,
  systemResolver,
} from './host-resolver.ts'

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
  /** the whole fetch (DNS, connection, redirects, headers and every byte of the body) */
  timeoutMs?: number
  /** epoch ms the fetch must end by whatever timeoutMs says: the render's own deadline */
  deadline?: number
  /** the caller gave up (a canceled render) */
  signal?: AbortSignal
  /** a larger body fails the fetch */
  maxBytes?: number
  /** keep only this many bytes of the body and stop reading (a webhook's response excerpt) */
  excerptBytes?: number
  /** redirects to follow, each hop checked again (0 for webhooks: never followed) */
  maxRedirects?: number
}

export interface OutboundGuardOptions {
  /** how names become addresses; tests lend a fake DNS (a rebinding name, one that hangs) */
  resolver?: HostResolver
  dnsTimeoutMs?: number
  /** where refusals are told in full: the tenant's message never names a resolved address */
  log?: { info(details: Record<string, unknown>, message: string): void }
}

export const FETCH_TIMEOUT_MS = 10_000

type LookupCallback = (err: Error | null, addresses: LookupAddress[] | string, family?: number) => void

const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '')

/**
 * The one way out (DESIGN.md §7). The URL is checked before the request (scheme, credentials,
 * port), and every address is checked inside the connection's own DNS lookup, so the address
 * connected to is the address checked: a name that rebinds to a private address is refused.
 * Redirects are followed by hand so each hop is checked again. Every fetch has one deadline for
 * all of it, and every lookup one of its own: a slow server or a silent DNS pins no worker.
 */
export class OutboundGuard {
  readonly policy: AddressPolicy
  readonly #agent: Agent
  readonly #resolver: HostResolver
  readonly #dnsTimeoutMs: number
  readonly #log: OutboundGuardOptions['log']

  constructor(networkAllow: string[], options: OutboundGuardOptions = {}) {
    this.policy = new AddressPolicy(networkAllow)
    this.#resolver = options.resolver ?? systemResolver
    this.#dnsTimeoutMs = options.dnsTimeoutMs ?? DNS_TIMEOUT_MS
    this.#log = options.log
    this.#agent = new Agent({ connect: { lookup: this.#guardedLookup }, keepAliveTimeout: 4_000 })
  }

  get dispatcher(): Dispatcher {
    return this.#agent
  }

  /** url_not_allowed unless the URL may be fetched; resolves the host when its port needs it. */
  async checkUrl(text: string, signal?: AbortSignal): Promise<URL> {
    return (await this.#check(text, false, signal)).url
  }

  /** One checked address to connect to (the Chromium proxy uses it for CONNECT and plain requests). */
  async resolveChecked(url: URL, signal?: AbortSignal): Promise<string> {
    const { addresses } = await this.#check(url.href, true, signal)
    return addresses[0]!.address
  }

  async fetch(text: string, options: GuardedRequest = {}): Promise<GuardedResponse> {
    const limitMs = options.timeoutMs ?? FETCH_TIMEOUT_MS
    const byDeadline = options.deadline !== undefined && options.deadline < Date.now() + limitMs
    const endsAt = byDeadline ? options.deadline! : Date.now() + limitMs
    const timer = AbortSignal.timeout(Math.max(1, endsAt - Date.now()))
    const signal = options.signal ? AbortSignal.any([timer, options.signal]) : timer
    try {
      return await this.#fetchWithin(text, options, signal)
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason ?? err
      if (!timer.aborted) throw err
      const where = (() => {
        try {
          return new URL(text).host
        } catch {
          return 'the server'
        }
      })()
      throw new ProblemError(
        'asset_fetch_failed',
        byDeadline
          ? `no complete answer from ${where} before the render's deadline`
          : `no answer within ${limitMs} ms`,
      )
    }
  }

  async close(): Promise<void> {
    await this.#agent.close()
  }

  async #fetchWithin(text: string, options: GuardedRequest, signal: AbortSignal): Promise<GuardedResponse> {
    let url = await this.checkUrl(text, signal)
    const maxRedirects = options.maxRedirects ?? 5
    for (let hop = 0; ; hop++) {
      const res = await request(url, {
        dispatcher: this.#agent,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        ...(options.body !== undefined ? { body: options.body } : {}),
        signal,
      }).catch((err: Error) => unwrapGuardError(err, url))
      const location = res.headers.location
      if (
        res.statusCode >= 300 &&
        res.statusCode < 400 &&
        typeof location === 'string' &&
        hop < maxRedirects
      ) {
        await res.body.dump()
        url = await this.checkUrl(new URL(location, url).href, signal)
        continue
      }
      const body =
        options.excerptBytes !== undefined
          ? await readExcerpt(res.body, options.excerptBytes)
          : await readLimited(res.body, options.maxBytes ?? 50 * 1024 * 1024)
      return { status: res.statusCode, headers: res.headers, body, url: url.href }
    }
  }

  /** The URL's rules, and its host's addresses when asked or when the port needs them. */
  async #check(
    text: string,
    resolve: boolean,
    signal?: AbortSignal,
  ): Promise<{ url: URL; addresses: ResolvedAddress[] }> {
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
    const host = hostOf(url)
    if (!resolve && isStandardPort(url) && !isIP(host)) return { url, addresses: [] }
    const addresses = await this.#resolveAllowed(host, signal)
    if (!isStandardPort(url) && !addresses.every(({ address }) => this.policy.isOperatorAllowed(address))) {
      throw new ProblemError(
        'url_not_allowed',
        `${url.host} is not allowed: only the standard ${url.protocol.slice(0, -1)} port may be used`,
      )
    }
    return { url, addresses }
  }

  /** Every address of the host, each checked: one refused address refuses the host. */
  async #resolveAllowed(host: string, signal?: AbortSignal): Promise<ResolvedAddress[]> {
    const addresses = await resolveWithin(this.#resolver, host, this.#dnsTimeoutMs, signal)
    for (const { address } of addresses) {
      const reason = this.policy.addressRefusal(address)
      if (reason) throw this.#refusal(host, address, reason)
    }
    return addresses
  }

  /**
   * The operator's log gets the address and why; the tenant learns no more than it sent: an
   * address it wrote itself is named, the addresses a name resolves to are not (a map of the
   * internal network, one refusal at a time).
   */
  #refusal(host: string, address: string, reason: string): ProblemError {
    this.#log?.info({ host, address, reason }, 'outbound request refused')
    return new ProblemError(
      'url_not_allowed',
      isIP(host) ? `${host} is not allowed: ${reason}` : `the address of ${host} is not allowed`,
    )
  }

  #guardedLookup = (hostname: string, options: object, callback: LookupCallback) => {
    this.#resolveAllowed(hostname).then(
      (addresses) => {
        const first = addresses[0]!
        if ((options as { all?: boolean }).all) callback(null, addresses)
        else callback(null, first.address, first.family)
      },
      (err: Error) => callback(err, []),
    )
  }
}

/**
 * undici wraps errors from the connection's lookup; the guard's own refusal is what counts.
 * Other failures are told by their code: their messages name the address connected to.
 */
function unwrapGuardError(err: Error & { cause?: unknown }, url: URL): never {
  let current: unknown = err
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof ProblemError) throw current
    current = (current as { cause?: unknown }).cause
  }
  if (err.name === 'AbortError') throw err
  const code = (err as { code?: string }).code
  throw problemFromCause(
    'asset_fetch_failed',
    `${url.host} could not be reached${code ? ` (${code})` : ''}`,
    err,
  )
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

async function readExcerpt(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  maxBytes: number,
): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    chunks.push(chunk)
    size += chunk.length
    if (size >= maxBytes) {
      // the rest is not ours to keep; stop reading instead of draining a large answer
      body.destroy()
      break
    }
  }
  return Buffer.concat(chunks).subarray(0, maxBytes)
}
