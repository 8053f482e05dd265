import ipaddr from 'ipaddr.js'

/**
 * Which addresses an outbound request may reach (issue 40 item 1): public unicast only. The
 * ranges are ipaddr.js's (its `range()` names: loopback, private, linkLocal, carrierGradeNat,
 * multicast, unspecified, broadcast, reserved, uniqueLocal...); IPv6 forms that carry an IPv4
 * address (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, SIIT, 6to4)
 * are judged by the IPv4 address inside.
 */

/** IPv6 ranges whose low 32 bits are an IPv4 address. */
const EMBEDS_LOW_V4 = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052'])

/**
 * The name of the range that makes `address` unreachable (`loopback`, `private`,
 * `linkLocal`, `carrierGradeNat`, `uniqueLocal`, ... or `not an IP address`), or null for a
 * public unicast address.
 * @see issue 40 item 1
 */
export function refusedRange(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '')
  if (!ipaddr.isValid(bare)) return 'not an IP address'
  const parsed = ipaddr.parse(bare)
  if (parsed.kind() === 'ipv4') return judged(parsed.range())
  const v6 = parsed as ipaddr.IPv6
  const range = v6.range()
  const parts = v6.parts
  if (EMBEDS_LOW_V4.has(range) || parts.slice(0, 6).every((p) => p === 0)) {
    // `::` and `::1` are themselves (unspecified, loopback); `::a.b.c.d` is IPv4-compatible.
    if (range === 'unspecified' || range === 'loopback') return range
    return refusedRange(lowV4(parts[6]!, parts[7]!))
  }
  if (range === '6to4') return refusedRange(lowV4(parts[1]!, parts[2]!))
  return judged(range)
}

function judged(range: string): string | null {
  return range === 'unicast' ? null : range
}

function lowV4(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.')
}

/** True when `host` (a URL's hostname, IPv6 with or without brackets) is an IP literal. */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(host.replace(/^\[|\]$/g, ''))
}

/**
 * The operator's `OUTBOUND_ALLOW_HOSTS`, parsed: host names (any port), `host:port` pairs
 * and CIDR ranges (`10.0.0.0/8`, `fd00::/8`) reachable over `http:` too, address checks
 * aside.
 */
export interface AllowList {
  /** Lower-case host names (or IP literals) allowed on any port. */
  hosts: ReadonlySet<string>
  /** `host:port` (IPv6 as `[::1]:port`), lower case. */
  hostPorts: ReadonlySet<string>
  /** Ranges an address may lie in. */
  ranges: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][]
}

/** An allow list that allows nothing. */
export const NO_ALLOWED_HOSTS: AllowList = { hosts: new Set(), hostPorts: new Set(), ranges: [] }

/**
 * Parses a comma-separated allow list (`comfy.lan, 10.1.2.3:8188, 192.168.0.0/16`).
 * @throws Error naming every entry that is none of the three forms.
 * @see issue 40 item 1
 */
export function parseAllowList(text: string): AllowList {
  const hosts = new Set<string>()
  const hostPorts = new Set<string>()
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = []
  const bad: string[] = []
  for (const raw of text.split(',')) {
    const entry = raw.trim().toLowerCase()
    if (!entry) continue
    if (entry.includes('/')) {
      try {
        ranges.push(ipaddr.parseCIDR(entry))
      } catch {
        bad.push(entry)
      }
      continue
    }
    const hostPort = /^(\[[0-9a-f:.]+\]|[^:[\]]+):(\d{1,5})$/.exec(entry)
    if (hostPort && Number(hostPort[2]) <= 65535) {
      hostPorts.add(`${normalHost(hostPort[1]!)}:${Number(hostPort[2])}`)
    } else if (/^[a-z0-9.-]+$/.test(entry) || isIpLiteral(entry)) {
      hosts.add(normalHost(entry))
    } else {
      bad.push(entry)
    }
  }
  if (bad.length > 0) {
    throw new Error(
      `not a host name, host:port or CIDR range: ${bad.join(', ')} (e.g. comfy.lan, 10.1.2.3:8188, 192.168.0.0/16)`,
    )
  }
  return { hosts, hostPorts, ranges }
}

/** A host as URL.hostname spells it: IPv6 in brackets, normalised; names lower case. */
function normalHost(host: string): string {
  const bare = host.replace(/^\[|\]$/g, '')
  if (ipaddr.IPv6.isValid(bare) && !ipaddr.IPv4.isValid(bare)) {
    return `[${ipaddr.IPv6.parse(bare).toString()}]`
  }
  return bare.replace(/\.$/, '')
}

/** True when the list names `hostname` (as URL.hostname gives it) on `port`. */
export function allowsHost(list: AllowList, hostname: string, port: number): boolean {
  const host = normalHost(hostname.toLowerCase())
  return list.hosts.has(host) || list.hostPorts.has(`${host}:${port}`)
}

/** True when `address` lies in one of the list's ranges. */
export function allowsAddress(list: AllowList, address: string): boolean {
  if (list.ranges.length === 0) return false
  const bare = address.replace(/^\[|\]$/g, '')
  if (!ipaddr.isValid(bare)) return false
  const parsed = ipaddr.process(bare)
  return list.ranges.some(
    ([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits),
  )
}

/**
 * The name of the range that refuses `address` (as {@link refusedRange} names it), or null when
 * it is public or lies in one of the list's ranges.
 */
export function refusedAddress(list: AllowList, address: string): string | null {
  const range = refusedRange(address)
  return range !== null && !allowsAddress(list, address) ? range : null
}

/** The port a URL connects to (its default when it names none). */
export function portOf(url: URL): number {
  if (url.port) return Number(url.port)
  return url.protocol === 'https:' ? 443 : 80
}

/** True when the list names `url`'s host on its port, or its IP literal lies in a listed range. */
export function allowedByList(list: AllowList, url: URL): boolean {
  if (allowsHost(list, url.hostname, portOf(url))) return true
  return isIpLiteral(url.hostname) && allowsAddress(list, url.hostname)
}
