import type { RenderWarningCode } from '@docsvc/core/sdk'
import type { Page, Request, Response } from 'playwright-core'
import { type GuardProxy, PROXY_HEADER, PROXY_REASON_HEADER } from './guard-proxy.ts'

const MAX_WARNINGS_PER_CODE = 20

/** A navigation of the main frame that failed, for the loader's error message. */
export interface NavigationFailure {
  url: string
  errorText: string
}

/**
 * Watches one render's requests: a refused or failed subresource is an asset_failed warning and
 * the render goes on; one slower than the threshold is slow_asset. The main document is the
 * loader's business (its failure fails the render).
 */
export class AssetWatch {
  readonly #page: Page
  readonly #proxy: GuardProxy
  readonly #slowMs: number
  readonly #warn: (code: RenderWarningCode, message: string) => void
  readonly #started = new Map<Request, number>()
  readonly #reported = new Set<string>()
  readonly #counts = new Map<RenderWarningCode, number>()
  navigationFailure: NavigationFailure | undefined

  constructor(
    page: Page,
    proxy: GuardProxy,
    slowMs: number,
    warn: (code: RenderWarningCode, message: string) => void,
  ) {
    this.#page = page
    this.#proxy = proxy
    this.#slowMs = slowMs
    this.#warn = warn
    page.on('request', this.#onRequest)
    page.on('response', this.#onResponse)
    page.on('requestfinished', this.#onFinished)
    page.on('requestfailed', this.#onFailed)
  }

  /** URLs still loading, to say what a page that never settles waits for. */
  pending(limit = 5): string[] {
    return [...this.#started.keys()].slice(0, limit).map((r) => shortUrl(r.url()))
  }

  stop(): void {
    this.#page.off('request', this.#onRequest)
    this.#page.off('response', this.#onResponse)
    this.#page.off('requestfinished', this.#onFinished)
    this.#page.off('requestfailed', this.#onFailed)
    this.#started.clear()
  }

  /**
   * An asset the page could not use although it may have arrived (a web font the browser
   * rejected): asset_failed, once per URL, so a font already reported by its request is not
   * named twice.
   */
  assetFailed(url: string, what: string): void {
    this.#report('asset_failed', url, what)
  }

  /** The proxy's own answer: the guard refused the request, or the upstream failed. */
  proxyVerdict(response: Response): { refused: boolean; reason: string } | undefined {
    const headers = response.headers()
    const [token, verdict] = (headers[PROXY_HEADER] ?? '').split(':')
    if (token !== this.#proxy.token) return undefined
    const reason = decodeURIComponent(headers[PROXY_REASON_HEADER] ?? 'refused by the outbound guard')
    return { refused: verdict === 'refused', reason }
  }

  #isMainDocument(request: Request): boolean {
    try {
      return request.isNavigationRequest() && request.frame() === this.#page.mainFrame()
    } catch {
      return false // requests of workers have no frame
    }
  }

  #onRequest = (request: Request): void => {
    this.#started.set(request, Date.now())
  }

  #onResponse = (response: Response): void => {
    const request = response.request()
    if (this.#isMainDocument(request)) return
    const verdict = this.proxyVerdict(response)
    if (verdict?.refused) this.#report('asset_failed', request.url(), `was refused: ${verdict.reason}`)
    else if (verdict) this.#report('asset_failed', request.url(), `could not be loaded: ${verdict.reason}`)
    else if (response.status() >= 400)
      this.#report('asset_failed', request.url(), `answered ${response.status()} ${response.statusText()}`)
  }

  #onFinished = (request: Request): void => {
    const started = this.#started.get(request)
    this.#started.delete(request)
    if (started === undefined || this.#isMainDocument(request)) return
    const took = Date.now() - started
    if (took > this.#slowMs) this.#report('slow_asset', request.url(), `took ${took} ms to load`)
  }

  #onFailed = (request: Request): void => {
    this.#started.delete(request)
    const errorText = request.failure()?.errorText ?? 'failed'
    if (this.#isMainDocument(request)) {
      this.navigationFailure = { url: request.url(), errorText }
      return
    }
    // the page itself gave up on it (a replaced src, a stopped load): nothing is missing
    if (errorText === 'net::ERR_ABORTED') return
    this.#report('asset_failed', request.url(), this.#why(request.url(), errorText, request.resourceType()))
  }

  #why(url: string, errorText: string, type: string): string {
    if (url.startsWith('file:')) return 'was not loaded: file: URLs are not allowed'
    if (!url.startsWith('http:') && !url.startsWith('https:') && !url.startsWith('data:'))
      return `was not loaded: ${url.split(':')[0]}: URLs are not allowed`
    if (errorText.includes('ERR_TUNNEL_CONNECTION_FAILED')) {
      const problem = this.#proxy.problemWith(hostOf(url))
      if (problem?.refused) return `was refused: ${problem.reason}`
      if (problem) return `could not be loaded: ${problem.reason}`
    }
    // Chromium names a CORS refusal only in its console; for a font it is by far the likeliest cause
    if (type === 'font' && errorText === 'net::ERR_FAILED')
      return 'could not be loaded (net::ERR_FAILED): a web font from another origin needs an Access-Control-Allow-Origin header, and the server sent none or an error; text that uses it fell back to another font'
    return `could not be loaded (${errorText})`
  }

  #report(code: RenderWarningCode, url: string, what: string): void {
    const key = `${code} ${url}`
    if (this.#reported.has(key)) return
    this.#reported.add(key)
    const count = (this.#counts.get(code) ?? 0) + 1
    this.#counts.set(code, count)
    if (count < MAX_WARNINGS_PER_CODE) this.#warn(code, `${shortUrl(url)} ${what}`)
    else if (count === MAX_WARNINGS_PER_CODE)
      this.#warn(code, 'more assets like this; further ones are not listed')
  }
}

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '')
  } catch {
    return ''
  }
}

export function shortUrl(url: string): string {
  if (url.startsWith('data:')) return `${url.slice(0, 40)}...`
  return url.length > 200 ? `${url.slice(0, 200)}...` : url
}
