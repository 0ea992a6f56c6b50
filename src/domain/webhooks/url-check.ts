/**
 * Where a webhook may point (docs/events.md, "Where an endpoint may point"): http or https, and never
 * at a link-local address (169.254.0.0/16, fe80::/10) or a cloud's metadata service, whose answers
 * hold credentials, unless FINCTL_WEBHOOK_ALLOW_LINK_LOCAL=1. Loopback and private addresses are
 * allowed: a receiver on the same machine is how one develops against finctl. Checked when an
 * endpoint is made or changed and again before every send (a name may resolve elsewhere later).
 */
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { AppError, validation } from '../../kernel/errors.js'

/** Metadata services outside 169.254/16 (AWS over IPv6, Alibaba Cloud). */
const METADATA = new Set(['fd00:ec2::254', '100.100.100.200'])

export function allowLinkLocal(): boolean {
  return process.env.FINCTL_WEBHOOK_ALLOW_LINK_LOCAL === '1'
}

/** Whether an address is link-local or a metadata service's. */
export function refusedAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^::ffff:(?=\d+\.)/, '')
  if (METADATA.has(a)) return true
  if (isIP(a) === 4) return a.startsWith('169.254.')
  if (isIP(a) === 6) return /^fe[89ab][0-9a-f]:/.test(a)
  return false
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

/** Refuse a URL whose host is, or resolves to, a refused address; `field` is named in the 400. */
export async function checkWebhookUrl(text: string, field = 'url'): Promise<URL> {
  const u = parseWebhookUrl(text, field)
  if (allowLinkLocal()) return u
  const host = u.hostname.replace(/^\[|\]$/g, '')
  let addresses: string[]
  if (isIP(host)) addresses = [host]
  else {
    try {
      addresses = (await lookup(host, { all: true })).map((r) => r.address)
    } catch {
      throw validation(field, `host ${host} does not resolve`)
    }
  }
  const bad = addresses.find(refusedAddress)
  if (bad)
    throw new AppError('validation_error', `${field}: ${host} is a link-local or cloud metadata address (${bad}): refused`, {
      details: [
        { path: field, message: `resolves to ${bad}, a link-local or metadata address (FINCTL_WEBHOOK_ALLOW_LINK_LOCAL=1 allows it)` },
      ],
    })
  return u
}
