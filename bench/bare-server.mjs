#!/usr/bin/env node
// Baseline for the throughput benchmark: a bare node:http server with no framework.
//   POST /api-v1/transactions  parse the JSON body, one prepared INSERT of a transaction row into a SQLite
//                              file that finctl created (`finctl init`: the same migrations, so the same
//                              table, indexes and foreign keys), as finctl stores it (migration 0011: the id in
//                              16 bytes, the company and account by key, equal columns NULL), with better-sqlite3
//                              (WAL, synchronous=NORMAL, foreign_keys=ON, as finctl opens it), answer 201 with
//                              small JSON. It does none of finctl's other work: no auth, rate limit, account
//                              check, validation or audit row.
//   GET  /api-v1/transactions  ?category=X&limit=N (limit 1-1000, default 50): the page query finctl runs for
//                              that filter (WHERE company_key AND category, ORDER BY transaction_date DESC, seq DESC,
//                              LIMIT N+1) and its count(*) for `total`, as prepared statements on the same indexes;
//                              rows shaped like finctl's Transaction (the fields of --fields, which the bench takes
//                              from the API's schema; amounts in USD units, tags parsed, booleans),
//                              with finctl's pagination object (limit, next_cursor, has_more, total). No auth either.
//   GET  /healthz              a constant JSON "hello".
// Usage: node bench/bare-server.mjs --database PATH --account ID --fields A,B,.. [--port 0] [--host 127.0.0.1]
// Prints `listening on http://HOST:PORT` on stderr once it accepts connections; SIGTERM/SIGINT stop it.
import { createServer } from 'node:http'
import { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
import Database from 'better-sqlite3'

const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    account: { type: 'string' },
    fields: { type: 'string' },
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
  },
})
if (!values.database || !values.account || !values.fields) {
  process.stderr.write('bare-server: --database PATH (made by finctl init), --account ID and --fields A,B,.. are required\n')
  process.exit(2)
}
// The public fields of a transaction, in the API schema's order (bench/lib/throughput.ts passes them).
const FIELDS = values.fields.split(',')

// The columns a create writes (the others stay NULL: posted_date, original_description and updated_at
// equal to transaction_date, description and created_at).
const COLUMNS = [
  'id',
  'company_key',
  'account_key',
  'transaction_date',
  'description',
  'amount',
  'currency_code',
  'exchange_rate',
  'base_amount',
  'status',
  'is_reconciled',
  'tags',
  'created_at',
]

const db = new Database(values.database)
db.pragma('journal_mode = WAL')
db.pragma('synchronous = NORMAL')
db.pragma('busy_timeout = 5000')
db.pragma('foreign_keys = ON')
const insert = db.prepare(`INSERT INTO transactions (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`)
const ACCOUNT = db
  .prepare('SELECT a.id, a.key, c.key AS company_key FROM bank_accounts a JOIN companies c ON c.id = a.company_id WHERE a.id = ?')
  .get(values.account)
if (!ACCOUNT) {
  process.stderr.write(`bare-server: no bank account ${values.account} in ${values.database}\n`)
  process.exit(2)
}
const COMPANY_KEY = ACCOUNT.company_key
const ORDER = 'ORDER BY "transaction_date" DESC, "seq" DESC'
const pageByCategory = db.prepare(`SELECT * FROM transactions WHERE "company_key" = ? AND "category" = ? ${ORDER} LIMIT ?`)
const countByCategory = db.prepare('SELECT count(*) AS n FROM transactions WHERE "company_key" = ? AND "category" = ?')
const pageAll = db.prepare(`SELECT * FROM transactions WHERE "company_key" = ? ${ORDER} LIMIT ?`)
const countAll = db.prepare('SELECT count(*) AS n FROM transactions WHERE "company_key" = ?')

