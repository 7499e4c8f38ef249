import ipaddr from 'ipaddr.js'
import { ProblemError } from '../kernel/problem-error.ts'

export type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number]

/**
 * Range text is written by people, so only plain dotted-decimal IPv4 is read: ipaddr.parse would
 * take 010.0.0.1 as octal 8.0.0.1 and 10/8 as 0.0.0.10/8, quietly allowing other networks.
 */
function parseAddressText(text: string): ipaddr.IPv4 | ipaddr.IPv6 {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text)
  if (text.includes(':') && ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text)
  throw new Error(`${text} is not an IP address`)
}

/** A plain address becomes a /32 or /128 range; ::ffff:a.b.c.d/96+ becomes its IPv4 range. */
export function parseCidr(text: string): Cidr {
  const [addressText = '', bitsText, extra] = text.trim().split('/')
  if (extra !== undefined || (bitsText !== undefined && !/^\d{1,3}$/.test(bitsText)))
    throw new Error(`${text} is not a CIDR range`)
  const addr = parseAddressText(addressText)
  const max = addr.kind() === 'ipv4' ? 32 : 128
  const bits = bitsText === undefined ? max : Number(bitsText)
  if (bits > max) throw new Error(`${text} has more than ${max} prefix bits`)
  // clients are compared as IPv4 once unmapped, so mapped ranges must be too
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96)
    return [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96]
  return [addr, bits]
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

/**
 * Checks an allowlist and keeps it trimmed. An empty list means no restriction, for keys and
 * workspaces alike: stored as [] it would refuse every address.
 */
export function allowlistOrNull(cidrs: string[] | null | undefined): string[] | null {
  if (!cidrs || cidrs.length === 0) return null
  parseCidrList(cidrs)
  return cidrs.map((c) => c.trim())
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

/**
 * For lists checked when they were saved: an entry that no longer reads (rules got stricter)
 * matches nothing, so the request is refused rather than answered with a validation error.
 */
export function addressInList(address: string, list: string[]): boolean {
  return list.some((text) => {
    try {
      return addressInRanges(address, [parseCidr(text)])
    } catch {
      return false
    }
  })
}
