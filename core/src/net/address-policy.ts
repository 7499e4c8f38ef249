import type ipaddr from 'ipaddr.js'
import { addressInRanges, type Cidr, normaliseAddress, parseCidrList } from './cidr.ts'

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

  /** Why an address may not be connected to, or undefined when it may. */
  addressRefusal(address: string): string | undefined {
    const addr = normaliseAddress(address)
    if (!addr) return `${address} is not an IP address`
    if (this.isOperatorAllowed(address)) return undefined
    const range = addr.range()
    if (range !== 'unicast') return `${address} is a ${range} address`
    if (addr.kind() === 'ipv6' && embedsAnotherAddress(addr as ipaddr.IPv6))
      return `${address} embeds another address`
    return undefined
  }
}

function embedsAnotherAddress(addr: ipaddr.IPv6): boolean {
  const [first, second] = addr.parts
  // NAT64 (64:ff9b::/96) and Teredo (2001::/32) can reach IPv4 addresses we would refuse
  return (first === 0x64 && second === 0xff9b) || (first === 0x2001 && second === 0)
}

export function isStandardPort(url: URL): boolean {
  return url.port === '' || Number(url.port) === STANDARD_PORTS[url.protocol]
}

export function effectivePort(url: URL): number {
  return url.port ? Number(url.port) : (STANDARD_PORTS[url.protocol] ?? 0)
}
