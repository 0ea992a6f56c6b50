/** Transactions that already hold an import_ref: found for a batch's duplicates, and the 409 of a single create. */
import type { Kysely } from 'kysely'
import { AppError } from '../../kernel/errors.js'
import type { Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { type NewTransactionRow, refKey } from '../../store/transaction-codec.js'

/** Refs looked up a query: a review's or an import's batch of 5,000 in one (the list is one parameter). */
const REFS_A_QUERY = 5000

/** The existing transaction an import_ref names (for duplicate reports), keyed `account_key NUL import_ref`. */
export async function existingByRef(store: Store, db: Kysely<Db>, rows: NewTransactionRow[]): Promise<Map<string, string>> {
  const byAccount = new Map<number, string[]>()
  for (const r of rows) {
    if (!r.import_ref) continue
    const refs = byAccount.get(r.account_key)
    if (refs) refs.push(r.import_ref)
    else byAccount.set(r.account_key, [r.import_ref])
  }
  const out = new Map<string, string>()
  for (const [account, refs] of byAccount) {
    for (let i = 0; i < refs.length; i += REFS_A_QUERY) {
      const found = await db
        .selectFrom('transactions')
        .select(['id', 'import_ref'])
        .where('account_key', '=', account)
        .where(store.sql.inTexts('import_ref', refs.slice(i, i + REFS_A_QUERY)))
        .execute()
      for (const f of found) out.set(refKey(account, f.import_ref), store.tx.idText(f.id))
    }
  }
  return out
}

/** The 409 of a create whose import_ref the account holds already. */
export async function refTaken(store: Store, db: Kysely<Db>, row: NewTransactionRow): Promise<AppError> {
  const existing = (await existingByRef(store, db, [row])).get(refKey(row.account_key, row.import_ref))
  return new AppError(
    'conflict',
    `a transaction with import_ref ${row.import_ref} already exists on this account: ${existing ?? 'unknown id'}`,
  )
}

/** A batch item refused by the lock that carries an import_ref: there already, or refused. */
export interface LockedItem {
  index: number
  error: AppError
  account_key: number
  import_ref: string
}

/**
 * Of a batch's items in a closed period, those whose import_ref the account holds: "already there"
 * (a re-run after a close creates nothing and refuses nothing); the others are refused by `fail`.
 */
export async function lockedButThere(
  store: Store,
  db: Kysely<Db>,
  locked: LockedItem[],
  fail: (index: number, err: AppError) => void,
): Promise<Array<{ index: number; id: string; import_ref: string }>> {
  if (!locked.length) return []
  const found = await existingByRef(store, db, locked as unknown as NewTransactionRow[])
  const there: Array<{ index: number; id: string; import_ref: string }> = []
  for (const l of locked) {
    const id = found.get(refKey(l.account_key, l.import_ref))
    if (id) there.push({ index: l.index, id, import_ref: l.import_ref })
    else fail(l.index, l.error)
  }
  return there
}
