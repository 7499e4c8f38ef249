import type { HttpOptions, OutputContext, RenderDocument, WaitOptions } from '@docsvc/core/sdk'
import { ProblemError, problemFromCause } from '@docsvc/core/sdk'
import type { BrowserContextOptions, Page, Response } from 'playwright-core'
import { type AssetWatch, hostOf, shortUrl } from './asset-watch.ts'
import { firstLine } from './browser-pool.ts'
import type { GuardProxy } from './guard-proxy.ts'
import { type PooledPage, withTimeout } from './pooled-page.ts'
import { type WaitBudget, waitForConditions } from './wait-conditions.ts'

const DEFAULT_URL_WAIT_MS = 30_000
// the render's own deadline fires a moment later; the loader's error says more
const MARGIN_MS = 50

/** Context options of a URL input: basic auth for the page's own origin only. */
export function urlContextOptions(url: URL, http: HttpOptions | undefined): BrowserContextOptions {
  if (!http?.basic_auth) return {}
  const { username, password } = http.basic_auth
  return { httpCredentials: { username, password, origin: url.origin } }
}

export interface LoadTools {
  watch: AssetWatch
  proxy: GuardProxy
}

/** Puts the document into the page and waits until it is ready to print or capture. */
export async function loadDocument(
  pooled: PooledPage,
  doc: RenderDocument,
  ctx: OutputContext,
  tools: LoadTools,
): Promise<void> {
  const wait = doc.wait ?? {}
  const budget = waitBudget(doc, ctx)
  if (doc.kind === 'html') await loadHtml(pooled.page, doc.html, doc.baseUrl, wait, budget, ctx, tools)
  else await loadUrl(pooled.page, new URL(doc.url), wait, budget, doc.http, tools)
  await waitForConditions(pooled, wait, budget)
  // text laid out before its web font arrives would print in the fallback font; the wait is
  // bounded here, not in the page, whose timers do not run when its scripts are off
  const fonts = pooled.cdp.send('Runtime.evaluate', {
    expression: 'document.fonts.ready.then(() => 0)',
    awaitPromise: true,
  })
  await withTimeout(fonts, remaining(ctx.deadline)).catch(() => {})
}

/**
 * One budget for loading and every wait condition: `wait.timeout_ms`, capped by the render's own
 * deadline. Without it a URL gets 30 s (a remote site may hang); inline HTML, whose only remote
 * parts are its assets, has the render's whole time as before `wait` existed for it.
 */
function waitBudget(doc: RenderDocument, ctx: OutputContext): WaitBudget {
  const left = remaining(ctx.deadline)
  const asked = doc.wait?.timeout_ms ?? (doc.kind === 'url' ? DEFAULT_URL_WAIT_MS : left)
  const budgetMs = Math.max(1, Math.min(asked, left))
  return { deadline: Date.now() + budgetMs, budgetMs, renderDeadline: ctx.deadline - MARGIN_MS }
}

async function loadHtml(
  page: Page,
  html: string,
  baseUrl: string | undefined,
  wait: WaitOptions,
  budget: WaitBudget,
  ctx: OutputContext,
  { watch }: LoadTools,
): Promise<void> {
  try {
    await page.setContent(withBase(html, baseUrl, ctx), {
      waitUntil: wait.until ?? 'load',
      timeout: budget.budgetMs,
    })
  } catch (err) {
    if (isTimeout(err)) throw stillLoading(budget.budgetMs, watch)
    throw err
  }
}

/** `<base href>` resolves relative URLs against baseUrl; the document keeps an opaque origin. */
function withBase(html: string, baseUrl: string | undefined, ctx: OutputContext): string {
  if (!baseUrl) return html
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    ctx.warn('feature_unavailable', 'baseUrl is not an absolute URL; relative URLs stay unresolved')
    return html
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    ctx.warn(
      'feature_unavailable',
      `a ${url.protocol} base URL is not allowed; relative URLs stay unresolved`,
    )
    return html
  }
  const tag = `<base href="${url.href.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`
  // after <head>, or else after the doctype: a tag before the doctype would mean quirks mode
  const at = /<head(\s[^>]*)?>/i.exec(html) ?? /^\s*<!doctype[^>]*>/i.exec(html)
  if (!at) return tag + html
  const end = at.index + at[0].length
  return html.slice(0, end) + tag + html.slice(end)
}

