import ipaddr from 'ipaddr.js'
import { ProblemError } from '../kernel/problem-error.ts'

export type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number]

/** A plain address becomes a /32 or /128 range. */
export function parseCidr(text: string): Cidr {
  const trimmed = text.trim()
  if (trimmed.includes('/')) return ipaddr.parseCIDR(trimmed)
  const addr = ipaddr.parse(trimmed)
  return [addr, addr.kind() === 'ipv4' ? 32 : 128]
}

export function parseCidrList(list: string[]): Cidr[] {
  return list.map((text, i) => {
    try {
      return parseCidr(text)
    } catch {
      throw new ProblemError('validation_error', `${text} is not an IPv4 or IPv6 CIDR range`, {
        errors: [{ path: `/${i}`, code: 'invalid_cidr', message: `${text} is not a CIDR range` }],
      })
    }
  })
}

/** IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) count as their IPv4 address. */
export function normaliseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  try {
    const addr = ipaddr.parse(text)
    if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
      return (addr as ipaddr.IPv6).toIPv4Address()
    }
    return addr
  } catch {
    return undefined
  }
}

export function addressInRanges(address: string, ranges: Cidr[]): boolean {
  const addr = normaliseAddress(address)
  if (!addr) return false
  return ranges.some(([range, bits]) => addr.kind() === range.kind() && addr.match(range, bits))
}
