/**
 * Where a webhook may point (src/domain/webhooks/url-check.ts): every notation of a
 * refused address is refused after normalising (IPv4 in decimal, octal and hex; IPv4-mapped,
 * -translated and -compatible IPv6, NAT64, 6to4, Teredo, ISATAP; names resolving to them), by `finctl serve`'s policy unless it allows
 * private ranges, and link-local ones unless FINCTL_WEBHOOK_ALLOW_LINK_LOCAL=1. The check applies to
 * the address connected to: a name answering differently the second time reaches nothing refused.
 * No test sends anything but to 127.0.0.1.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../src/kernel/errors.js'
import { sendEvent } from '../../src/domain/webhooks/send.js'
import {
  type AddressPolicy,
  type ResolvedAddress,
  addressClass,
  checkWebhookUrl,
  webhookPolicy,
} from '../../src/domain/webhooks/url-check.js'

const SERVE: AddressPolicy = { allowPrivate: false, allowLinkLocal: false }
const PRIVATE_OK: AddressPolicy = { allowPrivate: true, allowLinkLocal: false }
const ALL_OK: AddressPolicy = { allowPrivate: true, allowLinkLocal: true }

/** Link-local and metadata addresses, in every notation of the finding and more. */
const LINK_LOCAL = [
  'http://169.254.169.254/latest/meta-data',
  'http://2852039166/',
  'http://0251.0376.0251.0376/',
  'http://0xa9.0xfe.0xa9.0xfe/',
  'http://0xa9fea9fe/',
  'http://169.254.43518/',
  'http://[fe80::1]/',
  'http://[fd00:ec2::254]/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://[0:0:0:0:0:ffff:169.254.169.254]/',
  'http://[::169.254.169.254]/',
  'http://[64:ff9b::169.254.169.254]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[2002:a9fe:a9fe::1]/',
  'http://[::ffff:100.100.100.200]/',
  'http://100.100.100.200/',
  'http://[FE80::abcd]:8080/',
  'http://[::ffff:0:169.254.169.254]/',
  'http://[2002:a9fe:a9fe::]/',
  'http://[2001:0:4136:e378:8000:63bf:5601:5601]/',
  'http://[2001:db8::5efe:a9fe:a9fe]/',
]

/** Loopback and private ranges: refused by `finctl serve` unless allowed. */
const PRIVATE = [
  'http://127.0.0.1:9/hook',
  'http://127.1/',
  'http://2130706433/',
  'http://0x7f.0.0.1/',
  'http://0177.0.0.1/',
  'http://0.0.0.0/',
  'http://[::1]/',
  'http://[::]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[::127.0.0.1]/',
  'http://[64:ff9b::127.0.0.1]/',
  'http://10.1.2.3/',
  'http://172.16.0.1/',
  'http://172.31.255.255/',
  'http://192.168.1.1/',
  'http://100.64.0.1/',
  'http://[::ffff:10.0.0.1]/',
  'http://[::ffff:192.168.0.1]/',
  'http://[64:ff9b::10.0.0.1]/',
  'http://[2002:0a00:0001::]/',
  'http://[fc00::1]/',
  'http://[fd12:3456::1]/',
  'http://[fec0::1]/',
  'http://[64:ff9b:1::a00:1]/',
  // IPv4-translated (SIIT), and IPv4 carried by 6to4, Teredo (its client inverted, or its server) and ISATAP.
  'http://[::ffff:0:127.0.0.1]/',
  'http://[::ffff:0:7f00:1]/',
  'http://[0:0:0:0:ffff:0:10.0.0.1]/',
  'http://[64:ff9b::7f00:1]/',
  'http://[::7f00:1]/',
  'http://[2002:7f00:1::]/',
  'http://[2002:c0a8:101::1]/',
  'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
  'http://[2001:0:a00:1:8000:63bf:a3b8:d822]/',
  'http://[2001:db8::5efe:7f00:1]/',
  'http://[2001:db8::200:5efe:c0a8:101]/',
]

