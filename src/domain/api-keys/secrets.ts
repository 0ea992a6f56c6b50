/**
 * API keys and passwords. Keys are `fds_` + 43 base62 characters (about 256 bits); only their
 * SHA-256 is stored, which is safe for random keys of that strength. Passwords are hashed with scrypt.
 */
import { createHash, randomBytes, randomInt, scrypt as scryptCb, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
export const KEY_PREFIX_LENGTH = 12
export const KEY_PATTERN = /^fds_[0-9A-Za-z]{43}$/

export function generateApiKey(): string {
  let out = 'fds_'
  for (let i = 0; i < 43; i++) out += BASE62[randomInt(62)]
  return out
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

export function keyPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX_LENGTH)
}

/**
 * OWASP's scrypt cost (N=2^17, r=8, p=1): 128 MiB and a few hundred milliseconds a hash. Node's
 * default maxmem (32 MiB) is below that. Hashes of a lower cost are upgraded at the next login.
 */
export const SCRYPT = { N: 2 ** 17, r: 8, p: 1 }
/**
 * The test suite's cost (FINCTL_TEST_PASSWORD_COST=low, set by vitest.config.ts): thousands of
 * logins at the real cost took minutes of CI. A hash made under it is upgraded at the next login
 * without it (docs/decisions.md, "Password hashing in the tests").
 */
const TEST_SCRYPT = { N: 2 ** 10, r: 8, p: 1 }
export const passwordCost = (): typeof SCRYPT => (process.env.FINCTL_TEST_PASSWORD_COST === 'low' ? TEST_SCRYPT : SCRYPT)
/** Room for the cost above; a stored hash that asks for more (a damaged row) is refused, not run. */
const MAXMEM = 256 * 1024 * 1024
/** Hashes at once in this process: each holds 128 MiB, so many logins at once must not exhaust memory. */
const HASHES_AT_ONCE = 2
let running = 0
const queue: Array<() => void> = []

async function limited<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= HASHES_AT_ONCE) await new Promise<void>((r) => queue.push(r))
  else running++
  try {
    return await fn()
  } finally {
    const next = queue.shift()
    if (next) next()
    else running--
  }
}

const derive = (password: string, salt: Buffer, len: number, cost: { N: number; r: number; p: number }) =>
  limited(() => scrypt(password.normalize('NFKC'), salt, len, { ...cost, maxmem: MAXMEM }))

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const cost = passwordCost()
  const hash = await derive(password, salt, 32, cost)
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`
}

function parseHash(stored: string): { N: number; r: number; p: number; salt: Buffer; hash: Buffer } | undefined {
  const [kind, n, r, p, salt, hash] = stored.split('$')
  const cost = { N: Number(n), r: Number(r), p: Number(p) }
  if (kind !== 'scrypt' || !salt || !hash || !Object.values(cost).every((v) => Number.isInteger(v) && v > 0)) return undefined
  if (128 * cost.N * cost.r * cost.p > MAXMEM) return undefined
  const out = { ...cost, salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') }
  return out.hash.length >= 16 ? out : undefined
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const h = parseHash(stored)
  if (!h) return false
  const actual = await derive(password, h.salt, h.hash.length, h)
  return timingSafeEqual(h.hash, actual)
}

/** Whether a stored hash is of a lower cost than the current one (hashed again at the next successful login). */
export function needsRehash(stored: string): boolean {
  const h = parseHash(stored)
  const cost = passwordCost()
  return !h || h.N < cost.N || h.r < cost.r || h.p < cost.p
}

/** A hash to compare against when the user does not exist, so both paths cost the same. */
let dummyHash: Promise<string> | undefined
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(12).toString('hex'))
  return dummyHash
}

/** A random password for non-interactive set-ups, shown once. */
export function generatePassword(): string {
  let out = ''
  for (let i = 0; i < 20; i++) out += BASE62[randomInt(62)]
  return out
}
