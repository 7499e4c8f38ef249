import { describe, expect, it } from 'vitest'
import { AddressPolicy } from './address-policy.ts'

const closed = new AddressPolicy([])

describe('AddressPolicy and IPv6 addresses that carry an IPv4 one', () => {
  it.each([
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['IPv4-compatible loopback, as URLs write it', '::7f00:1'],
    ['IPv4-compatible private', '::10.1.2.3'],
    ['IPv4-compatible metadata', '::169.254.169.254'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-translated (SIIT) private', '::ffff:0:192.168.1.1'],
    ['NAT64 loopback', '64:ff9b::127.0.0.1'],
    ['NAT64 metadata', '64:ff9b::a9fe:a9fe'],
    ['local-use NAT64', '64:ff9b:1::a01:203'],
    ['6to4 of a private address', '2002:0a00:0001::1'],
    ['6to4 of loopback', '2002:7f00:1::'],
    ['Teredo with a private server', '2001:0:a00:1::1'],
    // client 127.0.0.1, stored inverted: 0x80ff:0xfffe
    ['Teredo with a loopback client', '2001:0:808:808:0:0:80ff:fffe'],
  ])('refuses %s (%s)', (_name, address) => {
    expect(closed.addressRefusal(address)).toBeDefined()
  })

  it('reaches public IPv4 through the same mechanisms', () => {
    for (const address of ['64:ff9b::8.8.8.8', '2002:0808:0808::1', '2001:0:808:808::f7f7:f7f7']) {
      expect(closed.addressRefusal(address), address).toBeUndefined()
    }
  })

  it('lets the operator allow an embedded network through its IPv4 range', () => {
    const open = new AddressPolicy(['10.0.0.0/8'])
    expect(open.addressRefusal('64:ff9b::10.0.0.7')).toBeUndefined()
    expect(open.addressRefusal('64:ff9b::192.168.0.7')).toMatch(/private/)
  })
})