async function loadUrl(
  page: Page,
  url: URL,
  wait: WaitOptions,
  budget: WaitBudget,
  http: HttpOptions | undefined,
  tools: LoadTools,
): Promise<void> {
  await applyHttpOptions(page, url, http)
  let response: Response | null
  try {
    response = await page.goto(url.href, { waitUntil: wait.until ?? 'load', timeout: budget.budgetMs })
  } catch (err) {
    if (isTimeout(err)) throw stillLoading(budget.budgetMs, tools.watch)
    throw navigationError(url, err, tools)
  }
  if (!response) return
  const verdict = tools.watch.proxyVerdict(response)
  if (verdict)
    throw new ProblemError(
      verdict.refused ? 'url_not_allowed' : 'navigation_failed',
      `${shortUrl(response.url())}: ${verdict.reason}`,
    )
  if (response.status() >= 400)
    throw new ProblemError(
      'navigation_failed',
      `${shortUrl(response.url())} answered ${response.status()} ${response.statusText()}`.trim(),
    )
}

/** Headers go to the page's own origin only, never to third-party assets; cookies as given. */
async function applyHttpOptions(page: Page, url: URL, http: HttpOptions | undefined): Promise<void> {
  const cookies = http?.cookies ?? []
  if (cookies.length > 0) {
    await page
      .context()
      .addCookies(
        cookies.map((c) =>
          c.domain
            ? { name: c.name, value: c.value, domain: c.domain, path: c.path ?? '/' }
            : { name: c.name, value: c.value, url: new URL(c.path ?? '/', url).href },
        ),
      )
  }
  const headers = http?.headers ?? {}
  if (Object.keys(headers).length === 0) return
  await page.route(
    (target) => target.origin === url.origin,
    (route) => route.continue({ headers: { ...route.request().headers(), ...headers } }),
  )
}

function navigationError(url: URL, err: unknown, { watch, proxy }: LoadTools): ProblemError {
  const message = firstLine(err)
  const failed = watch.navigationFailure?.url ?? url.href
  if (/ERR_TUNNEL_CONNECTION_FAILED/.test(message)) {
    const problem = proxy.problemWith(hostOf(failed))
    // a name that does not resolve is a page that cannot be loaded, not a refused address
    if (problem?.refused && !/does not resolve/.test(problem.reason))
      return new ProblemError('url_not_allowed', `${shortUrl(failed)}: ${problem.reason}`)
    if (problem) return new ProblemError('navigation_failed', `${shortUrl(failed)}: ${problem.reason}`)
  }
  const code = /net::(ERR_[A-Z_]+)/.exec(message)?.[1]
  if (code === 'ERR_UNSAFE_REDIRECT')
    return new ProblemError('url_not_allowed', `${shortUrl(url.href)} redirects to a URL that is not allowed`)
  if (code === 'ERR_INVALID_AUTH_CREDENTIALS')
    return new ProblemError(
      'navigation_failed',
      `${shortUrl(failed)} asks for credentials; http.basic_auth is missing or wrong`,
    )
  const detail = code
    ? `${shortUrl(failed)} could not be loaded (${code})`
    : `${shortUrl(failed)} could not be loaded`
  return problemFromCause('navigation_failed', detail, err)
}

function stillLoading(ms: number, watch: AssetWatch): ProblemError {
  const pending = watch.pending()
  const what = pending.length > 0 ? `; still loading: ${pending.join(', ')}` : ''
  return new ProblemError('wait_timeout', `the page did not finish loading within ${ms} ms${what}`)
}

function remaining(deadline: number): number {
  return Math.max(1, deadline - Date.now() - MARGIN_MS)
}

function isTimeout(err: unknown): boolean {
  return err instanceof Error && err.name === 'TimeoutError'
}
