import { request } from 'undici'
import { ProblemError } from '../kernel/problem-error.ts'
import type { OutboundGuard } from '../net/outbound-guard.ts'

export interface SendResult {
  ok: boolean
  status: number | null
  /** the start of the response body, as text */
  bodyExcerpt: string | null
  latencyMs: number
  error: string | null
}

export const USER_AGENT = 'Doc-Service-Webhooks/1.0'

/**
 * One POST of a delivery (SPEC 6.4) through the outbound guard: any 2xx within the time limit
 * is a success; redirects are not followed (a 3xx is a failure); the time limit covers the
 * whole exchange, headers and body.
 */
export async function postWebhook(
  guard: OutboundGuard,
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; excerptBytes: number },
): Promise<SendResult> {
  const started = performance.now()
  const latency = () => Math.round(performance.now() - started)
  const signal = AbortSignal.timeout(options.timeoutMs)
  try {
    const checked = await guard.checkUrl(url)
    const res = await request(checked, {
      dispatcher: guard.dispatcher,
      method: 'POST',
      headers,
      body,
      signal,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    })
    const excerpt = await readExcerpt(res.body, options.excerptBytes)
    const ok = res.statusCode >= 200 && res.statusCode < 300
    return {
      ok,
      status: res.statusCode,
      bodyExcerpt: excerpt,
      latencyMs: latency(),
      error: ok ? null : statusError(res.statusCode, res.headers.location),
    }
  } catch (err) {
    return {
      ok: false,
      status: null,
      bodyExcerpt: null,
      latencyMs: latency(),
      error: failureText(err, signal, options.timeoutMs),
    }
  }
}

function statusError(status: number, location: string | string[] | undefined): string {
  if (status >= 300 && status < 400) return `redirect to ${String(location ?? '(no location)')} not followed`
  return `HTTP ${status}`
}

async function readExcerpt(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  maxBytes: number,
): Promise<string> {
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
  return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8')
}

function failureText(err: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `no answer within ${timeoutMs} ms`
  for (let current: unknown = err, depth = 0; current && depth < 5; depth++) {
    if (current instanceof ProblemError) return `${current.code}: ${current.detail ?? current.message}`
    current = (current as { cause?: unknown }).cause
  }
  const e = err as { code?: string; message?: string }
  return e.code ? `${e.code}: ${e.message ?? ''}`.trim() : String(e.message ?? err)
}
