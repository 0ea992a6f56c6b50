/**
 * PostgreSQL's group commit of small inserts (src/store/postgres/grouped-inserts.ts) beside a write
 * of the kysely path (a batch pairing statement lines, statements/apply, a close): both must take
 * their locks in one order, the chain's head last, or the two deadlock and one answers 500. The
 * interleaving is forced here: the other write holds a report-totals row and the group waits on it.
 * A COPY takes its refs in file order, other writes in theirs: when PostgreSQL picks the COPY as a
 * deadlock's victim, it goes again rather than answering 500.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyChain } from '../../src/store/audit-chain.js'
import type { Store } from '../../src/store/store.js'
import { freshDatabase, seedTenant, STORES, txRow, type TestDatabase, type Tenant } from './fixtures.js'

describe.runIf(STORES.includes('postgres'))('group commit lock order on postgres', () => {
  let database: TestDatabase
  let store: Store
  let t: Tenant

  beforeAll(async () => {
    database = await freshDatabase('postgres')
    store = await database.open()
    t = await seedTenant(store)
    // The company's chain head exists: the group locks it with its insert, not on its first write.
    await store.hot.insertTransactions([txRow(t)])
  })
  afterAll(async () => {
    await store?.close()
    await database?.remove()
  })

  /** Until some other backend waits on a lock held by backend `pid`. */
  async function untilBlockedBy(pid: number): Promise<void> {
    for (let i = 0; i < 500; i++) {
      const r = await sql<{ n: string }>`SELECT count(*) AS n FROM pg_stat_activity WHERE ${pid} = ANY(pg_blocking_pids(pid))`.execute(
        store.db,
      )
      if (Number(r.rows[0].n) > 0) return
      await new Promise((res) => setTimeout(res, 10))
    }
    throw new Error(`nothing waited on backend ${pid}`)
  }

  it('a grouped insert waiting on a row another write holds does not hold the head that write locks last', async () => {
    // Same company, account and date: both rows add to one report_day_flows row (the insert trigger).
    const first = txRow(t, { transaction_date: '2026-08-14', import_ref: 'order-1' })
    const grouped = txRow(t, { transaction_date: '2026-08-14', import_ref: 'order-2' })
    await store.tx.prepareActors([first])
    let inserting: Promise<unknown> | undefined
    await store.writeTransaction(async (trx) => {
      const pid = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx)).rows[0].pid
      await store.tx.insert(trx, [first])
      inserting = store.hot.insertTransactions([grouped])
      // Keep it from failing the test unobserved while this write goes on; it is awaited below.
      inserting.catch(() => {})
      await untilBlockedBy(pid)
      // As statement-lines.ts and apply.ts do: the head locked after every row lock of the write.
      await store.writes.appendAudit(trx, [
        {
          company_id: t.companyId,
          transaction_id: first.id,
          actor: 'key:contract',
          action: 'create',
          changes: '{}',
          created_at: first.created_at,
        },
      ])
    })
    expect((await inserting)!).toMatchObject({ size: 1 })
    const stored = await store.db.selectFrom('transactions').select('id').where('id', 'in', [first.id, grouped.id]).execute()
    expect(stored).toHaveLength(2)
    const flows = await store.db
      .selectFrom('report_day_flows')
      .select(['n', 'amount'])
      .where('account_key', '=', t.accountKey)
      .where('transaction_date', '=', '2026-08-14')
      .execute()
    expect(flows.map((f) => [Number(f.n), Number(f.amount)])).toEqual([[2, first.amount + grouped.amount]])
    expect(await verifyChain(store.db, t.companyId)).toMatchObject({ intact: true, broken: null })
  })

  it('a COPY chosen as a deadlock victim goes again, the rows taken crosswise left to the other write', async () => {
    // 100 rows go by COPY (COPY_MIN_ROWS), their refs in file order.
    const rows = Array.from({ length: 100 }, (_, i) => txRow(t, { import_ref: `crosswise-${String(i).padStart(3, '0')}` }))
    const early = txRow(t, { import_ref: 'crosswise-050' })
    const late = txRow(t, { import_ref: 'crosswise-010' })
    await store.tx.prepareActors([early, late])
    let copying: Promise<{ size: number }> | undefined
    await store.writeTransaction(async (trx) => {
      const pid = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx)).rows[0].pid
      // This write checks for the deadlock only after 10 s, so the COPY's check (after the default
      // second) finds it first even on a loaded machine, where the COPY's backend may run late.
      await sql`SET LOCAL deadlock_timeout = '10s'`.execute(trx)
      await store.tx.insert(trx, [early])
      copying = store.hot.insertTransactions(rows)
      copying.catch(() => {})
      // The COPY holds refs 000-049 and waits on 050; this write then asks for 010: a cycle. The COPY's
      // deadlock check runs first and it is the victim.
      await untilBlockedBy(pid)
      await store.tx.insert(trx, [late])
    })
    expect((await copying)!.size).toBe(98)
    const refs = await store.db.selectFrom('transactions').select(['id', 'import_ref']).where('import_ref', 'like', 'crosswise-%').execute()
    expect(refs).toHaveLength(100)
    const byRef = new Map(refs.map((r) => [r.import_ref, r.id]))
    expect(byRef.get('crosswise-050')).toBe(early.id)
    expect(byRef.get('crosswise-010')).toBe(late.id)
    expect(await verifyChain(store.db, t.companyId)).toMatchObject({ intact: true, broken: null })
  })
})