/** Public addresses: allowed everywhere (only checked, never connected to). */
const PUBLIC = [
  'http://93.184.216.34/',
  'http://[2606:4700:4700::1111]/',
  'http://[::ffff:8.8.8.8]/',
  'http://[64:ff9b::8.8.8.8]/',
  'http://[::ffff:0:8.8.8.8]/',
  'http://[2002:808:808::1]/',
  'http://[2001:0:808:808:8000:63bf:f7f7:f7f7]/',
  'http://[2001:db8::5efe:808:808]/',
  'http://172.32.0.1/',
  'http://100.128.0.1/',
  'http://169.255.0.1/',
]

async function refused(url: string, policy: AddressPolicy): Promise<AppError | undefined> {
  const e = await checkWebhookUrl(url, policy).catch((x: unknown) => x)
  if (e instanceof URL) return undefined
  expect(e, url).toBeInstanceOf(AppError)
  return e as AppError
}

describe('the address check', () => {
  it.each(LINK_LOCAL)('%s is refused, also where private ranges are allowed; the link-local setting allows it', async (url) => {
    for (const policy of [SERVE, PRIVATE_OK]) {
      const e = await refused(url, policy)
      expect(e?.code, url).toBe('validation_error')
      expect(e?.details?.[0]).toMatchObject({ path: 'url', message: expect.stringContaining('link-local or cloud metadata') })
    }
    expect(await refused(url, { allowPrivate: true, allowLinkLocal: true })).toBeUndefined()
  })

  it.each(PRIVATE)('%s is refused by finctl serve, allowed where private ranges are', async (url) => {
    const e = await refused(url, SERVE)
    expect(e?.details?.[0]).toMatchObject({ path: 'url', message: expect.stringMatching(/a (loopback|private) address/) })
    expect(e?.details?.[0].message).toContain('--webhooks-allow-private')
    expect(await refused(url, PRIVATE_OK)).toBeUndefined()
  })

  it.each(PUBLIC)('%s is allowed', async (url) => {
    expect(await refused(url, SERVE)).toBeUndefined()
    expect(addressClass(new URL(url).hostname)).toBeUndefined()
  })

  it('addresses as a resolver gives them, in any notation', () => {
    expect(addressClass('::ffff:a9fe:a9fe')).toBe('link-local')
    expect(addressClass('0:0:0:0:0:ffff:169.254.169.254')).toBe('link-local')
    expect(addressClass('::ffff:127.0.0.1')).toBe('loopback')
    expect(addressClass('::')).toBe('loopback')
    expect(addressClass('fd00:ec2::254')).toBe('link-local')
    expect(addressClass('fd00:ec2::253')).toBe('private')
    expect(addressClass('100.100.100.200')).toBe('link-local')
    expect(addressClass('100.100.100.201')).toBe('private')
    expect(addressClass('example.com')).toBeUndefined()
  })

  it('a name resolving to a refused address is refused, in whatever notation the resolver answers', async () => {
    const answers: Record<string, ResolvedAddress[]> = {
      'metadata.test': [{ address: '::ffff:169.254.169.254', family: 6 }],
      'nat64.test': [{ address: '64:ff9b::a9fe:a9fe', family: 6 }],
      'mixed.test': [
        { address: '93.184.216.34', family: 4 },
        { address: '::ffff:7f00:1', family: 6 },
      ],
      'public.test': [{ address: '93.184.216.34', family: 4 }],
    }
    const resolve = async (host: string) => answers[host] ?? []
    expect((await refused('http://metadata.test/', { ...PRIVATE_OK, resolve }))?.details?.[0].message).toContain('::ffff:169.254.169.254')
    expect(await refused('http://nat64.test/', { ...PRIVATE_OK, resolve })).toBeDefined()
    expect((await refused('http://mixed.test/', { ...SERVE, resolve }))?.details?.[0].message).toContain('::ffff:7f00:1, a loopback')
    expect(await refused('http://mixed.test/', { ...PRIVATE_OK, resolve })).toBeUndefined()
    expect(await refused('http://public.test/', { ...SERVE, resolve })).toBeUndefined()
    // The system's resolver: localhost is loopback.
    expect((await refused('http://localhost:9/hook', SERVE))?.details?.[0].message).toContain('a loopback address')
  })

  it("the service's setting: the flag or FINCTL_WEBHOOK_ALLOW_PRIVATE=1; the embedded core allows private ranges", () => {
    expect(webhookPolicy({ service: true }, {})).toEqual(SERVE)
    expect(webhookPolicy({ service: true, allowPrivate: true }, {})).toEqual(PRIVATE_OK)
    expect(webhookPolicy({ service: true }, { FINCTL_WEBHOOK_ALLOW_PRIVATE: '1' })).toEqual(PRIVATE_OK)
    expect(webhookPolicy({ service: true }, { FINCTL_WEBHOOK_ALLOW_PRIVATE: '0' })).toEqual(SERVE)
    expect(webhookPolicy({ service: false }, {})).toEqual(PRIVATE_OK)
    expect(webhookPolicy({ service: true }, { FINCTL_WEBHOOK_ALLOW_LINK_LOCAL: '1' })).toEqual({
      allowPrivate: false,
      allowLinkLocal: true,
    })
    expect(webhookPolicy({ service: false }, { FINCTL_WEBHOOK_ALLOW_LINK_LOCAL: '1' })).toEqual(ALL_OK)
  })
})

