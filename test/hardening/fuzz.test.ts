/**
 * Property-based fuzzing of the HTTP API (fast-check). Every POST/PATCH route of the served OpenAPI
 * document gets random and mutated JSON bodies, raw and invalid-UTF-8 bytes, deep nesting, huge
 * numbers, NaN/Infinity strings, prototype-pollution keys, SQL and CSV-formula strings; list routes
 * get random query strings; {id} routes get random path ids; every route gets odd headers.
 *
 * Property: every answer is a 2xx success envelope or a 4xx error envelope (docs/api.md section 1) whose
 * code matches its status and whose request_id is the X-Request-Id header; never a 5xx, never a
 * hang. Afterwards the database is intact and holds exactly the transactions that were acknowledged.
 *
 * Embedded transport on every store (PostgreSQL refuses what SQLite takes: NUL characters), and a
 * smaller run over a real `finctl serve`. FINCTL_SOAK=1 runs ten times as many cases.
 */
import { sql } from 'kysely'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createHarness, STORES, type Harness, type Tenant } from '../helpers/harness.js'
import { expectSqliteHealthy, expectWellFormed, NASTY_STRINGS, pct, routesOf, send, SOAK, type Answer, type Route } from './lib.js'

const SCALE = SOAK ? 10 : 1
// Ten times the cases need more than the default 30 s per test.
if (SOAK) vi.setConfig({ testTimeout: 600_000 })
/** The embedded transport runs the app in this process: pollution would show here. */
const PROTOTYPE_BEFORE = Object.getOwnPropertyNames(Object.prototype).sort()

/** A JSON object written as its entries, so keys such as __proto__ reach the wire as sent. */
class Obj {
  constructor(readonly entries: Array<[string, unknown]>) {}
}

function toJson(v: unknown): string {
  if (v instanceof Obj) return `{${v.entries.map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`).join(',')}}`
  if (Array.isArray(v)) return `[${v.map(toJson).join(',')}]`
  if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? '1e999' : '-1e999'
  return JSON.stringify(v) ?? 'null'
}

const FIELD_NAMES = [
  'bank_account_id',
  'transaction_date',
  'posted_date',
  'description',
  'original_description',
  'amount',
  'currency_code',
  'exchange_rate',
  'category',
  'accounting_category',
  'cash_flow_category',
  'merchant_name',
  'tags',
  'import_ref',
  'status',
  'is_reconciled',
  'transaction_ids',
  'updates',
  'add_tags',
  'remove_tags',
  'transactions',
  'name',
  'account_type',
  'institution_name',
  'account_number',
  'opening_balance',
  'opening_balance_date',
  'scopes',
  'expires_at',
  'rate_limit_per_minute',
  'rate_limit_per_day',
  'email',
  'password',
  'id',
  'created_at',
  'bank_statement_id',
  'file_name',
  'content_base64',
  'format',
]
const POLLUTION = ['__proto__', 'constructor', 'prototype']

const nastyString = fc.constantFrom(...NASTY_STRINGS)
const weirdString = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 900, maxLength: 1200 }) },
  { weight: 1, arbitrary: fc.stringMatching(/^-?\d{1,30}(\.\d{0,12})?$/) },
)
const weirdNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e308, -1e308, Infinity, -Infinity, NaN, 2 ** 53 + 1, -(2 ** 63), 5e-324, 1e21, 0.1 + 0.2, -0),
)
const key = fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.constantFrom(...POLLUTION), nastyString, fc.string({ maxLength: 12 }))
const { value: weirdValue } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    weirdString,
    weirdNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((e) => new Obj(e as Array<[string, unknown]>)),
  ),
}))

/** A body as bytes on the wire. */
type Body = { text?: string; bytes?: Uint8Array; contentType?: string }

/** Counterexamples print their first 300 characters, not a megabyte. */
function short<T extends object>(v: T): T {
  Object.defineProperty(v, fc.toStringMethod, {
    value: () => {
      const b = v as Body
      const shown = b.text ?? (b.bytes ? `hex:${Buffer.from(b.bytes).toString('hex')}` : JSON.stringify(v))
      return `${shown.slice(0, 300)}${shown.length > 300 ? `... (${shown.length} chars)` : ''}`
    },
    enumerable: false,
  })
  return v
}

/** Thousands of levels deep, alone or as the value of a field (e.g. {"transactions":[<deep>]}). */
const deepBody = fc
  .tuple(
    fc.integer({ min: 500, max: 150_000 }),
    fc.boolean(),
    fc.option(fc.constantFrom('transactions', 'updates', 'tags', 'description'), { nil: undefined }),
  )
  .map(([n, obj, field]): Body => {
    const deep = obj ? `${'{"a":'.repeat(n)}1${'}'.repeat(n)}` : `${'['.repeat(n)}${']'.repeat(n)}`
    return short({ text: field ? `{${JSON.stringify(field)}:[${deep}]}` : deep })
  })
const rawBytes = fc.uint8Array({ maxLength: 300 }).map((bytes): Body => short({ bytes }))
/** Invalid UTF-8 inside an otherwise valid JSON string value. */
const badUtf8 = fc.tuple(key, fc.uint8Array({ minLength: 1, maxLength: 20 }), fc.constantFrom(0xff, 0xfe, 0xc0, 0xed, 0x80, 0xf8)).map(
  ([k, junk, bad]): Body =>
    short({
      bytes: Buffer.concat([
        Buffer.from(`{${JSON.stringify(k)}:"`),
        Buffer.from(junk.map((b) => (b === 0x22 || b === 0x5c ? 0x41 : b))),
        Buffer.from([bad]),
        Buffer.from('"}'),
      ]),
    }),
)
const contentTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/vnd.api+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
  'application/jsonx',
  'APPLICATION/JSON',
)

