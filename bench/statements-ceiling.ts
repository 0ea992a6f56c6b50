/**
 * The ceilings of the `statements` section, one run per fresh process (as the product parses each
 * file on a fresh worker thread: cold code, an empty heap):
 *   1. parse: parseUpload() on the file's bytes, the function the product's worker runs (the
 *      statement parser, then the lines' descriptions), with its modules loaded beforehand;
 *      the peak RSS it adds is read from getrusage (ru_maxrss) before and after.
 *   2. store: the parsed lines as rows of `transactions` in a COPY of a database that `finctl init`
 *      made (the same table, indexes, unique statement_ref index and foreign keys; WAL,
 *      synchronous=NORMAL, foreign_keys=ON as finctl opens it), with ONE prepared better-sqlite3
 *      INSERT run per line inside one transaction, COMMIT included. No audit rows, no duplicate
 *      lookup, no reconciliation, no statement record, no worker thread, no HTTP layer.
 *
 * Usage: node --import tsx bench/statements-ceiling.ts --file F --format camt053|ofx --database COPY.db --account ID
 * Prints one JSON line on stdout.
 */
import Database from 'better-sqlite3'
import type { NewTransactionRow } from '../src/store/transaction-codec.js'
import { INSERT_STORED, keysOf, storedValues } from './lib/stored.js'
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { parseArgs } from 'node:util'
import { parseUpload } from '../src/domain/statements/parse.js'

const { values } = parseArgs({
  options: {
    file: { type: 'string' },
    format: { type: 'string' },
    database: { type: 'string' },
    account: { type: 'string' },
  },
  strict: true,
})
if (!values.file || !values.format || !values.database || !values.account) {
  process.stderr.write('usage: statements-ceiling.ts --file F --format camt053|ofx --database COPY.db --account ID\n')
  process.exit(2)
}
const format = values.format as 'camt053' | 'ofx'

// Load the parsers now, so that module loading is not timed (the product's worker loads its chunk too).
await import('../src/import/statements/index.js')
const bytes = new Uint8Array(readFileSync(values.file))
const rssBeforeMb = process.memoryUsage().rss / 2 ** 20
const maxRssBeforeMb = process.resourceUsage().maxRSS / 1024

const t0 = performance.now()
const parsed = await parseUpload(bytes, { fileName: basename(values.file), format, currency: 'USD', exponent: 2 }, { format })
const parseMs = performance.now() - t0
const maxRssAfterParseMb = process.resourceUsage().maxRSS / 1024
const lines = parsed.parts.flatMap((p) => p.lines)
let sum = 0n
for (const l of lines) sum += BigInt(l.amountMinor)

const db = new Database(values.database)
db.pragma('journal_mode = WAL')
db.pragma('synchronous = NORMAL')
db.pragma('busy_timeout = 5000')
db.pragma('foreign_keys = ON')
// Rows as the store keeps them (migration 0011), with the keys of the account and its company.
const keys = keysOf(db, values.account)
const insert = db.prepare(INSERT_STORED)

const t1 = performance.now()
const ts = new Date().toISOString()
db.transaction(() => {
  for (const l of lines) {
    const row: NewTransactionRow = {
      id: randomUUID(),
      company_key: keys.companyKey,
      account_key: keys.accountKey,
      bank_account_id: values.account as string,
      bank_statement_id: null,
      transaction_date: l.date,
      posted_date: l.date,
      description: l.description,
      original_description: l.description,
      amount: l.amountMinor,
      currency_code: 'USD',
      exchange_rate: '1',
      base_amount: l.amountMinor,
      category: l.category ?? null,
      accounting_category: null,
      cash_flow_category: null,
      merchant_name: l.merchant ?? null,
      status: 'posted',
      is_reconciled: 0,
      ai_confidence_score: null,
      tags: '[]',
      created_at: ts,
      updated_at: ts,
      import_ref: null,
      statement_ref: l.externalId ? `id:${l.externalId}` : null,
    }
    insert.run(storedValues(row))
  }
})()
const insertMs = performance.now() - t1
const stored = (db.prepare('SELECT count(*) AS n FROM transactions WHERE account_key = ?').get(keys.accountKey) as { n: number }).n
db.close()

process.stdout.write(
  `${JSON.stringify({
    format,
    fileBytes: bytes.length,
    lines: lines.length,
    sumMinor: sum.toString(),
    warnings: parsed.warnings.length,
    stored,
    parseMs,
    insertMs,
    rssBeforeMb,
    maxRssBeforeMb,
    maxRssAfterParseMb,
  })}\n`,
)
