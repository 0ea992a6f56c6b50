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

const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const hash = await scrypt(password.normalize('NFKC'), salt, 32, SCRYPT)
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$')
  if (kind !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64url')
  const actual = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  })
  return timingSafeEqual(expected, actual)
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
