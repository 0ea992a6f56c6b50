/**
 * Section `list`: filtered page latency at scale, EMBEDDED (no HTTP). The core is opened in this
 * process on a temp SQLite file, a company, an API key and three bank accounts are made through the
 * app, and 1,000,000 deterministic transactions (100,000 with --quick) are inserted with the store's
 * hot path in batches. Then each listing is timed through the typed client on the embedded transport
 * (routing, auth, rate limit, validation, the page query and the `total` count, JSON both ways), beside
 * the same page query run directly with a prepared better-sqlite3 statement on the same file: the
 * ratio is the service's overhead over the bare query. The count of each filter is timed the same way.
 */
import Database from 'better-sqlite3'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import type { TransactionQuery } from '../../src/client/client.js'
import { openCore, type Core } from '../../src/core.js'
import type { NewTransactionRow } from '../../src/store/transaction-codec.js'
import { uuidText } from './stored.js'
import { makeTempDir } from './children.js'
import { makeFigure, type Figure } from './report.js'
import { percentile, summarize } from './stats.js'
import { CATEGORIES, generateTransactions, transactionRow } from './txdata.js'
import { embeddedCompany } from './embedded-company.js'

export interface ListConfig {
  rows: number
  batch: number
  reps: number
  warmups: number
  /** Which page to time deep in a listing (page 1 = the first). */
  deepPage: number
  limit: number
}

export interface ListSectionResult {
  figures: Figure[]
  lines: string[]
  extra: Record<string, unknown>
}

const SEED = 1_000_003
/** The common category (12% of rows): 120,000 at 1M, so its page 1000 (rows 49,951-50,000) exists. */
const CATEGORY = 'Groceries'
/** 0.02% of rows (200 at 1M): page 1 has fewer than 50 rows. */
const RARE = 'Donations'
/** Account 0 holds half the rows; one quarter of 2025 is ~4% of all rows. */
const RANGE = { from: '2025-04-01', to: '2025-06-30' }

interface Case {
  id: string
  label: string
  query: TransactionQuery
  /** The page query, as the service runs it (same WHERE, ORDER BY and LIMIT limit+1), and its parameters. */
  sql: string
  params: unknown[]
  /** The filtered count the service computes for `total`. */
  countSql: string
  countParams: unknown[]
  page: number
}

interface Timed {
  service: number[]
  sql: number[]
  count: number[]
}

const ORDER = 'ORDER BY "transaction_date" DESC, "seq" DESC'