/** Mutate a valid body: set fields to odd values, delete fields, add pollution keys, duplicate keys. */
function mutated(base: Record<string, unknown>) {
  return fc
    .tuple(fc.array(fc.tuple(key, fc.option(weirdValue, { nil: undefined })), { minLength: 1, maxLength: 3 }), fc.boolean())
    .map(([edits, dupFirst]): Body => {
      const entries = new Map<string, unknown>(Object.entries(base))
      const extra: Array<[string, unknown]> = []
      for (const [k, v] of edits) {
        if (v === undefined) entries.delete(k)
        else if (POLLUTION.includes(k)) extra.push([k, v])
        else entries.set(k, v)
      }
      const all = [...entries.entries(), ...extra]
      // A duplicated key: JSON.parse keeps the last one.
      if (dupFirst && all.length) all.unshift([all[0][0], 'duplicate'])
      return short({ text: toJson(new Obj(all)) })
    })
}

function anyBody(base: Record<string, unknown>) {
  return fc.oneof(
    { weight: 6, arbitrary: mutated(base) },
    { weight: 2, arbitrary: weirdValue.map((v): Body => short({ text: toJson(v) })) },
    { weight: 1, arbitrary: rawBytes },
    { weight: 1, arbitrary: badUtf8 },
    { weight: 1, arbitrary: deepBody },
    { weight: 1, arbitrary: fc.constant<Body>(short({ text: JSON.stringify({ ...base, description: 'z'.repeat(1024 * 1024) }) })) },
  )
}

interface World {
  h: Harness
  a: Tenant
  routes: Route[]
  txId: string
  otherKeyId: string
  /** Ids of transactions the service acknowledged (201) during the run. */
  created: Set<string>
  answers: number
}

function validBody(w: World, r: Route): Record<string, unknown> {
  const tx = { bank_account_id: w.a.accountId, transaction_date: '2026-03-04', description: 'fuzz', amount: '-12.50' }
  switch (`${r.method} ${r.path}`) {
    case 'POST /api-v1/transactions':
      return tx
    case 'POST /api-v1/transactions/batch':
      return { transactions: [tx, { ...tx, amount: '3.00' }] }
    case 'POST /api-v1/transactions/bulk-update':
      return { transaction_ids: [w.txId], updates: { category: 'fuzzed' } }
    case 'PATCH /api-v1/transactions/{id}':
      return { category: 'patched', tags: ['a'] }
    case 'POST /api-v1/bank-accounts':
      return { name: 'Fuzz account', account_type: 'savings', currency_code: 'USD', opening_balance: '10.00' }
    case 'PATCH /api-v1/bank-accounts/{id}':
      return { name: 'Renamed', institution_name: 'Bank' }
    case 'POST /api-keys':
      return { name: 'fuzz key', scopes: ['read'] }
    case 'POST /auth/token':
      return { email: w.a.email, password: w.a.password }
    default:
      return {}
  }
}

