import { lookup } from 'node:dns'
import { isIP } from 'node:net'
import { ProblemError, problemFromCause } from '../kernel/problem-error.ts'

export interface ResolvedAddress {
  address: string
  family: number
}

/** How the outbound guard turns a name into addresses; tests lend a fake DNS here. */
export type HostResolver = (host: string) => Promise<ResolvedAddress[]>

/** The system's resolver (getaddrinfo: /etc/hosts, then DNS), every address of the name. */
export const systemResolver: HostResolver = (host) =>
  new Promise((resolve, reject) => {
    lookup(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)))
  })

/** A name that has not resolved by then never will in time for anyone waiting on it. */
export const DNS_TIMEOUT_MS = 5_000

/**
 * A host's addresses within `timeoutMs`, or a ProblemError: url_not_allowed when the name does
 * not resolve, asset_fetch_failed when no answer came in time or `signal` ended the wait. The
 * lookup itself may run on (getaddrinfo cannot be canceled); nobody waits for it.
 */
export async function resolveWithin(
  resolver: HostResolver,
  host: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ResolvedAddress[]> {
  const family = isIP(host)
  if (family) return [{ address: host, family }]
  let timer: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  const late = new Promise<never>((_, reject) => {
    const fail = () =>
      reject(new ProblemError('asset_fetch_failed', `no DNS answer for ${host} within ${timeoutMs} ms`))
    timer = setTimeout(fail, timeoutMs)
    onAbort = () => reject(new ProblemError('asset_fetch_failed', `the lookup of ${host} was given up`))
    if (signal?.aborted) onAbort()
    else signal?.addEventListener('abort', onAbort, { once: true })
  })
  const answer = resolver(host).then(
    (addresses) => {
      if (addresses.length === 0) throw new ProblemError('url_not_allowed', `${host} does not resolve`)
      return addresses
    },
    (err: NodeJS.ErrnoException) => {
      if (err instanceof ProblemError) throw err
      throw problemFromCause(
        'url_not_allowed',
        `${host} does not resolve${err.code ? ` (${err.code})` : ''}`,
        err,
      )
    },
  )
  try {
    return await Promise.race([answer, late])
  } finally {
    clearTimeout(timer)
    if (onAbort) signal?.removeEventListener('abort', onAbort)
    answer.catch(() => {}) // a late failure, after the deadline answered, is nobody's to handle
  }
}
