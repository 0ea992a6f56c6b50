/**
 * Where a webhook may point (docs/events.md, "Where an endpoint may point"): http or https, and never
 * at a link-local address or a cloud's metadata service, whose answers hold credentials, unless
 * FINCTL_WEBHOOK_ALLOW_LINK_LOCAL=1. Loopback and private addresses are refused by `finctl serve`
 * (one company's endpoint must not reach the service's own network) unless it is told otherwise, and
 * allowed by the embedded core. Checked when an endpoint is made or changed (its name resolved), and
 * on every connection, on the address connected to (`checkedLookup`, which the deliveries' dispatcher
 * resolves with): a name cannot pass the check with one address and be reached at another.
 */
import { lookup as dnsLookup } from 'node:dns/promises'
import { BlockList, isIP, type LookupFunction } from 'node:net'
import { AppError, validation } from '../../kernel/errors.js'

export type AddressClass = 'loopback' | 'private' | 'link-local'

export interface ResolvedAddress {
  address: string
  family: number
}

/** What a process's webhooks may reach; `webhookPolicy` builds it from the service's settings. */
export interface AddressPolicy {
  /** Loopback, private and shared (100.64/10) ranges: the embedded core; `finctl serve` when told so. */
  allowPrivate: boolean
  /** Link-local ranges and the metadata services (FINCTL_WEBHOOK_ALLOW_LINK_LOCAL=1). */
  allowLinkLocal: boolean
  /** A name's addresses (default: the system's resolver, as a connection would use). */
  resolve?: (host: string) => Promise<ResolvedAddress[]>
}

/**
 * The policy of the embedded core (`service: false`: loopback and private allowed) or of
 * `finctl serve` (refused unless `allowPrivate`, its flag, or FINCTL_WEBHOOK_ALLOW_PRIVATE=1).
 */
export function webhookPolicy(o: { service: boolean; allowPrivate?: boolean }, env: NodeJS.ProcessEnv = process.env): AddressPolicy {
  return {
    allowPrivate: !o.service || o.allowPrivate === true || env.FINCTL_WEBHOOK_ALLOW_PRIVATE === '1',
    allowLinkLocal: env.FINCTL_WEBHOOK_ALLOW_LINK_LOCAL === '1',
  }
}

const V4: Record<AddressClass, Array<[string, number]>> = {
  // 0.0.0.0/8 as loopback: connecting to 0.0.0.0 reaches this machine.
  loopback: [
    ['127.0.0.0', 8],
    ['0.0.0.0', 8],
  ],
  private: [
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['100.64.0.0', 10],
  ],
  // 100.100.100.200: Alibaba Cloud's metadata service (also inside 100.64/10).
  'link-local': [
    ['169.254.0.0', 16],
    ['100.100.100.200', 32],
  ],
}

const V6: Record<AddressClass, Array<[string, number]>> = {
  loopback: [
    ['::1', 128],
    ['::', 128],
  ],
  // Unique local, the deprecated site-local, and NAT64's local-use prefix (RFC 8215).
  private: [
    ['fc00::', 7],
    ['fec0::', 10],
    ['64:ff9b:1::', 48],
  ],
  // fd00:ec2::254: AWS's metadata service over IPv6 (also inside fc00::/7).
  'link-local': [
    ['fe80::', 10],
    ['fd00:ec2::254', 128],
  ],
}

/** One BlockList a class, of each family. */
function blockList(c: AddressClass): BlockList {
  const list = new BlockList()
  for (const [net, bits] of V4[c]) list.addSubnet(net, bits, 'ipv4')
  for (const [net, bits] of V6[c]) list.addSubnet(net, bits, 'ipv6')
  return list
}

const CLASSES: Array<[AddressClass, BlockList]> = (['link-local', 'loopback', 'private'] as const).map((c) => [c, blockList(c)])

/** An IPv6 address (valid, as isIP says) as its eight 16-bit groups. */
function groupsOf(address: string): number[] {
  let a = address.toLowerCase().replace(/%.*$/, '')
  const quad = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a)
  if (quad) {
    const [b0, b1, b2, b3] = quad.slice(2).map(Number)
    a = `${quad[1]}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`
  }
  const [head, tail] = a.split('::')
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : [])
  const h = part(head)
  const t = part(tail)
  return tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t]
}

