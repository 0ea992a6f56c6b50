/**
 * A month closed while an import into it runs: the built CLI imports 30,000 rows dated
 * in one month while another process closes that month, on SQLite and on PostgreSQL, three times
 * each. No batch may commit after the close: no `transactions.imported` event follows the
 * `period.closed` one, and the rows in the month are exactly those of the events before it.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { freshPostgres, STORES, TEST_DATABASE_URL } from '../helpers/harness.js'
import { Sandbox } from '../helpers/cli.js'

const MONTH = '2025-08'
const ROWS = 30_000
const ROUNDS = 3

interface Ledger {
  /** Rows dated in the month, the seq of the close's event, and the imported events after it. */
  read(): Promise<{ rows: number; closedSeq: number | null; importedAfter: number; importedRows: number }>
  rowCount(): Promise<number>
  end(): Promise<void>
}

function sqliteLedger(file: string): Ledger {
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true })
  const one = (q: string) => db.prepare(q).pluck().get() as number | null
  return {
    rowCount: async () => one('SELECT count(*) FROM transactions') ?? 0,
    read: async () => {
      const closedSeq = one(`SELECT seq FROM events WHERE type = 'period.closed'`)
      return {
        rows: one(`SELECT count(*) FROM transactions WHERE transaction_date LIKE '${MONTH}-%'`) ?? 0,
        closedSeq,
        importedAfter: one(`SELECT count(*) FROM events WHERE type = 'transactions.imported' AND seq > ${closedSeq ?? -1}`) ?? 0,
        importedRows: importedCount(db.prepare(`SELECT data FROM events WHERE type = 'transactions.imported'`).pluck().all() as string[]),
      }
    },
    end: async () => {
      db.close()
    },
  }
}

async function postgresLedger(url: string): Promise<Ledger> {
  const { default: pg } = await import('pg')
  const schema = new URL(url).searchParams.get('schema')!
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await client.connect()
  const one = async (q: string) => {
    const r = await client.query(q)
    return r.rows[0] ? (Object.values(r.rows[0])[0] as number | string | null) : null
  }
  const num = (v: number | string | null) => (v === null ? null : Number(v))
  return {
    rowCount: async () => num(await one(`SELECT count(*) FROM ${schema}.transactions`)) ?? 0,
    read: async () => {
      const closedSeq = num(await one(`SELECT seq FROM ${schema}.events WHERE type = 'period.closed'`))
      const payloads = await client.query(`SELECT data FROM ${schema}.events WHERE type = 'transactions.imported'`)
      return {
        rows: num(await one(`SELECT count(*) FROM ${schema}.transactions WHERE transaction_date LIKE '${MONTH}-%'`)) ?? 0,
        closedSeq,
        importedAfter:
          num(await one(`SELECT count(*) FROM ${schema}.events WHERE type = 'transactions.imported' AND seq > ${closedSeq ?? -1}`)) ?? 0,
        importedRows: importedCount(payloads.rows.map((r) => r.data as string)),
      }
    },
    end: () => client.end(),
  }
}

/** The rows the imported events say went in. */
function importedCount(payloads: Array<string | Record<string, unknown>>): number {
  let n = 0
  for (const p of payloads) {
    const body = (typeof p === 'string' ? JSON.parse(p) : p) as { created?: number }
    if (typeof body.created !== 'number') throw new Error(`an imported event without its count: ${JSON.stringify(body).slice(0, 200)}`)
    n += body.created
  }
  return n
}

describe.each(STORES)('a month closed while an import into it runs, on %s', (kind) => {
  const sandboxes: Sandbox[] = []
  afterAll(() => {
    for (const sb of sandboxes) sb.cleanup()
  })

  it(`commits no row of the month after the close (${ROUNDS} rounds)`, { timeout: 240_000 }, async () => {
    let landedMidImport = 0
    for (let round = 1; round <= ROUNDS; round++) {
      const sb = new Sandbox(`close-race-${kind}`)
      sandboxes.push(sb)
      const database = kind === 'postgres' ? (await freshPostgres()).url : undefined
      await sb.ok(['init', '--no-input', ...(database ? ['--database', database] : [])])
      await sb.ok(['accounts', 'create', '--name', 'Ops', '--type', 'checking'])
      const csv = join(sb.dir, 'august.csv')
      const lines = ['date,description,amount']
      for (let i = 0; i < ROWS; i++)
        lines.push(`${MONTH}-${String(1 + (i % 31)).padStart(2, '0')},Row ${i},-${1 + (i % 500)}.${String(i % 100).padStart(2, '0')}`)
      writeFileSync(csv, `${lines.join('\n')}\n`)

      const ledger = database ? await postgresLedger(database) : sqliteLedger(sb.database)
      try {
        const importing = sb.run(['tx', 'import', csv, '--account', 'Ops'], { timeoutMs: 120_000 })
        // The close goes in once the first batch has: the rest of the import is then under way.
        while ((await ledger.rowCount()) === 0) await new Promise((r) => setTimeout(r, 20))
        const close = await sb.run(['close', MONTH, '--force', '--reason', 'race'], { timeoutMs: 60_000 })
        const imp = await importing
        expect(close.code, close.stderr).toBe(0)
        const seen = await ledger.read()
        expect(seen.closedSeq).not.toBeNull()
        expect(seen.importedAfter, `round ${round}: a batch committed after the close`).toBe(0)
        expect(seen.rows).toBe(seen.importedRows)
        if (imp.code !== 0) {
          landedMidImport++
          // The batch in flight is refused whole (exit 6), or the next batches read the new lock date (exit 8).
          expect([6, 8], imp.stderr).toContain(imp.code)
          if (imp.code === 6) {
            expect(imp.stderr).toContain('a month was closed while this write was under way')
            expect(imp.stderr).toMatch(/the import stopped after at least [\d,]+ rows were created/)
          }
          expect(seen.rows).toBeLessThan(ROWS)
        } else expect(seen.rows).toBe(ROWS)
      } finally {
        await ledger.end()
      }
    }
    // Otherwise the test proved nothing: the close always came after the import's end.
    expect(landedMidImport).toBeGreaterThan(0)
  })
})
