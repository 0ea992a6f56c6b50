/**
 * POST /auth/token (#48): passwords hashed at OWASP's scrypt cost, older hashes upgraded at the
 * next successful login; through both transports on both stores.
 */
import { randomBytes, scryptSync } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

/** A hash as versions before #48 wrote it (N=2^14). */
function oldHash(password: string): string {
  const salt = randomBytes(16)
  const hash = scryptSync(password, salt, 32, { N: 16384, r: 8, p: 1 })
  return `scrypt$16384$8$1$${salt.toString('base64url')}$${hash.toString('base64url')}`
}

describe.each(MATRIX)('login over %s on %s', (kind, storeKind) => {
  let h: Harness
  let t: Tenant
  const hashOf = async (email: string) =>
    (await h.store.db.selectFrom('users').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow()).password_hash

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    t = await h.tenant()
  })
  afterAll(async () => {
    await h?.close()
  })

  it('hashes a new password with scrypt at N=2^17, r=8, p=1', async () => {
    expect(await hashOf(t.email)).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/)
  })

  it('upgrades a hash of the old cost at the next successful login, not at a failed one', async () => {
    const old = oldHash(t.password)
    await h.store.db.updateTable('users').set({ password_hash: old }).where('email', '=', t.email).execute()
    const wrong = await h
      .client()
      .token(t.email, 'not the password')
      .catch((e: unknown) => e)
    expect(wrong).toBeInstanceOf(AppError)
    expect((wrong as AppError).status).toBe(401)
    expect(await hashOf(t.email)).toBe(old)
    const first = await h.client().token(t.email, t.password)
    expect(first.access_token).toBeTruthy()
    const upgraded = await hashOf(t.email)
    expect(upgraded).toMatch(/^scrypt\$131072\$8\$1\$/)
    // The new hash takes the same password, and is kept from then on.
    await h.client().token(t.email, t.password)
    expect(await hashOf(t.email)).toBe(upgraded)
  })
})