function credentials(w: World, r: Route): Record<string, string> {
  if (!r.security) return {}
  const jwtOnly = r.security.every((s) => 'Bearer' in s)
  return jwtOnly || r.path.startsWith('/api-keys') ? { authorization: `Bearer ${w.a.token}` } : { 'x-api-key': w.a.key }
}

/** The real id a route's {id} names (for body fuzzing on an existing record). */
function realId(w: World, r: Route): string {
  if (r.path.startsWith('/api-v1/transactions')) return w.txId
  if (r.path.startsWith('/api-v1/bank-accounts')) return w.a.accountId
  if (r.path.startsWith('/api-keys')) return w.otherKeyId
  return w.txId
}

function track(w: World, r: Route, a: Answer): void {
  w.answers++
  if (a.status !== 201 || !a.body?.success) return
  if (r.method === 'POST' && r.path === '/api-v1/transactions') w.created.add(a.body.data.id)
  if (r.method === 'POST' && r.path === '/api-v1/transactions/batch') for (const t of a.body.data.created) w.created.add(t.id)
}

async function call(w: World, r: Route, path: string, headers: Record<string, string>, body?: Body): Promise<Answer> {
  const h = { ...headers }
  if (body && body.contentType === undefined && !('content-type' in h)) h['content-type'] = 'application/json'
  if (body?.contentType !== undefined) h['content-type'] = body.contentType
  const a = await send(w.h.fetch, w.h.baseUrl + path, { method: r.method, headers: h, body: body?.bytes ?? body?.text })
  track(w, r, a)
  return a
}

