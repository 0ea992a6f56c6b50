/**
 * Section `pages`: does a list page cost the same at 10,000 and 10,000,000 rows, on SQLite and on
 * PostgreSQL? One database of each store grows through the sizes: transactions as the store keeps
 * them, every index and kept total working as in use (SQLite: the store's own bulk load;
 * PostgreSQL: INSERTs of the stored rows), events and request-log records generated in the database. At each size each page is timed through the embedded core (routing, auth, rate
 * limit, usage record, validation, the page query, JSON) beside the same page query alone on the
 * store's own driver. The check: each page at the largest size beside the same page at the
 * smallest (target under 1.5x).
 */
import Database from 'better-sqlite3'
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { sql } from 'kysely'
import type { Client } from '../../src/client/client.js'
import { readRequestLog } from '../../src/client/request-log.js'
import { openCore, type Core } from '../../src/core.js'
import { LOG_PATH } from '../../src/domain/api-keys/request-log.js'
import type { NewTransactionRow } from '../../src/store/transaction-codec.js'
import { makeTempDir } from './children.js'
import { checkPostgres, DEFAULT_PG_URL, dropSchema } from './pg.js'
import { makeFigure, type Figure } from './report.js'
import { insertStoredPostgres } from './reports-rows.js'
import { summarize } from './stats.js'
import { generateTransactions, transactionRow } from './txdata.js'
import { embeddedCompany } from './embedded-company.js'

export interface PagesConfig {
  /** Table sizes, smallest first: the database grows through them. */
  sizes: number[]
  reps: number
  stores: ('sqlite' | 'postgres')[]
}

const DEEP = 21
const ORDER = 'ORDER BY "transaction_date" DESC, "seq" DESC LIMIT 51'
/** A key of the company's that made the generated request-log records (not the bench's own key). */
const OTHER_KEY = 'bench-pages-other-key'

interface Ctx {
  client: Client
  companyId: string
  companyKey: number
  accountKey: number
  accountId: string
  /** Page DEEP's cursor and the row it follows. */
  cursor: string
  after: [string, number]
  /** The newest event's seq and request-log id. */
  lastEvent: number
  lastRequest: number
}

interface Case {
  id: string
  label: string
  /** The page through the client; answers its row count. */
  service: (x: Ctx) => Promise<number>
  /** The page query alone, with `?` for each parameter (PostgreSQL gets $n), and its row count. */
  sql: string
  params: (x: Ctx) => unknown[]
  rows: [service: number, bare: number]
}

const CASES: Case[] = [
  {
    // No list: what every request costs beside its page (auth, rate limit, usage record, JSON).
    id: 'company',
    label: 'GET /company (no list, for reference)',
    service: async (x) => ((await x.client.company()).id === x.companyId ? 1 : 0),
    sql: 'SELECT * FROM companies WHERE id = ?',
    params: (x) => [x.companyId],
    rows: [1, 1],
  },
  {
    id: 'first',
    label: 'transactions: first page of 50',
    service: async (x) => (await x.client.transactions.list({ limit: 50 })).data.length,
    sql: `SELECT * FROM transactions WHERE "company_key" = ? ${ORDER}`,
    params: (x) => [x.companyKey],
    rows: [50, 51],
  },
  {
    id: 'deep',
    label: `transactions: page ${DEEP} by its cursor`,
    service: async (x) => (await x.client.transactions.list({ limit: 50, cursor: x.cursor })).data.length,
    sql: `SELECT * FROM transactions WHERE "company_key" = ? AND ("transaction_date", "seq") < (?, ?) ${ORDER}`,
    params: (x) => [x.companyKey, ...x.after],
    rows: [50, 51],
  },
  {
    id: 'account',
    label: "transactions: one account's first page",
    service: async (x) => (await x.client.transactions.list({ limit: 50, bank_account_id: x.accountId })).data.length,
    sql: `SELECT * FROM transactions WHERE "account_key" = ? ${ORDER}`,
    params: (x) => [x.accountKey],
    rows: [50, 51],
  },
  {
    id: 'events',
    label: 'events: the 50 after the newest but 50',
    service: async (x) => (await x.client.events.list({ after: x.lastEvent - 50, limit: 50 })).data.length,
    sql: 'SELECT * FROM events WHERE company_id = ? AND seq > ? ORDER BY seq LIMIT 51',
    params: (x) => [x.companyId, x.lastEvent - 50],
    rows: [50, 50],
  },
  {
    id: 'logs',
    label: 'request log: the newest 50',
    service: async (x) => (await readRequestLog(x.client, { limit: 50 })).data.length,
    sql:
      'SELECT r.*, k.key_prefix FROM api_requests r LEFT JOIN api_keys k ON k.id = r.key_id ' +
      'WHERE r.company_id = ? AND r.endpoint <> ? AND r.id <= ? ORDER BY r.id DESC LIMIT 51',
    params: (x) => [x.companyId, LOG_PATH, x.lastRequest],
    rows: [50, 51],
  },
]