const v4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`

/**
 * The IPv4 addresses an IPv6 address carries, by every known embedding: IPv4-mapped (::ffff:0:0/96),
 * -translated (::ffff:0:0:0/96), -compatible (::/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16), Teredo
 * (2001::/32: its server and its client, the latter inverted) and ISATAP (an interface id of
 * 0:5efe or 200:5efe under any prefix). A tunnel or translator on the way delivers to that address.
 */
export function embeddedIpv4(address: string): string[] {
  const g = groupsOf(address)
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0)
  const out: string[] = []
  if (zeros(0, 5) && g[5] === 0xffff) out.push(v4Of(g[6], g[7]))
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) out.push(v4Of(g[6], g[7]))
  if (zeros(0, 6)) out.push(v4Of(g[6], g[7]))
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) out.push(v4Of(g[6], g[7]))
  if (g[0] === 0x2002) out.push(v4Of(g[1], g[2]))
  if (g[0] === 0x2001 && g[1] === 0) out.push(v4Of(g[2], g[3]), v4Of(g[6] ^ 0xffff, g[7] ^ 0xffff))
  if ((g[4] === 0 || g[4] === 0x200) && g[5] === 0x5efe) out.push(v4Of(g[6], g[7]))
  return out
}

/** The class of an IP address (any notation Node reads), or undefined for a public one. */
export function addressClass(address: string): AddressClass | undefined {
  const a = address.replace(/^\[|\]$/g, '')
  const family = isIP(a)
  if (family === 0) return undefined
  const v4 = family === 4 ? [a] : embeddedIpv4(a)
  return CLASSES.find(([, list]) => (family === 6 && list.check(a, 'ipv6')) || v4.some((x) => list.check(x, 'ipv4')))?.[0]
}

export interface Refusal {
  /** What the address is: `a loopback address`. */
  what: string
  /** The setting that would allow it. */
  allowedBy: string
}

/** Why `address` is refused under `policy` (undefined: it is not). */
export function refusal(address: string, policy: AddressPolicy): Refusal | undefined {
  const c = addressClass(address)
  if (c === undefined) return undefined
  if (c === 'link-local')
    return policy.allowLinkLocal
      ? undefined
      : { what: 'a link-local or cloud metadata address', allowedBy: 'FINCTL_WEBHOOK_ALLOW_LINK_LOCAL=1' }
  if (policy.allowPrivate) return undefined
  return { what: `a ${c} address`, allowedBy: 'finctl serve --webhooks-allow-private, or FINCTL_WEBHOOK_ALLOW_PRIVATE=1' }
}

const systemResolve = async (host: string): Promise<ResolvedAddress[]> => dnsLookup(host, { all: true })

/** A name's addresses, every one of them allowed, or an error naming the first refused. */
export async function resolveChecked(host: string, policy: AddressPolicy): Promise<ResolvedAddress[]> {
  const addresses = await (policy.resolve ?? systemResolve)(host)
  for (const { address } of addresses) {
    const why = refusal(address, policy)
    if (why) throw new Error(`refused: ${host} resolves to ${address}, ${why.what}`)
  }
  return addresses
}

/**
 * A `lookup` for net and tls connections: the name is resolved once, its addresses checked, and the
 * connection goes to one of them, so what is checked is what is reached.
 */
export function checkedLookup(policy: AddressPolicy): LookupFunction {
  return (host, options, callback) => {
    resolveChecked(host, policy).then(
      (all) => {
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family
        const list = family === 4 || family === 6 ? all.filter((a) => a.family === family) : all
        if (list.length === 0) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), '', 0)
        if (options.all) return (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, list)
        callback(null, list[0].address, list[0].family)
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    )
  }
}

/** The URL parsed, or a validation error naming `field`. */
export function parseWebhookUrl(text: string, field = 'url'): URL {
  let u: URL
  try {
    u = new URL(text)
  } catch {
    throw validation(field, 'must be an absolute http or https URL')
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw validation(field, 'must be an http or https URL')
  if (u.username || u.password) throw validation(field, 'must not hold a user name or password (sign with the secret instead)')
  return u
}

/** The host of a parsed URL as an address or a name (URL parsing has normalised every IP notation). */
export const hostOf = (u: URL): string => u.hostname.replace(/^\[|\]$/g, '')

/** Refuse a URL whose host is, or resolves to, an address `policy` refuses; `field` is named in the 400. */
export async function checkWebhookUrl(text: string, policy: AddressPolicy, field = 'url'): Promise<URL> {
  const u = parseWebhookUrl(text, field)
  if (policy.allowLinkLocal && policy.allowPrivate) return u
  const host = hostOf(u)
  let addresses: string[]
  if (isIP(host)) addresses = [host]
  else {
    try {
      addresses = (await (policy.resolve ?? systemResolve)(host)).map((r) => r.address)
    } catch {
      throw validation(field, `host ${host} does not resolve`)
    }
  }
  for (const address of addresses) {
    const why = refusal(address, policy)
    if (why)
      throw new AppError('validation_error', `${field}: ${host} is ${why.what} (${address}): refused`, {
        details: [{ path: field, message: `resolves to ${address}, ${why.what} (${why.allowedBy} allows it)` }],
      })
  }
  return u
}
