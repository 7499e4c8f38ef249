import type { LookupAddress } from 'node:dns'
import { Agent as HttpAgent } from 'node:http'
import { Agent as HttpsAgent } from 'node:https'
import type { OutboundGuardApi } from '@docsvc/core/sdk'

type LookupCallback = (err: Error | null, address: string | LookupAddress[], family?: number) => void

/**
 * HTTP(S) agents whose every connection's DNS lookup goes through the installation's outbound
 * guard, so the address connected to is the address checked (a name that rebinds to a private
 * address is refused). Node skips the lookup for an IP literal: the provider checks the
 * endpoint URL itself before each call (checkEndpoint). `port` is the endpoint's: virtual-host
 * names (bucket.host) share it, and the guard allows a non-standard port only where the
 * operator allows the address.
 */
export function guardedAgents(guard: OutboundGuardApi, protocol: string, port: string) {
  const lookup = (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    const url = new URL(
      `${protocol}//${hostname.includes(':') ? `[${hostname}]` : hostname}${port ? `:${port}` : ''}`,
    )
    guard.resolveChecked(url).then(
      (address) => {
        const family = address.includes(':') ? 6 : 4
        if (options.all) callback(null, [{ address, family }])
        else callback(null, address, family)
      },
      (err: Error) => callback(err, []),
    )
  }
  const options = { keepAlive: true, maxSockets: 16, lookup: lookup as never }
  return { httpAgent: new HttpAgent(options), httpsAgent: new HttpsAgent(options) }
}