describe('the check on the address connected to', () => {
  const hits: string[] = []
  const server = createServer((req, res) => {
    hits.push(String(req.headers.host))
    req.resume().on('end', () => res.writeHead(200).end())
  })
  let port = 0
  const event = { id: 'evt_1', type: 'transaction.created' }
  const now = new Date()

  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    port = (server.address() as AddressInfo).port
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((r) => server.close(r))
  })

  it('[::ffff:127.0.0.1] does not reach a listener on IPv4 loopback from finctl serve; the embedded core sends', async () => {
    hits.length = 0
    const url = `http://[::ffff:127.0.0.1]:${port}/hook`
    expect(await sendEvent(url, 's', event, now, undefined, SERVE)).toMatchObject({
      ok: false,
      status_code: null,
      error: 'refused: ::ffff:7f00:1 is a loopback address',
    })
    expect(hits).toEqual([])
    expect(await sendEvent(url, 's', event, now, undefined, PRIVATE_OK)).toMatchObject({ ok: true, status_code: 200 })
    expect(hits).toHaveLength(1)
  })

  it('a name answering a public address to the check and loopback to the connection reaches nothing', async () => {
    hits.length = 0
    let asked = 0
    // DNS rebinding: the first answer passes the check, the second points at this machine.
    const resolve = async (): Promise<ResolvedAddress[]> =>
      asked++ === 0 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]
    const policy: AddressPolicy = { ...SERVE, resolve }
    const url = `http://rebind.test:${port}/hook`
    await expect(checkWebhookUrl(url, policy)).resolves.toBeInstanceOf(URL)
    const sent = await sendEvent(url, 's', event, now, undefined, policy)
    expect(sent).toMatchObject({ ok: false, status_code: null, error: 'refused: rebind.test resolves to 127.0.0.1, a loopback address' })
    expect(asked).toBe(2)
    expect(hits).toEqual([])
  })

  it('the connection goes to the address the check resolved, not to a second resolution', async () => {
    hits.length = 0
    let asked = 0
    // rebind.test exists in no DNS: reaching the receiver shows the connection used the checked answer.
    const resolve = async (): Promise<ResolvedAddress[]> => {
      asked++
      return [{ address: '127.0.0.1', family: 4 }]
    }
    const sent = await sendEvent(`http://rebind.test:${port}/hook`, 's', event, now, undefined, { ...PRIVATE_OK, resolve })
    expect(sent).toMatchObject({ ok: true, status_code: 200 })
    expect(asked).toBe(1)
    expect(hits).toEqual([`rebind.test:${port}`])
  })
})