export async function runListSection(_root: string, cfg: ListConfig, log: (l: string) => void): Promise<ListSectionResult> {
  const dir = makeTempDir('list')
  const file = join(dir, 'finctl.db')
  let core: Core | undefined
  let raw: Database.Database | undefined
  try {
    core = await openCore(file)
    const c = core
    const { company, client } = await embeddedCompany(core, { name: 'List Bench', email: 'bench-owner@list.test', keyName: 'list-bench' })
    const accounts: string[] = []
    for (const [name, type] of [
      ['Operating', 'checking'],
      ['Reserve', 'savings'],
      ['Corporate card', 'credit_card'],
    ] as const) {
      accounts.push((await client.accounts.create({ name, account_type: type, currency_code: 'USD' })).id)
    }
    log(`list: ${file}; company ${company.id}; accounts ${accounts.join(', ')}`)
    const companyKey = await c.store.tx.companyKey(company.id)
    const keyed = await Promise.all(
      accounts.map(async (accountId) => {
        const a = await c.store.db.selectFrom('bank_accounts').select('key').where('id', '=', accountId).executeTakeFirstOrThrow()
        return { companyKey, accountKey: Number(a.key), accountId }
      }),
    )

    // ---- data ------------------------------------------------------------------------------
    const t0 = performance.now()
    let insertMs = 0
    let batch: NewTransactionRow[] = []
    const matches = { category: 0, rare: 0, accountRange: 0 }
    const flush = async () => {
      const s = performance.now()
      await c.store.hot.insertTransactions(batch)
      insertMs += performance.now() - s
      batch = []
    }
    let done = 0
    let nextLog = performance.now() + 5000
    for (const t of generateTransactions(SEED, cfg.rows)) {
      if (t.category === CATEGORY) matches.category++
      if (t.category === RARE) matches.rare++
      if (t.account === 0 && t.date >= RANGE.from && t.date <= RANGE.to) matches.accountRange++
      batch.push(transactionRow(t, keyed[t.account]))
      if (batch.length >= cfg.batch) {
        await flush()
        done += cfg.batch
        if (performance.now() > nextLog) {
          nextLog = performance.now() + 5000
          log(`list: ${done} rows inserted, ${((done / insertMs) * 1000).toFixed(0)} rows/s in insertTransactions so far`)
        }
      }
    }
    if (batch.length) await flush()
    const totalMs = performance.now() - t0
    const insertRate = (cfg.rows / insertMs) * 1000
    log(
      `list: ${cfg.rows} rows in ${(totalMs / 1000).toFixed(1)} s (${((cfg.rows / totalMs) * 1000).toFixed(0)} rows/s with generation); ` +
        `insertTransactions ${(insertMs / 1000).toFixed(1)} s = ${insertRate.toFixed(0)} rows/s in batches of ${cfg.batch}`,
    )

    raw = new Database(file, { readonly: true, fileMustExist: true })
    const db = raw
    const dbPages = db.pragma('page_count', { simple: true }) as number
    const pageSize = db.pragma('page_size', { simple: true }) as number
    const stmt = (sql: string) => db.prepare(sql)
    const L = cfg.limit + 1

    // ---- the cursor that starts page N, reached through the service by following next_cursor ----
    // The cursor names the last row seen, not the page size, so the walk takes pages of 1,000 up to
    // the last whole thousand before page N's first row and pages of `limit` from there: the cursor
    // it ends with is the one a walk of N-1 pages of `limit` ends with (checked against OFFSET below).
    const walk = async (query: TransactionQuery, page: number): Promise<{ cursor: string; ms: number; requests: number }> => {
      const skip = (page - 1) * cfg.limit
      const s = performance.now()
      let cursor: string | undefined
      let seen = 0
      let requests = 0
      while (seen < skip) {
        const size = skip - seen >= 1000 && seen % 1000 === 0 ? 1000 : cfg.limit
        const r = await client.transactions.list({ ...query, limit: size, cursor })
        requests++
        seen += r.data.length
        if (!r.pagination?.next_cursor) throw new Error(`listing ${JSON.stringify(query)} ended after ${seen} rows, before page ${page}`)
        cursor = r.pagination.next_cursor
      }
      if (!cursor) throw new Error('page 1 needs no walk')
      return { cursor, ms: performance.now() - s, requests }
    }
    const cursorRow = (cursor: string): [string, number] => {
      const [, v, seq] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string, number]
      return [v, seq]
    }

    const catDeep = Math.min(cfg.deepPage, Math.floor(matches.category / cfg.limit))
    const allDeep = Math.min(cfg.deepPage, Math.floor(cfg.rows / cfg.limit))
    log(
      `list: walking to page ${catDeep} of category=${CATEGORY} (${matches.category} rows) and page ${allDeep} of the unfiltered listing, following next_cursor`,
    )
    const catWalk = await walk({ category: CATEGORY }, catDeep)
    const allWalk = await walk({}, allDeep)
    log(
      `list: walks took ${(catWalk.ms / 1000).toFixed(1)} s (${catWalk.requests} requests) and ${(allWalk.ms / 1000).toFixed(1)} s (${allWalk.requests} requests)`,
    )
    const [catV, catId] = cursorRow(catWalk.cursor)
    const [allV, allId] = cursorRow(allWalk.cursor)

    const W = 'WHERE "company_key" = ?'
    const cases: Case[] = [
      {
        id: 'category-p1',
        label: `category=${CATEGORY} page 1`,
        query: { category: CATEGORY, limit: cfg.limit, include_total: true },
        sql: `SELECT * FROM transactions ${W} AND "category" = ? ${ORDER} LIMIT ?`,
        params: [companyKey, CATEGORY, L],
        countSql: `SELECT count(*) AS n FROM transactions ${W} AND "category" = ?`,
        countParams: [companyKey, CATEGORY],
        page: 1,
      },
      {
        id: 'rare-category-p1',
        label: `category=${RARE} (rare) page 1`,
        query: { category: RARE, limit: cfg.limit, include_total: true },
        sql: `SELECT * FROM transactions ${W} AND "category" = ? ${ORDER} LIMIT ?`,
        params: [companyKey, RARE, L],
        countSql: `SELECT count(*) AS n FROM transactions ${W} AND "category" = ?`,
        countParams: [companyKey, RARE],
        page: 1,
      },
      {
        id: 'account-range-p1',
        label: `bank_account_id=A&from=${RANGE.from}&to=${RANGE.to} page 1`,
        query: { bank_account_id: accounts[0], from: RANGE.from, to: RANGE.to, limit: cfg.limit, include_total: true },
        // The account stands for its company (the service checks the account is the company's).
        sql: `SELECT * FROM transactions WHERE "account_key" = ? AND "transaction_date" >= ? AND "transaction_date" <= ? ${ORDER} LIMIT ?`,
        params: [keyed[0].accountKey, RANGE.from, RANGE.to, L],
        countSql: `SELECT count(*) AS n FROM transactions WHERE "account_key" = ? AND "transaction_date" >= ? AND "transaction_date" <= ?`,
        countParams: [keyed[0].accountKey, RANGE.from, RANGE.to],
        page: 1,
      },
      {
        id: `category-p${catDeep}`,
        label: `category=${CATEGORY} page ${catDeep}`,
        query: { category: CATEGORY, limit: cfg.limit, include_total: true, cursor: catWalk.cursor },
        sql: `SELECT * FROM transactions ${W} AND "category" = ? AND ("transaction_date", "seq") < (?, ?) ${ORDER} LIMIT ?`,
        params: [companyKey, CATEGORY, catV, catId, L],
        countSql: `SELECT count(*) AS n FROM transactions ${W} AND "category" = ?`,
        countParams: [companyKey, CATEGORY],
        page: catDeep,
      },
      {
        id: `all-p${allDeep}`,
        label: `unfiltered page ${allDeep}`,
        query: { limit: cfg.limit, include_total: true, cursor: allWalk.cursor },
        sql: `SELECT * FROM transactions ${W} AND ("transaction_date", "seq") < (?, ?) ${ORDER} LIMIT ?`,
        params: [companyKey, allV, allId, L],
        countSql: `SELECT count(*) AS n FROM transactions ${W}`,
        countParams: [companyKey],
        page: allDeep,
      },
      {
        id: 'amount-p1',
        label: 'sort=-amount page 1 (unfiltered)',
        query: { sort: '-amount', limit: cfg.limit, include_total: true },
        sql: `SELECT * FROM transactions ${W} ORDER BY "amount" DESC, "seq" DESC LIMIT ?`,
        params: [companyKey, L],
        countSql: `SELECT count(*) AS n FROM transactions ${W}`,
        countParams: [companyKey],
        page: 1,
      },
      {
        id: 'all-p1',
        label: 'unfiltered page 1',
        query: { limit: cfg.limit, include_total: true },
        sql: `SELECT * FROM transactions ${W} ${ORDER} LIMIT ?`,
        params: [companyKey, L],
        countSql: `SELECT count(*) AS n FROM transactions ${W}`,
        countParams: [companyKey],
        page: 1,
      },
    ]

    // ---- checks: the service and the bare query agree (rows, total; the walk reached the right row) ----
    const plans: Record<string, { page: string[]; count: string[] }> = {}
    for (const k of cases) {
      const r = await client.transactions.list(k.query)
      const rows = stmt(k.sql).all(...k.params) as { id: Uint8Array }[]
      const n = (stmt(k.countSql).get(...k.countParams) as { n: number }).n
      const ids = r.data.map((t) => t.id).join()
      if (
        ids !==
        rows
          .slice(0, cfg.limit)
          .map((x) => uuidText(x.id))
          .join()
      )
        throw new Error(`${k.label}: the service and the bare SQL returned different rows`)
      if (r.data.length !== Math.min(cfg.limit, n)) throw new Error(`${k.label}: ${r.data.length} rows, want ${Math.min(cfg.limit, n)}`)
      if (r.pagination?.total !== n) throw new Error(`${k.label}: total ${r.pagination?.total}, count(*) ${n}`)
      if (k.page > 1) {
        const where = k.sql.slice(0, k.sql.indexOf(' AND ("transaction_date"'))
        const first = stmt(`${where.replace('SELECT *', 'SELECT id')} ${ORDER} LIMIT 1 OFFSET ?`).get(
          ...k.params.slice(0, -3),
          (k.page - 1) * cfg.limit,
        ) as { id: Uint8Array }
        if (uuidText(first.id) !== r.data[0].id)
          throw new Error(
            `${k.label}: the walk did not land on page ${k.page} (first row ${r.data[0].id}, OFFSET says ${uuidText(first.id)})`,
          )
      }
      const plan = (sql: string, params: unknown[]) =>
        (stmt(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((p) => p.detail)
      plans[k.id] = { page: plan(k.sql, k.params), count: plan(k.countSql, k.countParams) }
    }

    // ---- timing ------------------------------------------------------------------------------
    log(
      `list: timing ${cases.length} listings, ${cfg.reps} repetitions each after ${cfg.warmups} warm-up(s): service, bare SQL page, count(*)`,
    )
    const timed: Record<string, Timed> = {}
    for (const k of cases) {
      const page = stmt(k.sql)
      const count = stmt(k.countSql)
      const t: Timed = { service: [], sql: [], count: [] }
      for (let i = -cfg.warmups; i < cfg.reps; i++) {
        // Alternate which goes first, so neither always finds the caches the other just warmed.
        const order = i % 2 === 0 ? (['service', 'sql', 'count'] as const) : (['count', 'sql', 'service'] as const)
        for (const which of order) {
          const s = performance.now()
          if (which === 'service') await client.transactions.list(k.query)
          else if (which === 'sql') page.all(...k.params)
          else count.get(...k.countParams)
          const ms = performance.now() - s
          if (i >= 0) t[which].push(ms)
        }
      }
      timed[k.id] = t
      const p = (xs: number[], q: number) =>
        percentile(
          [...xs].sort((a, b) => a - b),
          q,
        )
      log(
        `list: ${k.label}: service p50 ${p(t.service, 50).toFixed(2)} ms p95 ${p(t.service, 95).toFixed(2)}; ` +
          `SQL page p50 ${p(t.sql, 50).toFixed(2)} p95 ${p(t.sql, 95).toFixed(2)}; count p50 ${p(t.count, 50).toFixed(2)} p95 ${p(t.count, 95).toFixed(2)}`,
      )
    }

    // ---- report --------------------------------------------------------------------------------
    const figures: Figure[] = cases.map((k) =>
      makeFigure({
        id: `list.${k.id}`,
        label: `list ${k.label} (embedded client)`,
        unit: 'ms',
        spread: 'p10-p90',
        value: timed[k.id].service,
        baselineLabel: 'bare SQL page',
        baseline: timed[k.id].sql,
      }),
    )
    const pct = (xs: number[], q: number) =>
      percentile(
        [...xs].sort((a, b) => a - b),
        q,
      )
    const f = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2))
    const head = [
      'listing (limit 50)',
      'service p50',
      'p95',
      'bare SQL page p50',
      'p95',
      'ratio p50',
      'count(*) p50',
      'p95',
      'count / service p50',
    ]
    const rows = cases.map((k) => {
      const t = timed[k.id]
      const s50 = pct(t.service, 50)
      return [
        k.label,
        `${f(s50)} ms`,
        `${f(pct(t.service, 95))} ms`,
        `${f(pct(t.sql, 50))} ms`,
        `${f(pct(t.sql, 95))} ms`,
        `${(s50 / pct(t.sql, 50)).toFixed(1)}x`,
        `${f(pct(t.count, 50))} ms`,
        `${f(pct(t.count, 95))} ms`,
        `${((100 * pct(t.count, 50)) / s50).toFixed(0)}%`,
      ]
    })
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
    const line = (cells: string[]) => cells.map((x, i) => (i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join(' | ')
    const lines = [
      `list: ${cfg.rows.toLocaleString('en-US')} transactions, 1 company, 3 accounts, ${CATEGORIES.length} categories, 3 years; database ${((dbPages * pageSize) / 2 ** 20).toFixed(0)} MiB`,
      `list: insertTransactions ${insertRate.toFixed(0)} rows/s (batches of ${cfg.batch}, no audit rows); ${((cfg.rows / totalMs) * 1000).toFixed(0)} rows/s including generation (${(totalMs / 1000).toFixed(1)} s)`,
      `list: matches: category=${CATEGORY} ${matches.category.toLocaleString('en-US')}, category=${RARE} ${matches.rare.toLocaleString('en-US')}, account A in ${RANGE.from}..${RANGE.to} ${matches.accountRange.toLocaleString('en-US')}, unfiltered ${cfg.rows.toLocaleString('en-US')}`,
      `list: ${cfg.reps} repetitions each; times are wall clock of client.transactions.list (embedded) vs stmt.all() of the same page query (LIMIT ${L}) and stmt.get() of its count(*)`,
      `list: deep pages reached by following next_cursor through the service (${catWalk.requests} + ${allWalk.requests} requests, ${(catWalk.ms / 1000).toFixed(1)} s + ${(allWalk.ms / 1000).toFixed(1)} s; pages of 1,000 then of ${cfg.limit}), checked against OFFSET`,
      '',
      line(head),
      widths.map((w) => '-'.repeat(w)).join('-|-'),
      ...rows.map(line),
      '',
      'list: EXPLAIN QUERY PLAN (no ANALYZE has run, as in the product):',
    ]
    for (const k of cases) {
      lines.push(
        `  ${k.label}: page: ${plans[k.id].page.join('; ')}`,
        `  ${' '.repeat(k.label.length)}  count: ${plans[k.id].count.join('; ')}`,
      )
    }
    const extra = {
      rows: cfg.rows,
      insert: { rowsPerSecond: insertRate, insertMs, totalMs, batch: cfg.batch },
      databaseMiB: (dbPages * pageSize) / 2 ** 20,
      matches,
      walks: { category: { page: catDeep, ...catWalk }, unfiltered: { page: allDeep, ...allWalk } },
      cases: cases.map((k) => ({
        id: k.id,
        label: k.label,
        query: { ...k.query, cursor: k.query.cursor ? '(page cursor)' : undefined },
        sql: k.sql,
        countSql: k.countSql,
        plan: plans[k.id],
        ms: Object.fromEntries(
          (['service', 'sql', 'count'] as const).map((w) => [
            w,
            { p50: pct(timed[k.id][w], 50), p95: pct(timed[k.id][w], 95), summary: summarize(timed[k.id][w]) },
          ]),
        ),
      })),
    }
    return { figures, lines, extra }
  } finally {
    raw?.close()
    await core?.close()
    // The database is large (~1 GB at 1M rows): removed now, unless kept for a look (FINCTL_BENCH_KEEP_TMP).
    if (process.env.FINCTL_BENCH_KEEP_TMP) log(`list: kept ${file} (FINCTL_BENCH_KEEP_TMP)`)
    else rmSync(dir, { recursive: true, force: true })
  }
}
