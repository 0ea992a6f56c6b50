/**
 * Signing and sending one delivery (docs/events.md, "Verifying a delivery"). The header is
 * `Finctl-Signature: t=UNIX_SECONDS,v1=HEX(HMAC-SHA256(secret, t + "." + body))`, as Stripe's.
 */
import { createHmac } from 'node:crypto'
import { isIP } from 'node:net'
import type { Dispatcher } from 'undici'
import { monotonicMs } from '../../kernel/clock.js'
import { VERSION } from '../../version.js'
import { type AddressPolicy, checkedLookup, hostOf, parseWebhookUrl, refusal, webhookPolicy } from './url-check.js'

export function signature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
}

export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${signature(secret, timestamp, body)}`
}

/** How long a receiver may take to answer (FINCTL_WEBHOOK_TIMEOUT_MS, default 10 s). */
export function sendTimeoutMs(): number {
  const n = Number(process.env.FINCTL_WEBHOOK_TIMEOUT_MS)
  return Number.isFinite(n) && n > 0 ? n : 10_000
}

export interface Sent {
  ok: boolean
  status_code: number | null
  error: string | null
  duration_ms: number
}

/** One dispatcher a policy: its connections resolve names through the policy's check. */
const dispatchers = new Map<string, Dispatcher>()
const ownDispatchers = new WeakMap<AddressPolicy, Dispatcher>()

async function dispatcherFor(policy: AddressPolicy): Promise<Dispatcher> {
  const key = `${policy.allowPrivate}/${policy.allowLinkLocal}`
  const known = policy.resolve ? ownDispatchers.get(policy) : dispatchers.get(key)
  if (known) return known
  const { Agent } = await import('undici')
  const agent = new Agent({ connect: { lookup: checkedLookup(policy) } })
  if (policy.resolve) ownDispatchers.set(policy, agent)
  else dispatchers.set(key, agent)
  return agent
}

/**
 * POST an event's JSON to `url`, signed now; a 2xx is success, anything else (or no answer in time)
 * is not. `policy` says which addresses it may reach (default: the embedded core's).
 */
export async function sendEvent(
  url: string,
  secret: string,
  event: { id: string; type: string },
  now: Date,
  body = JSON.stringify(event),
  policy: AddressPolicy = webhookPolicy({ service: false }),
): Promise<Sent> {
  const started = monotonicMs()
  const took = () => Math.round(monotonicMs() - started)
  const timeout = sendTimeoutMs()
  try {
    // An address in the URL is connected to as it is; a name is checked as it is resolved (dispatcherFor).
    const host = hostOf(parseWebhookUrl(url))
    const refused = isIP(host) ? refusal(host, policy) : undefined
    if (refused) return { ok: false, status_code: null, error: `refused: ${host} is ${refused.what}`, duration_ms: took() }
    // undici's request, not fetch: a third of fetch's CPU a delivery, which `finctl serve` spends
    // beside the requests it answers (docs/performance.md, "Webhooks on a large import"). It follows
    // no redirect: a 3xx is an answer that is not a 2xx.
    const { request } = await import('undici')
    const res = await request(url, {
      dispatcher: await dispatcherFor(policy),
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': `finctl-webhooks/${VERSION}`,
        'finctl-event-id': event.id,
        'finctl-event-type': event.type,
        'finctl-signature': signatureHeader(secret, Math.floor(now.getTime() / 1000), body),
      },
      body,
      signal: AbortSignal.timeout(timeout),
    })
    await res.body.dump().catch(() => {})
    const ok = res.statusCode >= 200 && res.statusCode < 300
    return { ok, status_code: res.statusCode, error: ok ? null : `HTTP ${res.statusCode}`, duration_ms: took() }
  } catch (e) {
    const err = e as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } }
    const why =
      err.name === 'TimeoutError' || err.cause?.code === 'UND_ERR_ABORTED'
        ? `no answer in ${timeout} ms`
        : (err.cause?.code ?? err.code ?? err.cause?.message ?? err.message ?? 'failed')
    return { ok: false, status_code: null, error: why, duration_ms: took() }
  }
}