/** The page query alone on the store's own driver. */
interface Bare {
  page(sql: string, params: unknown[]): Promise<number>
  close(): Promise<void>
}

function sqliteBare(file: string): Bare {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  const prepared = new Map<string, Database.Statement>()
  return {
    async page(sql, params) {
      let s = prepared.get(sql)
      if (!s) prepared.set(sql, (s = db.prepare(sql)))
      return s.all(...params).length
    },
    async close() {
      db.close()
    },
  }
}

/** A pg pool on the schema a finctl URL names (?schema=NAME). */
function poolOf(url: string): pg.Pool {
  const u = new URL(url)
  const schema = u.searchParams.get('schema') ?? 'public'
  u.searchParams.delete('schema')
  return new pg.Pool({ connectionString: u.toString(), max: 1, options: `-c search_path=${schema}` })
}

function postgresBare(url: string): Bare {
  const pool = poolOf(url)
  const text = new Map<string, string>()
  return {
    async page(sql, params) {
      let t = text.get(sql)
      if (!t) {
        let n = 0
        text.set(sql, (t = sql.replace(/\?/g, () => `$${++n}`)))
      }
      // Named: parsed and planned once, a prepared statement.
      const name = `p${[...text.keys()].indexOf(sql)}`
      return (await pool.query({ name, text: t, values: params })).rowCount ?? 0
    },
    close: () => pool.end(),
  }
}

// The table's median (report.ts), so that the printed lines and the figures agree.
const median = (xs: number[]) => summarize(xs).median

/** Events and request-log records numbered from..to, generated in the database in one statement each. */
async function addRecords(core: Core, postgres: boolean, companyId: string, from: number, to: number): Promise<void> {
  const n = postgres ? `generate_series(${from}, ${to}) AS n(i)` : 'n'
  const rec = postgres ? '' : `WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to}) `
  const cat = (a: string, b: string) => `${a} || ${postgres ? `CAST(${b} AS text)` : b}`
  await sql
    .raw(
      `${rec}INSERT INTO events (id, company_id, type, object_id, actor, created_at, data) ` +
        `SELECT ${cat("'evt_bench_'", 'i')}, '${companyId}', 'transaction.updated', NULL, 'key:${OTHER_KEY}', '2026-01-01T00:00:00.000Z', '{}' FROM ${n}`,
    )
    .execute(core.store.db)
  await sql
    .raw(
      `${rec}INSERT INTO api_requests (key_id, company_id, method, endpoint, status_code, response_time_ms, created_at, request_id, path, seq) ` +
        `SELECT '${OTHER_KEY}', '${companyId}', 'GET', '/api-v1/transactions', 200, 3, '2026-01-01T00:00:00.000Z', ${cat("'req_bench_'", 'i')}, '/api-v1/transactions', i FROM ${n}`,
    )
    .execute(core.store.db)
}

