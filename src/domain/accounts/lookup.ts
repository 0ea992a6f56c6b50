/**
 * The reads of bank accounts a list of transactions needs (an account's row, the accounts' names),
 * apart from bank-accounts.ts and the balances it works out: a `tx list` loads these alone
 * (docs/performance.md, "Start-up guards").
 */
import type { Kysely } from 'kysely'
import { notFound } from '../../kernel/errors.js'
import type { BankAccountRow, Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'

/** `db` may be an open transaction (its reads must not wait on another connection). */
export async function findBankAccount(store: Store, companyId: string, id: string, db: Kysely<Db> = store.db): Promise<BankAccountRow> {
  // Outside a transaction, the store's prepared lookup (every create makes one).
  const row =
    db === store.db
      ? await store.hot.findBankAccount(companyId, id)
      : await db.selectFrom('bank_accounts').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst()
  if (!row) throw notFound('bank account')
  return row
}

/** The names of the accounts `ids` name, by id (`GET /transactions?include_account_names=true`). */
export async function accountNames(store: Store, companyId: string, ids: readonly string[]): Promise<Record<string, string>> {
  const wanted = [...new Set(ids)]
  if (wanted.length === 0) return {}
  const rows = await store.db
    .selectFrom('bank_accounts')
    .select(['id', 'name'])
    .where('company_id', '=', companyId)
    .where('id', 'in', wanted)
    .execute()
  return Object.fromEntries(rows.map((r) => [r.id, r.name]))
}
