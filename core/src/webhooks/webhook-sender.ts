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
 * is a success; redirects are not followed (a 3xx is a failure); the time limit is the guard's
 * one deadline for the whole exchange: DNS, connection, headers and body.
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
  try {
    const res = await guard.fetch(url, {
      method: 'POST',
      headers,
      body,
      timeoutMs: options.timeoutMs,
      excerptBytes: options.excerptBytes,
      maxRedirects: 0,
    })
    const ok = res.status >= 200 && res.status < 300
    return {
      ok,
      status: res.status,
      bodyExcerpt: res.body.toString('utf8'),
      latencyMs: latency(),
      error: ok ? null : statusError(res.status, res.headers.location),
    }
  } catch (err) {
    return { ok: false, status: null, bodyExcerpt: null, latencyMs: latency(), error: failureText(err) }
  }
}

function statusError(status: number, location: string | string[] | undefined): string {
  if (status >= 300 && status < 400) return `redirect to ${String(location ?? '(no location)')} not followed`
  return `HTTP ${status}`
}

/** The guard's fetch failures say what happened (timed out, unreachable); refusals keep their code. */
function failureText(err: unknown): string {
  if (err instanceof ProblemError) {
    const detail = err.detail ?? err.message
    return err.code === 'asset_fetch_failed' ? detail : `${err.code}: ${detail}`
  }
  const e = err as { code?: string; message?: string }
  return e.code ? `${e.code}: ${e.message ?? ''}`.trim() : String(e.message ?? err)
}
