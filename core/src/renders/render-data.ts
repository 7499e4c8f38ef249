import { ProblemError } from '../kernel/problem-error.ts'
import type { GuardedFetch } from '../sdk/render-contracts.ts'

const MAX_DATA_BYTES = 5 * 1024 * 1024

/** `data_url`: fetched through the outbound guard; must answer 2xx with a JSON object. */
export async function fetchRenderData(url: string, fetch: GuardedFetch): Promise<Record<string, unknown>> {
  let res: Awaited<ReturnType<GuardedFetch>>
  try {
    res = await fetch(url, {
      timeoutMs: 10_000,
      maxBytes: MAX_DATA_BYTES,
      headers: { accept: 'application/json' },
    })
  } catch (err) {
    if (err instanceof ProblemError && err.code === 'url_not_allowed') throw err
    throw new ProblemError(
      'data_url_fetch_failed',
      `data_url could not be fetched: ${(err as Error).message}`,
    )
  }
  if (res.status < 200 || res.status > 299) {
    throw new ProblemError('data_url_fetch_failed', `data_url answered HTTP ${res.status}`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(res.body.toString('utf8'))
  } catch {
    throw new ProblemError('data_url_fetch_failed', 'data_url did not answer JSON')
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ProblemError('data_url_fetch_failed', 'data_url must answer a JSON object')
  }
  return parsed as Record<string, unknown>
}
