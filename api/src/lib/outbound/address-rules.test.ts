import { describe, expect, it } from 'vitest'
import { allowsAddress, allowsHost, parseAllowList, refusedRange } from './address-rules.ts'

describe('refusedRange (issue 40 item 1)', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    // IPv6 forms carrying an IPv4 address are judged by it.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::7f00:1', 'loopback'],
    ['::a00:1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:7f00:1::1', 'loopback'],
    ['2001::1', 'teredo'],
    ['localhost', 'not an IP address'],
  ])('refuses %s (%s)', (address, range) => {
    expect(refusedRange(address)).toBe(range)
  })

  it.each(['8.8.8.8', '93.184.215.14', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    'lets the public address %s through',
    (address) => {
      expect(refusedRange(address)).toBeNull()
    },
  )
})

describe('OUTBOUND_ALLOW_HOSTS', () => {
  const list = parseAllowList(
    ' Comfy.LAN , 10.1.2.3:8188, [fd00::5]:80, 192.168.0.0/16, fd00::/8 ,',
  )

  it('names hosts on any port, host:port pairs on theirs', () => {
    expect(allowsHost(list, 'comfy.lan', 8188)).toBe(true)
    expect(allowsHost(list, 'COMFY.lan', 80)).toBe(true)
    expect(allowsHost(list, '10.1.2.3', 8188)).toBe(true)
    expect(allowsHost(list, '10.1.2.3', 8189)).toBe(false)
    expect(allowsHost(list, '[fd00::5]', 80)).toBe(true)
    expect(allowsHost(list, 'other.lan', 8188)).toBe(false)
  })

  it('allows addresses in its ranges, IPv4-mapped ones by their IPv4', () => {
    expect(allowsAddress(list, '192.168.4.2')).toBe(true)
    expect(allowsAddress(list, '::ffff:192.168.4.2')).toBe(true)
    expect(allowsAddress(list, 'fd00::9')).toBe(true)
    expect(allowsAddress(list, '10.0.0.1')).toBe(false)
    expect(allowsAddress(list, '127.0.0.1')).toBe(false)
  })

  it('refuses, naming them, entries of no known form', () => {
    expect(() => parseAllowList('ok.lan, http://x.lan, 10.0.0.0/99, a b')).toThrow(
      'not a host name, host:port or CIDR range: http://x.lan, 10.0.0.0/99, a b',
    )
    expect(parseAllowList('')).toMatchObject({ ranges: [] })
  })
})
