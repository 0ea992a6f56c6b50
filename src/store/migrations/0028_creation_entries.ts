/**
 * 0028 puts creations in the audit chain (creations.ts, docs/audit.md): from now on every write that
 * creates transactions chains a `rows_created` entry. The rows already there get one entry per
 * company here, for every row up to the highest seq now (`through_seq`), so that `verify` covers
 * them too and names any row inserted later without an entry.
 */
import type { Kysely } from 'kysely'
import { appendAudit } from '../audit-chain.js'
import { addId, ROWS_CREATED, sumHex } from '../creations.js'
import type { Db } from '../schema.js'
import { uuidText } from '../transaction-codec.js'
import type { AnyDb, Dialect, DialectAdapter } from './common.js'

const PAGE = 5000

export async function up(db: AnyDb, _dialect: Dialect, adapter: DialectAdapter): Promise<void> {
  const companies = (await db.selectFrom('companies').select(['id', 'key']).orderBy('key').execute()) as Array<{ id: string; key: number }>
  const now = new Date().toISOString()
  for (const c of companies) {
    const sum = new Uint32Array(4)
    let count = 0
    let after = -1
    let last = -1
    for (;;) {
      const rows = (await db
        .selectFrom('transactions')
        .select(['seq', 'id'])
        .where('company_key', '=', c.key)
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(PAGE)
        .execute()) as Array<{ seq: number | string; id: string | Uint8Array }>
      for (const r of rows) {
        last = Number(r.seq)
        addId(sum, typeof r.id === 'string' ? r.id : uuidText(r.id))
        count++
      }
      if (rows.length < PAGE) break
      after = Number(rows[rows.length - 1].seq)
    }
    if (count === 0) continue
    const changes = JSON.stringify({ count, created_via: null, id_sum: sumHex(sum), through_seq: last })
    await appendAudit(db as Kysely<Db>, adapter.sql, [
      { company_id: c.id, transaction_id: '', actor: 'finctl', action: ROWS_CREATED, changes, created_at: now },
    ])
  }
}

/** The entries stay: they are chained, and an older finctl's verify sees them as any other entry. */
export async function down(): Promise<void> {}
