/**
 * Password guessing slowed: POST /auth/token takes at most LOGIN_LIMITS attempts a calendar minute
 * per email and per client address, then answers 429 with Retry-After. Each attempt is counted by
 * one atomic statement in the database (login_counters), so every process of a database shares the
 * counts, as the API keys' limits do. A successful login is given back to its email, so only failed
 * ones use up an email's allowance; an address's counts every attempt (someone with an account of
 * their own could otherwise hide guesses at others' emails between their own logins). Each refused
 * password is recorded in login_failures.
 */
import { decremented, minuteCounter } from '../../store/fragments.js'
import { AppError } from '../../kernel/errors.js'
import type { Store } from '../../store/store.js'

export const LOGIN_LIMITS = { perEmail: 10, perAddress: 30 }
/** How long login_failures keeps a failed login. */
export const LOGIN_AUDIT_DAYS = 90
const MINUTE = 60_000

const emailSubject = (email: string) => `email:${email.toLowerCase()}`

/**
 * The address a limit counts: an IPv4-mapped IPv6 address as IPv4, another IPv6 address by its /64
 * (one machine is usually given a whole /64, and could otherwise take a new address per guess).
 */
export function addressSubject(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return `address:${mapped[1]}`
  if (!address.includes(':')) return `address:${address}`
  const [head, tail = ''] = address.toLowerCase().split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = address.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left
  return `address:${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}

/** Count one attempt of `subject` in this minute's window; the count after it. */
async function take(store: Store, subject: string, window: number): Promise<number> {
  const row = await store.db
    .insertInto('login_counters')
    .values({ subject, minute_window: window, count: 1 })
    .onConflict((oc) => oc.column('subject').doUpdateSet(minuteCounter('login_counters', window)))
    .returning('count')
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/**
 * Count a login attempt against its email and, when known, its client's address; a 429 naming the
 * limit when either has no room left this minute.
 */
export async function takeLoginAttempt(store: Store, email: string, address: string | undefined, now: Date): Promise<void> {
  const window = Math.floor(now.getTime() / MINUTE)
  const retryAfter = Math.max(1, Math.ceil(((window + 1) * MINUTE - now.getTime()) / 1000))
  const refuse = (what: string, limit: number) =>
    new AppError('rate_limited', `too many login attempts ${what}: at most ${limit} a minute; try again in ${retryAfter} s`, {
      retryAfter,
    })
  if ((await take(store, emailSubject(email), window)) > LOGIN_LIMITS.perEmail) throw refuse('for this email', LOGIN_LIMITS.perEmail)
  if (address !== undefined && (await take(store, addressSubject(address), window)) > LOGIN_LIMITS.perAddress)
    throw refuse('from this address', LOGIN_LIMITS.perAddress)
}

/** A successful login does not use up its email's allowance. */
export async function giveBackLoginAttempt(store: Store, email: string, now: Date): Promise<void> {
  await store.db
    .updateTable('login_counters')
    .set({ count: decremented('count') })
    .where('subject', '=', emailSubject(email))
    .where('minute_window', '=', Math.floor(now.getTime() / MINUTE))
    .where('count', '>', 0)
    .execute()
}

export async function recordLoginFailure(
  store: Store,
  f: { email: string; userId: string | undefined; address: string | undefined },
  now: Date,
): Promise<void> {
  await store.db
    .insertInto('login_failures')
    .values({ email: f.email.toLowerCase(), user_id: f.userId ?? null, client_address: f.address ?? null, created_at: now.toISOString() })
    .execute()
}

/** Counters of past minutes and failures past LOGIN_AUDIT_DAYS (housekeeping.ts). */
export async function pruneLoginRecords(store: Store, now: Date): Promise<void> {
  await store.db
    .deleteFrom('login_counters')
    .where('minute_window', '<', Math.floor(now.getTime() / MINUTE))
    .execute()
  await store.db
    .deleteFrom('login_failures')
    .where('created_at', '<', new Date(now.getTime() - LOGIN_AUDIT_DAYS * 86_400_000).toISOString())
    .execute()
}
