/**
 * Serve section, filtered GET: `finctl serve` answering GET /api-v1/transactions?category=Rent&limit=50
 * (API key auth, rate limit, validation, the page query and its count(*) for `total`, JSON) beside
 * the bare node:http + better-sqlite3 server (bench/bare-server.mjs) running the same page query and
 * count(*) as prepared statements on THE SAME SQLite file (same rows, same indexes, no ANALYZE, as in
 * the product) and answering the same JSON shape. Both are loaded with autocannon, paired rounds.
 *
 * The database is a fresh `finctl init` with its bank account, seeded before either server starts
 * with deterministic transactions (bench/lib/txdata.ts: 21 categories, three years) written straight
 * into `transactions` with one prepared INSERT (as the store's own batch insert does), so the
 * POST figures of the section, on their own databases, are not changed by it.
 */
import Database from 'better-sqlite3'
import type { ServerProcess } from './children.js'
import { GET_FILTER } from './pg.js'
import {
  checkOnce,
  pairedLoad,
  prepareFinctl,
  startBare,
  startFinctl,
  type FinctlSetup,
  type HttpRequestSpec,
  type PairedRuns,
} from './throughput.js'
import { INSERT_STORED, keysOf, storedValues } from './stored.js'
import { generateTransactions, transactionRow } from './txdata.js'

export interface ServeGetConfig {
  seedRows: number
  rounds: number
  durationS: number
  warmupS: number
  connections: number
  pauseMs: number
}

export interface ServeGetResult {
  request: HttpRequestSpec
  runs: PairedRuns
  seed: { rows: number; matching: number; ms: number }
  plan: string[]
  lines: string[]
}

const SEED = 7_070_707

/** `rows` deterministic transactions of the setup's account, straight into its database file. */
function seedDatabase(s: FinctlSetup, rows: number): { matching: number; ms: number; plan: string[] } {
  const t0 = performance.now()
  const db = new Database(s.database)
  try {
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    const keys = keysOf(db, s.accountId)
    const insert = db.prepare(INSERT_STORED)
    let matching = 0
    const batch = db.transaction((items: unknown[][]) => {
      for (const r of items) insert.run(r)
    })
    let items: unknown[][] = []
    for (const t of generateTransactions(SEED, rows)) {
      if (t.category === GET_FILTER.category) matching++
      items.push(storedValues(transactionRow(t, { ...keys, accountId: s.accountId })))
      if (items.length >= 10_000) {
        batch(items)
        items = []
      }
    }
    if (items.length) batch(items)
    const plan = (
      db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT * FROM transactions WHERE "company_key" = ? AND "category" = ? ORDER BY "transaction_date" DESC, "seq" DESC LIMIT ?`,
        )
        .all(keys.companyKey, GET_FILTER.category, GET_FILTER.limit + 1) as { detail: string }[]
    ).map((p) => p.detail)
    db.pragma('wal_checkpoint(TRUNCATE)')
    return { matching, ms: performance.now() - t0, plan }
  } finally {
    db.close()
  }
}

export function filteredGetRequest(apiKey: string): HttpRequestSpec {
  // With its total, as the bare server gives one: the same work on both sides.
  const q = new URLSearchParams({ category: GET_FILTER.category, limit: String(GET_FILTER.limit), include_total: 'true' })
  return { method: 'GET', path: `/api-v1/transactions?${q}`, headers: { 'x-api-key': apiKey, accept: 'application/json' } }
}

interface PageJson {
  success: boolean
  data: { id: string; category: string }[]
  pagination: { limit: number; next_cursor: string | null; has_more: boolean; total: number }
}

export async function runFilteredGet(root: string, cfg: ServeGetConfig, log: (l: string) => void): Promise<ServeGetResult> {
  const setup = prepareFinctl(root, log)
  const seeded = seedDatabase(setup, cfg.seedRows)
  log(
    `serve: GET: seeded ${cfg.seedRows.toLocaleString('en-US')} transactions in ${(seeded.ms / 1000).toFixed(1)} s; ${seeded.matching} match category=${GET_FILTER.category}; page plan: ${seeded.plan.join('; ')}`,
  )
  const servers: ServerProcess[] = []
  try {
    const finctl = await startFinctl(root, setup)
    servers.push(finctl)
    const bare = await startBare(root, setup)
    servers.push(bare)
    log(
      `serve: GET: finctl at ${finctl.url} (pid ${finctl.child.pid}), bare at ${bare.url} (pid ${bare.child.pid}), both on ${setup.database}`,
    )
    const req = filteredGetRequest(setup.apiKey)
    // Fail fast: both answer the same page (same rows, same order, same values) and the same total.
    const textA = await checkOnce(finctl, req, 200)
    const textB = await checkOnce(bare, req, 200)
    const a = JSON.parse(textA) as PageJson
    const b = JSON.parse(textB) as PageJson
    if (
      a.pagination.total !== seeded.matching ||
      a.data.length !== GET_FILTER.limit ||
      a.data.some((t) => t.category !== GET_FILTER.category)
    ) {
      throw new Error(`finctl ${req.path}: total ${a.pagination.total} (want ${seeded.matching}), ${a.data.length} rows`)
    }
    if (
      JSON.stringify(a.data) !== JSON.stringify(b.data) ||
      a.pagination.total !== b.pagination.total ||
      a.pagination.has_more !== b.pagination.has_more
    ) {
      const diff = a.data.findIndex((t, i) => JSON.stringify(t) !== JSON.stringify(b.data[i]))
      throw new Error(
        `the bare server's page differs from finctl's (first different row ${diff}: ${JSON.stringify(a.data[diff])} vs ${JSON.stringify(b.data[diff])})`,
      )
    }
    const sizes = { finctl: Buffer.byteLength(textA), bare: Buffer.byteLength(textB) }
    const runs = await pairedLoad(finctl, req, bare, req, { ...cfg, log, label: `GET ${req.path}` })
    const lines = [
      `serve GET: ${cfg.seedRows.toLocaleString('en-US')} seeded transactions, ${seeded.matching.toLocaleString('en-US')} with category=${GET_FILTER.category}; finctl and the bare server on the same SQLite file; ` +
        `page query plan: ${seeded.plan.join('; ')}`,
      `serve GET: both answers checked equal (same ${GET_FILTER.limit} rows, values and total); bodies ${textA === textB ? `byte-identical, ${sizes.finctl} bytes` : `${sizes.finctl} and ${sizes.bare} bytes`}; ` +
        'the bare server does no auth, rate limit, validation or usage record',
    ]
    return {
      request: req,
      runs,
      seed: { rows: cfg.seedRows, matching: seeded.matching, ms: Math.round(seeded.ms) },
      plan: seeded.plan,
      lines,
    }
  } finally {
    for (const s of servers) {
      const st = await s.stop()
      if (st.forced) log(`serve: GET: ${s.name} did not stop within 10 s of SIGTERM; killed`)
    }
  }
}
