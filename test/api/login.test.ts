/**
 * POST /auth/token: passwords hashed at OWASP's scrypt cost, older hashes upgraded at the
 * next successful login; attempts limited per email and per client address (429 with Retry-After);
 * failed logins recorded. Through both transports on both stores.
 */
import { randomBytes, randomUUID, scryptSync } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { AppError } from '../../src/kernel/errors.js'
import { LOGIN_LIMITS } from '../../src/domain/api-keys/login-limits.js'
import { createHarness, inOneMinute, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

/** A hash as versions before that change wrote it (N=2^14). */
function oldHash(password: string): string {
  const salt = randomBytes(16)
  const hash = scryptSync(password, salt, 32, { N: 16384, r: 8, p: 1 })
  return `scrypt$16384$8$1$${salt.toString('base64url')}$${hash.toString('base64url')}`
}

// The real cost here, not the suite's (vitest.config.ts): in this process and the servers it starts.
beforeAll(() => {
  vi.stubEnv('FINCTL_TEST_PASSWORD_COST', 'real')
})
afterAll(() => {
  vi.unstubAllEnvs()
})

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

  /** Users of the old, cheap hash (so that many wrong passwords take little time), straight into the store. */
  const PASSWORD = 'the right password'
  const cheap = oldHash(PASSWORD)
  async function users(n: number): Promise<string[]> {
    const emails = Array.from({ length: n }, () => `guess-${randomUUID()}@login.test`)
    await h.store.db
      .insertInto('users')
      .values(
        emails.map((email) => ({
          id: randomUUID(),
          company_id: t.companyId,
          email,
          password_hash: cheap,
          role: 'owner',
          created_at: new Date().toISOString(),
        })),
      )
      .execute()
    return emails
  }
  /** POST /auth/token; the status and Retry-After. */
  async function login(email: string, password: string): Promise<{ status: number; retryAfter: number | undefined }> {
    const r = await h.raw('POST', '/auth/token', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    })
    await r.text()
    const retry = r.headers.get('retry-after')
    return { status: r.status, retryAfter: retry === null ? undefined : Number(retry) }
  }
  /** `inOneMinute` from cleared counters: the address's count holds the other tests' attempts too. */
  const fromClearedCounters = <T>(attempts: () => Promise<T>): Promise<T> =>
    inOneMinute(async () => {
      await h.store.db.deleteFrom('login_counters').execute()
      return attempts()
    })

  it(`an email takes ${LOGIN_LIMITS.perEmail} failed logins a minute, then 429 with Retry-After, even for the right password`, async () => {
    const [email] = await users(1)
    const statuses = await fromClearedCounters(async () => {
      const out = []
      for (let i = 0; i < LOGIN_LIMITS.perEmail; i++) out.push(await login(email, `guess ${i}`))
      out.push(await login(email, 'one more guess'), await login(email, PASSWORD))
      return out
    })
    expect(statuses.slice(0, LOGIN_LIMITS.perEmail).map((s) => s.status)).toEqual(Array(LOGIN_LIMITS.perEmail).fill(401))
    for (const refused of statuses.slice(LOGIN_LIMITS.perEmail)) {
      expect(refused.status).toBe(429)
      expect(refused.retryAfter).toBeGreaterThan(0)
      expect(refused.retryAfter).toBeLessThanOrEqual(60)
    }
  }, 180_000)

  it("a successful login does not use up its email's allowance", async () => {
    const [email] = await users(1)
    const statuses = await fromClearedCounters(async () => {
      const out = []
      for (let i = 0; i < LOGIN_LIMITS.perEmail - 1; i++) out.push((await login(email, `guess ${i}`)).status)
      out.push((await login(email, PASSWORD)).status)
      // The login upgraded the hash; back to the cheap one, so that the guesses below stay quick.
      await h.store.db.updateTable('users').set({ password_hash: cheap }).where('email', '=', email).execute()
      out.push((await login(email, 'the last guess allowed')).status, (await login(email, 'one too many')).status)
      return out
    })
    expect(statuses).toEqual([...Array(LOGIN_LIMITS.perEmail - 1).fill(401), 200, 401, 429])
  }, 180_000)

  it('every failed login is recorded: email, user, client address (none on the embedded core)', async () => {
    const [email] = await users(1)
    const unknown = `nobody-${randomUUID()}@login.test`
    await login(email, 'wrong')
    await login(unknown.toUpperCase(), 'wrong')
    await login(email, PASSWORD)
    const rows = await h.store.db.selectFrom('login_failures').selectAll().where('email', 'in', [email, unknown]).orderBy('id').execute()
    const user = await h.store.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
    expect(rows.map((r) => [r.email, r.user_id])).toEqual([
      [email, user.id],
      [unknown, null],
    ])
    for (const r of rows) {
      if (kind === 'http') expect(r.client_address).toMatch(/127\.0\.0\.1|::1/)
      else expect(r.client_address).toBeNull()
      expect(Date.now() - Date.parse(r.created_at)).toBeLessThan(60_000)
    }
  })

  if (kind === 'http')
    it(`a client address takes ${LOGIN_LIMITS.perAddress} logins a minute, whatever the emails`, async () => {
      const emails = await users(LOGIN_LIMITS.perAddress + 1)
      const statuses = await fromClearedCounters(async () => {
        const out = []
        for (const email of emails) out.push((await login(email, 'sprayed password')).status)
        return out
      })
      expect(statuses).toEqual([...Array(LOGIN_LIMITS.perAddress).fill(401), 429])
    }, 180_000)
})