async function companyTransactionCount(w: World): Promise<number> {
  const row = await w.h.store.db
    .selectFrom('transactions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_key', '=', await w.h.store.tx.companyKey(w.a.companyId))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

async function setUp(h: Harness): Promise<World> {
  const a = await h.tenant('Fuzz')
  const doc = (await (await h.raw('GET', '/openapi.json')).json()) as { paths: Record<string, Record<string, any>> }
  const c = h.client({ apiKey: a.key })
  const tx = await c.transactions.create({
    bank_account_id: a.accountId,
    transaction_date: '2026-01-02',
    description: 'seed',
    amount: '1.00',
  })
  const other = await h.client({ token: a.token }).keys.create({ name: 'target', scopes: ['read'] })
  return { h, a, routes: routesOf(doc), txId: tx.id, otherKeyId: other.id, created: new Set([tx.id]), answers: 0 }
}

// Hundreds of requests each, one after another: on PostgreSQL under a loaded machine (load 9-10)
// they took 23-30 s, past the default 30 s of a test; a bound for a hang, not a speed check.
const SWEEP_MS = 120_000

/** The fuzz properties, run against one harness. `runs` is the base count per property. */
function fuzzSuite(getWorld: () => World, runs: number, o: { sweep: boolean }) {
  it(
    'every POST/PATCH route answers random and mutated bodies with a well-formed envelope',
    async () => {
      const w = getWorld()
      const writes = w.routes.filter((r) => r.method === 'POST' || r.method === 'PATCH')
      expect(writes.length).toBeGreaterThanOrEqual(8)
      for (const r of writes) {
        await fc.assert(
          fc.asyncProperty(
            anyBody(validBody(w, r)),
            fc.option(contentTypes, { nil: undefined, freq: 8 }),
            fc.option(fc.stringMatching(/^[!-~]{1,20}$/), { nil: undefined }),
            async (body, ct, idem) => {
              const path = r.path.replace('{id}', realId(w, r))
              const headers = { ...credentials(w, r), ...(idem === undefined ? {} : { 'idempotency-key': idem }) }
              const a = await call(w, r, path, headers, { ...body, contentType: ct })
              expectWellFormed(
                a,
                `${r.method} ${path} body=${(body.text ?? Buffer.from(body.bytes ?? []).toString('hex')).slice(0, 300)} ct=${ct} idem=${idem}`,
              )
            },
          ),
          // A login hashes a password at scrypt's full cost (about 0.4 s by design): fewer runs there.
          { numRuns: (r.path === '/auth/token' ? Math.min(runs, 8) : runs) * SCALE, endOnFailure: true },
        )
      }
    },
    SWEEP_MS,
  )

  // A deterministic sweep (about 1,500 requests): on the embedded transport only.
  if (o.sweep)
    it(
      'every field of every POST/PATCH body, set to each nasty string, answers with a well-formed envelope',
      async () => {
        const w = getWorld()
        const writes = w.routes.filter((r) => (r.method === 'POST' || r.method === 'PATCH') && r.path !== '/auth/token')
        let sent = 0
        for (const r of writes) {
          const base = validBody(w, r)
          // Top-level fields, and the first item of a batch.
          const targets: Array<(v: unknown) => unknown> = Object.keys(base).map((k) => (v: unknown) => ({ ...base, [k]: v }))
          if (Array.isArray(base.transactions)) {
            const item = (base.transactions as Array<Record<string, unknown>>)[0]
            for (const k of Object.keys(item)) targets.push((v) => ({ transactions: [{ ...item, [k]: v }] }))
          }
          if (base.updates) targets.push((v) => ({ ...base, updates: { category: v } }))
          for (const make of targets) {
            for (const nasty of NASTY_STRINGS) {
              const path = r.path.replace('{id}', realId(w, r))
              const a = await call(w, r, path, credentials(w, r), { text: JSON.stringify(make(nasty)) })
              expectWellFormed(a, `${r.method} ${path} body=${JSON.stringify(make(nasty)).slice(0, 300)}`)
              sent++
            }
          }
        }
        expect(sent).toBeGreaterThan(500)
      },
      SWEEP_MS,
    )

  it('valid bodies sent with an Idempotency-Key succeed or refuse cleanly, and replays create nothing new', async () => {
    const w = getWorld()
    const r = w.routes.find((x) => x.method === 'POST' && x.path === '/api-v1/transactions')!
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.stringMatching(/^[!-~]{1,40}$/),
          fc.string({ maxLength: 300 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
        ),
        fc.constantFrom('-12.50', '0', '1e2', '99999999999.99', 'NaN', 12.5, -0.01),
        async (idem, amount) => {
          const body = { text: JSON.stringify({ ...validBody(w, r), amount }) }
          const first = await call(w, r, r.path, { ...credentials(w, r), 'idempotency-key': idem }, body)
          expectWellFormed(first, `POST ${r.path} idem=${idem} amount=${amount}`)
          const again = await call(w, r, r.path, { ...credentials(w, r), 'idempotency-key': idem }, body)
          expectWellFormed(again, `replay idem=${idem}`)
          if (first.status === 201 && again.status === 201) expect(again.body.data.id).toBe(first.body.data.id)
        },
      ),
      { numRuns: Math.ceil(runs / 2) * SCALE, endOnFailure: true },
    )
  })

  it('every GET route answers random query strings with a well-formed envelope', async () => {
    const w = getWorld()
    const reads = w.routes.filter((r) => r.method === 'GET')
    for (const r of reads) {
      const names = r.queryParams.length ? fc.constantFrom(...r.queryParams) : fc.constant('x')
      const entry = fc.tuple(
        fc.oneof({ weight: 4, arbitrary: names }, { weight: 1, arbitrary: key }),
        fc.oneof(weirdString, weirdNumber.map(String)),
      )
      const raw = fc.constantFrom(
        '%',
        '%zz',
        '%FF%FE',
        '%ED%A0%80',
        '%00',
        '&&&',
        '=',
        'a=1&a=2',
        '?',
        '#x',
        `limit=${'9'.repeat(400)}`,
        `cursor=${'A'.repeat(499)}`,
      )
      await fc.assert(
        fc.asyncProperty(fc.array(entry, { maxLength: 4 }), fc.option(raw, { nil: undefined, freq: 4 }), async (entries, tail) => {
          const qs = [...entries.map(([k, v]) => `${pct(k)}=${pct(v)}`), ...(tail ? [tail] : [])].join('&')
          const path = `${r.path.replace('{id}', realId(w, r))}?${qs}`
          const a = await call(w, r, path, credentials(w, r))
          expectWellFormed(a, `GET ${path}`)
        }),
        { numRuns: Math.ceil(runs / 2) * SCALE, endOnFailure: true },
      )
    }
  })

  it('every {id} route answers random path ids with a well-formed envelope (404 or 400, never 500)', async () => {
    const w = getWorld()
    const withId = w.routes.filter((r) => r.path.includes('{id}'))
    expect(withId.length).toBeGreaterThanOrEqual(5)
    // `special` segments may name another route (me, dot segments): they need only a clean answer.
    const segment = fc.oneof(
      fc.uuid().map((seg) => ({ seg, special: false })),
      // pct leaves '.' as it is: a random '.' or '..' is a dot segment, which the URL resolves away.
      weirdString.map((s) => ({ seg: pct(s), special: /^\.{1,2}$/.test(pct(s)) })),
      fc.constantFrom('%', '%2F', '%00', '%ED%A0%80', 'a'.repeat(17_000), '%E0%A4%A', '0x00').map((seg) => short({ seg, special: false })),
      fc.constantFrom('%2e%2e', '..', '.', 'me', 'usage').map((seg) => ({ seg, special: true })),
    )
    for (const r of withId) {
      await fc.assert(
        fc.asyncProperty(segment, async ({ seg, special }) => {
          const path = r.path.replace('{id}', seg)
          const body = r.method === 'PATCH' ? { text: JSON.stringify(validBody(w, r)) } : undefined
          const a = await call(w, r, path, credentials(w, r), body)
          expectWellFormed(a, `${r.method} ${path.slice(0, 300)}`)
          // A random id never names a record of this company.
          if (!special) expect(a.status, `${r.method} ${path.slice(0, 300)}: ${a.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400)
        }),
        { numRuns: Math.ceil(runs / 3) * SCALE, endOnFailure: true },
      )
    }
  })

  it('odd credential, content and request-id headers get a well-formed envelope', async () => {
    const w = getWorld()
    const headerValue = fc.oneof(
      nastyString.filter((s) => /^[\x20-\x7e]*$/.test(s)),
      fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 200 }),
      fc.constantFrom(
        `Bearer ${'x'.repeat(9000)}`,
        'Bearer',
        'Basic YTpi',
        'Bearer a.b.c',
        `fds_${'A'.repeat(43)}`,
        `fds_${'A'.repeat(42)}`,
        'fds_',
        ' fds_',
      ),
    )
    const headerName = fc.constantFrom(
      'x-api-key',
      'authorization',
      'content-type',
      'x-request-id',
      'idempotency-key',
      'content-length',
      'accept',
    )
    const targets = w.routes.filter((r) => r.method !== 'DELETE')
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...targets),
        fc.array(fc.tuple(headerName, headerValue), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        async (r, hs, keepAuth) => {
          if (hs.some(([k]) => k === 'content-length')) return // undici computes it; a wrong one is the client's error
          const headers: Record<string, string> = keepAuth ? { ...credentials(w, r) } : {}
          for (const [k, v] of hs) headers[k] = v
          const path = r.path.replace('{id}', realId(w, r))
          const body = r.method === 'POST' || r.method === 'PATCH' ? { text: JSON.stringify(validBody(w, r)) } : undefined
          const a = await call(w, r, path, headers, body)
          expectWellFormed(a, `${r.method} ${path} headers=${JSON.stringify(hs).slice(0, 300)}`)
        },
      ),
      { numRuns: runs * SCALE, endOnFailure: true },
    )
  })
}

async function expectConsistent(w: World, before: number): Promise<void> {
  expect(w.answers).toBeGreaterThan(100)
  // No __proto__ / constructor.prototype key of any body reached Object.prototype.
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_BEFORE)
  for (const k of FIELD_NAMES) expect(({} as Record<string, unknown>)[k], `Object.prototype.${k}`).toBeUndefined()
  // Every acknowledged create is there, and nothing else was created.
  const after = await companyTransactionCount(w)
  expect(after).toBe(before + w.created.size - 1) // the seed transaction was counted in `before`
  const ids = [...w.created]
  for (let i = 0; i < ids.length; i += 500) {
    const found = await w.h.store.db
      .selectFrom('transactions')
      .select('id')
      .where('id', 'in', w.h.store.tx.idParams(ids.slice(i, i + 500)))
      .execute()
    expect(found.length).toBe(ids.slice(i, i + 500).length)
  }
  if (w.h.storeKind === 'sqlite') {
    const integrity = await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(w.h.store.db)
    expect(integrity.rows.map((r) => r.integrity_check)).toEqual(['ok'])
    const fk = await sql`PRAGMA foreign_key_check`.execute(w.h.store.db)
    expect(fk.rows).toEqual([])
  } else {
    // PostgreSQL enforces its constraints itself; check no transaction points at a missing account.
    const orphans = await sql<{
      n: string
    }>`SELECT count(*) AS n FROM transactions t LEFT JOIN bank_accounts b ON b.key = t.account_key WHERE b.id IS NULL`.execute(w.h.store.db)
    expect(Number(orphans.rows[0].n)).toBe(0)
  }
  // The service still answers normally.
  const ok = await w.h.client({ apiKey: w.a.key }).transactions.list({ limit: 1 })
  expect(ok.status).toBe(200)
  // Usage records of odd unmatched paths (NUL, invalid UTF-8) are stored, and do not block the
  // records after them: the key's usage still reads, and counts them.
  const key = { 'x-api-key': w.a.key }
  for (const p of ['/api-v1/%00nowhere', '/api-v1/%FF%FE/x', '/api-keys/%00/zz'])
    expectWellFormed(await send(w.h.fetch, w.h.baseUrl + p, { method: 'GET', headers: key }), p)
  const usage = await send(w.h.fetch, `${w.h.baseUrl}/api-keys/me/usage?recent=5`, { method: 'GET', headers: key })
  expectWellFormed(usage, 'usage after the fuzz')
  expect(usage.status).toBe(200)
  expect(usage.body.data.total_requests).toBeGreaterThan(100)
  // Newest first: an API key under /api-keys (not /me) is refused with 403; the others are 404.
  expect(usage.body.data.recent_requests.map((r: { status_code: number }) => r.status_code).slice(0, 3)).toEqual([403, 404, 404])
}

describe.each(STORES)('API fuzzing, embedded on %s', (storeKind) => {
  let w: World
  let before = 0
  beforeAll(async () => {
    w = await setUp(await createHarness('embedded', storeKind))
    before = await companyTransactionCount(w)
  })
  afterAll(async () => {
    await w?.h.close()
  })
  fuzzSuite(() => w, storeKind === 'sqlite' ? 80 : 30, { sweep: true })
  it('afterwards the database is intact and holds exactly the acknowledged transactions', async () => {
    await expectConsistent(w, before)
    if (storeKind === 'sqlite') expectSqliteHealthy(w.h.database)
  })
})

describe('API fuzzing over a real finctl serve (SQLite)', () => {
  let w: World
  let before = 0
  beforeAll(async () => {
    w = await setUp(await createHarness('http', 'sqlite'))
    before = await companyTransactionCount(w)
  })
  afterAll(async () => {
    await w?.h.close()
  })

  it('raw bytes, invalid UTF-8, deep nesting, oversized and mutated bodies: well-formed envelopes, no hang', async () => {
    const writes = w.routes.filter((r) => r.method === 'POST' || r.method === 'PATCH')
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...writes),
        fc.oneof(
          rawBytes,
          badUtf8,
          deepBody,
          mutated({ description: 'x', amount: '1' }),
          fc.constant<Body>(short({ text: `{"description":"${'q'.repeat(1024 * 1024 + 10)}"}` })),
        ),
        async (r, body) => {
          const path = r.path.replace('{id}', realId(w, r))
          const a = await call(w, r, path, credentials(w, r), body)
          expectWellFormed(a, `${r.method} ${path} body=${(body.text ?? Buffer.from(body.bytes ?? []).toString('hex')).slice(0, 200)}`)
        },
      ),
      { numRuns: 60 * SCALE, endOnFailure: true },
    )
  })

  fuzzSuite(() => w, 16, { sweep: false })

  it('afterwards the server is up, the database intact and it holds exactly the acknowledged transactions', async () => {
    const health = await send(w.h.fetch, `${w.h.baseUrl}/healthz`, { method: 'GET' })
    expect(health.status).toBe(200)
    await expectConsistent(w, before)
    expectSqliteHealthy(w.h.database)
  })
})