async function runStore(
  store: 'sqlite' | 'postgres',
  cfg: PagesConfig,
  log: (l: string) => void,
): Promise<{ figures: Figure[]; lines: string[]; medians: Record<string, Record<string, number>> }> {
  const postgres = store === 'postgres'
  const dir = makeTempDir(`pages-${store}`)
  const file = join(dir, 'finctl.db')
  const base = process.env.FINCTL_BENCH_DATABASE_URL ?? DEFAULT_PG_URL
  const schema = `bench_pages_${randomBytes(6).toString('hex')}`
  let target = file
  if (postgres) {
    log(`pages: ${await checkPostgres(base)}`)
    target = `${base}${base.includes('?') ? '&' : '?'}schema=${schema}`
  }
  const figures: Figure[] = []
  const lines: string[] = []
  const bySize = new Map<number, Record<string, { service: number[]; bare: number[] }>>()
  let core: Core | undefined
  let loadPool: pg.Pool | undefined
  try {
    // The company, its key and accounts, made through the app as a user would.
    core = await openCore(target)
    const c = core
    const { company, client } = await embeddedCompany(c, { name: 'Pages Bench', email: 'owner@pages.bench', keyName: 'pages' })
    const companyKey = await c.store.tx.companyKey(company.id)
    const keyed: { companyKey: number; accountKey: number; accountId: string }[] = []
    for (const [name, type] of [
      ['Operating', 'checking'],
      ['Reserve', 'savings'],
      ['Card', 'credit_card'],
    ] as const) {
      const accountId = (await client.accounts.create({ name, account_type: type, currency_code: 'USD' })).id
      const a = await c.store.db.selectFrom('bank_accounts').select('key').where('id', '=', accountId).executeTakeFirstOrThrow()
      keyed.push({ companyKey, accountKey: Number(a.key), accountId })
    }

    let have = 0
    for (const size of cfg.sizes) {
      const t0 = performance.now()
      // Each step's rows come from a seed of their own, the same spread over the dates. Streams of
      // the generator's PRNG (mulberry32) from two seeds can overlap: the step's number leads the id.
      const step = `${cfg.sizes.indexOf(size)}`.padStart(2, '0')
      const rows = (function* () {
        for (const t of generateTransactions(7_000_000 + size, size - have))
          yield transactionRow({ ...t, id: step + t.id.slice(2) }, keyed[t.account])
      })()
      // SQLite: the store's own bulk load (indexes set aside and built again). PostgreSQL: INSERTs
      // of the rows as stored, faster here than the store's path (docs/performance.md, "Pages at").
      if (postgres) await insertStoredPostgres((loadPool ??= poolOf(target)), rows, () => {})
      else {
        const load = c.store.hot.bulkLoad({ rows: size - have })
        let batch: NewTransactionRow[] = []
        for (const row of rows) {
          batch.push(row)
          if (batch.length === 5000) {
            await load.insert(batch)
            batch = []
          }
        }
        if (batch.length) await load.insert(batch)
        await load.end()
      }
      const t1 = performance.now()
      await addRecords(c, postgres, company.id, have + 1, size)
      if (postgres) await sql.raw('ANALYZE events; ANALYZE api_requests').execute(c.store.db)
      have = size
      log(
        `pages (${store}): ${size.toLocaleString('en-US')} rows of each (transactions ${((t1 - t0) / 1000).toFixed(1)} s to add, ` +
          `events and request log ${((performance.now() - t1) / 1000).toFixed(1)} s)`,
      )

      // Page DEEP's cursor, by walking the pages; the bare query starts after the row it names.
      let cursor: string | undefined
      for (let p = 1; p < DEEP; p++) cursor = (await client.transactions.list({ limit: 50, cursor })).pagination?.next_cursor ?? undefined
      if (!cursor) throw new Error(`pages (${store}): no page ${DEEP} at ${size} rows`)
      const [, v, seq] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string, number]
      const lastEvent = await c.store.db
        .selectFrom('events')
        .select((eb) => eb.fn.max('seq').as('n'))
        .where('company_id', '=', company.id)
        .executeTakeFirst()
      const lastRequest = await c.store.db
        .selectFrom('api_requests')
        .select((eb) => eb.fn.max('id').as('n'))
        .where('company_id', '=', company.id)
        .executeTakeFirst()
      const x: Ctx = {
        client,
        companyId: company.id,
        companyKey,
        accountKey: keyed[0].accountKey,
        accountId: keyed[0].accountId,
        cursor,
        after: [v, seq],
        lastEvent: Number(lastEvent?.n),
        lastRequest: Number(lastRequest?.n),
      }
      const bare = postgres ? postgresBare(target) : sqliteBare(file)
      try {
        const times: Record<string, { service: number[]; bare: number[] }> = {}
        for (const kase of CASES) {
          const t = (times[kase.id] = { service: [] as number[], bare: [] as number[] })
          const params = kase.params(x)
          // The smallest size is measured first, by a process not yet warm: it warms up longer, so
          // that the growth figures compare warm pages.
          const warmups = size === cfg.sizes[0] ? 200 : 10
          for (let i = 0; i < cfg.reps + warmups; i++) {
            let s = performance.now()
            const got = await kase.service(x)
            const service = performance.now() - s
            s = performance.now()
            const n = await bare.page(kase.sql, params)
            const bareMs = performance.now() - s
            if (got !== kase.rows[0] || n !== kase.rows[1])
              throw new Error(`pages (${store}): ${kase.id} gave ${got} rows, the bare query ${n}`)
            if (i < warmups) continue
            t.service.push(service)
            t.bare.push(bareMs)
          }
        }
        bySize.set(size, times)
      } finally {
        await bare.close()
      }
    }

    const n = (x: number) => x.toLocaleString('en-US')
    const small = cfg.sizes[0]
    const big = cfg.sizes[cfg.sizes.length - 1]
    const of = bySize.get(big)
    const from = bySize.get(small)
    if (!of || !from) throw new Error('pages: no sizes measured')
    for (const kase of CASES) {
      figures.push(
        makeFigure({
          id: `pages.${store}.${kase.id}.growth`,
          label: `${store}: ${kase.label} at ${n(big)} rows (embedded core)`,
          unit: 'ms',
          spread: 'p10-p90',
          value: of[kase.id].service,
          baselineLabel: `the same page at ${n(small)} rows`,
          baseline: from[kase.id].service,
          target: { kind: 'max', ratio: 1.5 },
        }),
      )
      for (const size of cfg.sizes) {
        const t = bySize.get(size)?.[kase.id]
        if (!t) continue
        figures.push(
          makeFigure({
            id: `pages.${store}.${kase.id}.${size}`,
            label: `${store}: ${kase.label}, ${n(size)} rows (embedded core)`,
            unit: 'ms',
            spread: 'p10-p90',
            value: t.service,
            baselineLabel: `the page query alone (${postgres ? 'pg' : 'better-sqlite3'})`,
            baseline: t.bare,
          }),
        )
      }
      // Medians at each size, service / page query alone.
      const at = cfg.sizes.map((size) => {
        const t = bySize.get(size)?.[kase.id]
        return t ? `${n(size)} ${median(t.service).toFixed(2)} / ${median(t.bare).toFixed(2)} ms` : ''
      })
      lines.push(
        `pages (${store}): ${kase.label}: ${at.join(', ')}; ${n(big)} over ${n(small)} rows: service ` +
          `${(median(of[kase.id].service) / median(from[kase.id].service)).toFixed(2)}x, page query alone ${(median(of[kase.id].bare) / median(from[kase.id].bare)).toFixed(2)}x`,
      )
    }
    const medians = Object.fromEntries(
      [...bySize].map(([size, t]) => [
        String(size),
        Object.fromEntries(
          Object.entries(t).flatMap(([id, v]) => [
            [`${id}.service`, median(v.service)],
            [`${id}.bare`, median(v.bare)],
          ]),
        ),
      ]),
    )
    return { figures, lines, medians }
  } finally {
    await core?.close()
    await loadPool?.end()
    if (process.env.FINCTL_BENCH_KEEP_TMP) log(`pages: kept ${postgres ? `schema ${schema}` : file} (FINCTL_BENCH_KEEP_TMP)`)
    else {
      rmSync(dir, { recursive: true, force: true })
      if (postgres) await dropSchema(base, schema)
    }
  }
}

export async function runPagesSection(
  cfg: PagesConfig,
  log: (l: string) => void,
): Promise<{ figures: Figure[]; lines: string[]; extra: Record<string, unknown> }> {
  const figures: Figure[] = []
  const lines: string[] = []
  const extra: Record<string, unknown> = { sizes: cfg.sizes }
  for (const store of cfg.stores) {
    const r = await runStore(store, cfg, log)
    // A store's figures as soon as it is done: the section takes over half an hour.
    for (const l of r.lines) log(l)
    figures.push(...r.figures)
    lines.push(...r.lines)
    extra[store] = r.medians
  }
  return { figures, lines, extra }
}