/** A UUID's text and its 16 bytes. */
const uuidBytes = (id) => Buffer.from(id.replaceAll('-', ''), 'hex')
function uuidText(b) {
  const h = Buffer.from(b).toString('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}
const MAX_BODY = 1 << 20
const HELLO = JSON.stringify({ success: true, data: { status: 'ok' } })

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

/** "-12.34" or -12.34 -> -1234 (two decimals, like USD). */
function toMinor(amount) {
  const n = typeof amount === 'number' ? amount : Number(amount)
  return Number.isFinite(n) ? Math.round(n * 100) : NaN
}

function createTransaction(req, res) {
  const chunks = []
  let size = 0
  req.on('data', (c) => {
    size += c.length
    if (size > MAX_BODY) {
      send(res, 413, '{"success":false}')
      req.destroy()
      return
    }
    chunks.push(c)
  })
  req.on('end', () => {
    if (res.writableEnded) return
    let input
    try {
      input = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    } catch {
      return send(res, 400, '{"success":false,"error":"invalid JSON"}')
    }
    const amount = toMinor(input?.amount)
    if (
      typeof input?.bank_account_id !== 'string' ||
      typeof input.transaction_date !== 'string' ||
      typeof input.description !== 'string' ||
      Number.isNaN(amount)
    ) {
      return send(res, 400, '{"success":false,"error":"invalid body"}')
    }
    const ts = new Date().toISOString()
    const id = randomUUID()
    insert.run({
      id: uuidBytes(id),
      company_key: COMPANY_KEY,
      account_key: ACCOUNT.key,
      transaction_date: input.transaction_date,
      description: input.description,
      amount,
      currency_code: 'USD',
      exchange_rate: '1',
      base_amount: amount,
      status: 'pending',
      is_reconciled: 0,
      tags: '[]',
      created_at: ts,
    })
    send(res, 201, JSON.stringify({ success: true, data: { id, amount: amount / 100, created_at: ts } }))
  })
}

/**
 * How a stored row gives the API's fields that are not a column of the same name (transaction-rows.ts in
 * src/domain, for USD). Every other field of --fields is read from its column.
 */
const DERIVED = {
  id: (r) => uuidText(r.id),
  posted_date: (r) => r.posted_date ?? r.transaction_date,
  original_description: (r) => r.original_description ?? r.description,
  amount: (r) => r.amount / 100,
  exchange_rate: (r) => Number(r.exchange_rate),
  is_reconciled: (r) => r.is_reconciled === 1,
  tags: (r) => JSON.parse(r.tags),
  bank_account_id: () => ACCOUNT.id,
  updated_at: (r) => r.updated_at ?? r.created_at,
}
const STORED = new Set(db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('transactions'))
const unknown = FIELDS.filter((f) => !(f in DERIVED) && !STORED.has(f))
if (unknown.length > 0) {
  process.stderr.write(`bare-server: no column or rule for the API field(s) ${unknown.join(', ')}: add them to DERIVED\n`)
  process.exit(2)
}
const READERS = FIELDS.map((f) => [f, DERIVED[f] ?? ((r) => r[f] ?? null)])

/** A row as finctl's Transaction: the fields of --fields, in that order. */
function toJson(r) {
  const out = {}
  for (const [field, read] of READERS) out[field] = read(r)
  return out
}

function listTransactions(req, res, query) {
  req.resume()
  const params = new URLSearchParams(query)
  const category = params.get('category')
  const limit = Number(params.get('limit') ?? '50')
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return send(res, 400, '{"success":false,"error":"invalid limit"}')
  const rows = category ? pageByCategory.all(COMPANY_KEY, category, limit + 1) : pageAll.all(COMPANY_KEY, limit + 1)
  const total = (category ? countByCategory.get(COMPANY_KEY, category) : countAll.get(COMPANY_KEY)).n
  const hasMore = rows.length > limit
  const page = hasMore ? rows.slice(0, limit) : rows
  const last = page[page.length - 1]
  const nextCursor =
    hasMore && last ? Buffer.from(JSON.stringify(['-transaction_date', last.transaction_date, last.seq])).toString('base64url') : null
  send(
    res,
    200,
    JSON.stringify({ success: true, data: page.map(toJson), pagination: { limit, next_cursor: nextCursor, has_more: hasMore, total } }),
  )
}

const server = createServer((req, res) => {
  const [path, query = ''] = (req.url ?? '').split('?', 2)
  if (req.method === 'POST' && path === '/api-v1/transactions') return createTransaction(req, res)
  if (req.method === 'GET' && path === '/api-v1/transactions') return listTransactions(req, res, query)
  if (req.method === 'GET' && path === '/healthz') return send(res, 200, HELLO)
  req.resume()
  send(res, 404, '{"success":false,"error":"not found"}')
})
server.keepAliveTimeout = 10_000

server.listen(Number(values.port), values.host, () => {
  const { address, port } = server.address()
  const host = address.includes(':') ? `[${address}]` : address
  process.stderr.write(`bare server (node:http + better-sqlite3) at ${values.database}\nlistening on http://${host}:${port}\n`)
})

let stopping = false
function stop(signal) {
  if (stopping) return
  stopping = true
  process.stderr.write(`${signal}: stopping\n`)
  const force = setTimeout(() => process.exit(0), 5000)
  force.unref()
  server.close(() => {
    db.close()
    process.exit(0)
  })
  server.closeIdleConnections()
}
process.once('SIGTERM', () => stop('SIGTERM'))
process.once('SIGINT', () => stop('SIGINT'))
