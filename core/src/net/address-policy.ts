import type ipaddr from 'ipaddr.js'
import { addressInRanges, type Cidr, normaliseAddress, parseCidrList } from './cidr.ts'
import { embeddedIpv4 } from './embedded-ipv4.ts'

const STANDARD_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 }

/**
 * Which outbound destinations are allowed (DESIGN.md §7): public unicast addresses, on the
 * standard port of http or https. Addresses inside DOCSVC_NETWORK_ALLOW are the operator's own
 * networks: any address there may be reached, on any port (on-premise webhooks, test servers).
 */
export class AddressPolicy {
  readonly #allowed: Cidr[]

  constructor(networkAllow: string[]) {
    this.#allowed = parseCidrList(networkAllow)
  }

  isOperatorAllowed(address: string): boolean {
    return this.#allowed.length > 0 && addressInRanges(address, this.#allowed)
  }

  /**
   * Why an address may not be connected to, or undefined when it may. The reason names the
   * address: it is for the operator's log, not for the tenant (see refusalText).
   */
  addressRefusal(address: string): string | undefined {
    const addr = normaliseAddress(address)
    if (!addr) return `${address} is not an IP address`
    if (this.isOperatorAllowed(address)) return undefined
    // an IPv6 address that carries an IPv4 one goes where the IPv4 one goes: judged as that
    const carried = addr.kind() === 'ipv6' ? embeddedIpv4(addr as ipaddr.IPv6) : undefined
    if (carried) {
      for (const inner of carried) {
        const reason = this.addressRefusal(inner.toString())
        if (reason) return `${address} carries ${inner}: ${reason}`
      }
      return undefined
    }
    const range = addr.range()
    if (range !== 'unicast') return `${address} is a ${range} address`
    return undefined
  }
}

export function isStandardPort(url: URL): boolean {
  return url.port === '' || Number(url.port) === STANDARD_PORTS[url.protocol]
}

export function effectivePort(url: URL): number {
  return url.port ? Number(url.port) : (STANDARD_PORTS[url.protocol] ?? 0)
}
