import ipaddr from 'ipaddr.js'

const v4 = (high: number, low: number): ipaddr.IPv4 =>
  new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff])

const zero = (parts: number[]): boolean => parts.every((p) => p === 0)

/**
 * The IPv4 addresses an IPv6 address delivers to, for the transition mechanisms that carry one:
 * IPv4-compatible ::a.b.c.d (deprecated, yet some stacks still send it as IPv4), IPv4-mapped
 * ::ffff:a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d (SIIT), NAT64 64:ff9b::a.b.c.d (RFC 6052),
 * 6to4 2002:aabb:ccdd:: and Teredo 2001:0:<server>::<client, inverted>. Undefined for any other
 * address. The local-use NAT64 prefix 64:ff9b:1::/48 is not read: where its IPv4 sits depends on
 * the operator's prefix length, so it is judged as the non-public range it is.
 */
export function embeddedIpv4(addr: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const p = addr.parts as number[]
  const [p0 = 0, p1 = 0, p2 = 0, p3 = 0, p4 = 0, p5 = 0, p6 = 0, p7 = 0] = p
  if (zero(p.slice(0, 5)) && (p5 === 0 || p5 === 0xffff)) return [v4(p6, p7)]
  if (zero(p.slice(0, 4)) && p4 === 0xffff && p5 === 0) return [v4(p6, p7)]
  if (p0 === 0x64 && p1 === 0xff9b && zero(p.slice(2, 6))) return [v4(p6, p7)]
  if (p0 === 0x2002) return [v4(p1, p2)]
  if (p0 === 0x2001 && p1 === 0) return [v4(p2, p3), v4(p6 ^ 0xffff, p7 ^ 0xffff)]
  return undefined
}
