/**
 * What the auditor's pack of a closed month holds, as the service knows it (docs/closing.md, "The
 * auditor's pack"): the month's latest close with its figures, the statements of the month (and
 * whether each one's original file is kept), each statement line with its transaction, the documents
 * linked to the month's transactions and the audit entries about them. The CLI writes these, the exports and the documents' bytes into one zip
 * (pack-files.ts); the service signs its manifest once it has built the same pack again (pack-check.ts).
 */
import type { Kysely } from 'kysely'
import { currencyExponent } from '../../kernel/currencies.js'
import { AppError } from '../../kernel/errors.js'
import { formatMinor } from '../../kernel/money.js'
import type { Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { getCompany } from '../accounts/companies.js'
import { accountMovements } from '../accounts/balances.js'
import { balanceOf, heldByOpening } from '../accounts/opening.js'
import { shiftDate } from '../reconcile.js'
import { monthEnd, monthStart } from '../accounts/period-lock.js'
import { toRecord } from './close.js'
import { monthContents } from './contents.js'
import type { PackAuditEntry, PackContents, PackDocument, PackReconciliation, PackStatement } from './pack-schemas.js'
import { lastClose } from './records.js'
import type { MonthFigure } from './contents.js'
import { notKeptNote } from '../statements/original.js'

const PAGE = 5_000
/** Ids per `in (...)` list. */
const CHUNK = 500

/** The latest close of the month, which must still hold: a reopened month is closed again before it is packed. */
export async function heldClose(db: Kysely<Db>, companyId: string, month: string) {
  const close = await lastClose(db, companyId, month)
  const company = await db.selectFrom('companies').select('lock_date').where('id', '=', companyId).executeTakeFirst()
  if (!company?.lock_date || company.lock_date < monthEnd(month))
    throw new AppError('conflict', `${month} is not closed now (it was reopened): close it again before packing it`)
  const before = await db
    .selectFrom('period_closes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .where('period', '=', month)
    .where('action', '=', 'close')
    .where('id', '<=', close.id)
    .executeTakeFirstOrThrow()
  return { close, sequence: Number(before.n) }
}

async function inChunks<T>(ids: string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = []
  for (let i = 0; i < ids.length; i += CHUNK) out.push(...(await read(ids.slice(i, i + CHUNK))))
  return out
}

export async function packContents(store: Store, companyId: string, month: string): Promise<PackContents> {
  const db = store.db
  const { close, sequence } = await heldClose(db, companyId, month)
  const company = await getCompany(store, companyId)
  const start = monthStart(month)
  const end = monthEnd(month)
  const now = await monthContents(store, db, companyId, month)

  // The month's rows that carry a statement line, read a page at a time.
  const reconciliation: PackReconciliation[] = []
  const companyKey = await store.tx.companyKey(companyId, db)
  for (let after = -1; ; ) {
    const page = await db
      .selectFrom('transactions')
      .selectAll()
      .where('company_key', '=', companyKey)
      .where('transaction_date', '>=', start)
      .where('transaction_date', '<=', end)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(PAGE)
      .execute()
    if (page.length === 0) break
    after = Number(page[page.length - 1].seq)
    for (const t of await store.tx.decode(db, page))
      if (t.bank_statement_id)
        reconciliation.push({
          statement_id: t.bank_statement_id,
          line_ref: t.statement_ref,
          transaction_id: t.id,
          transaction_date: t.transaction_date,
          amount: formatMinor(t.amount, currencyExponent(t.currency_code)),
          currency_code: t.currency_code,
          bank_account_id: t.bank_account_id,
          bank_account: '',
          description: t.description,
          status: t.status,
          created_via: t.created_via,
        })
    if (page.length < PAGE) break
  }
  reconciliation.sort((a, b) => a.statement_id.localeCompare(b.statement_id) || (a.line_ref ?? '').localeCompare(b.line_ref ?? ''))

  const statementRows = await db
    .selectFrom('bank_statements')
    .innerJoin('bank_accounts', 'bank_accounts.id', 'bank_statements.bank_account_id')
    .selectAll('bank_statements')
    .select('bank_accounts.name as account_name')
    .where('bank_statements.company_id', '=', companyId)
    .where('bank_statements.status', '=', 'completed')
    .where('bank_statements.period_start', '<=', end)
    .where('bank_statements.period_end', '>=', start)
    .orderBy('bank_statements.period_start')
    .orderBy('bank_statements.id')
    .execute()
  const money = (minor: number | bigint | null, currency: string) =>
    minor === null ? null : formatMinor(minor, currencyExponent(currency))
  const accounts = await db
    .selectFrom('bank_accounts')
    .select(['id', 'key', 'name', 'currency_code', 'opening_balance', 'opening_balance_date', 'status'])
    .where('company_id', '=', companyId)
    .execute()
  const held = await heldByOpening(db, accounts, company.base_currency)
  // The book's balance the day before a statement's first day: what its lines start from when the statement gives no opening balance.
  const before = async (accountId: string, day: string | null) => {
    const a = accounts.find((x) => x.id === accountId)
    if (!a || !day) return null
    const upTo = shiftDate(day, -1)
    const moved = (await accountMovements(db, [a], company.base_currency, upTo)).get(Number(a.key))!
    return money(balanceOf(a, moved, held.get(Number(a.key)), upTo).net, a.currency_code)
  }
  // Which of them have their original kept (statements uploaded before finctl kept files have none).
  const kept = new Set(
    (
      await inChunks([...new Set(statementRows.map((s) => s.file_sha256))], (chunk) =>
        db.selectFrom('statement_files').select('sha256').where('company_id', '=', companyId).where('sha256', 'in', chunk).execute(),
      )
    ).map((f) => f.sha256),
  )
  const accountName = new Map(accounts.map((a) => [a.id, a.name]))
  for (const r of reconciliation) r.bank_account = accountName.get(r.bank_account_id) ?? ''
  const statements: PackStatement[] = []
  for (const s of statementRows)
    statements.push({
      id: s.id,
      bank_account_id: s.bank_account_id,
      bank_account: s.account_name,
      file_name: s.file_name,
      format: s.format,
      file_sha256: s.file_sha256,
      file_size: Number(s.file_size),
      currency_code: s.currency_code,
      period_start: s.period_start,
      period_end: s.period_end,
      opening_balance: money(s.opening_balance === null ? null : Number(s.opening_balance), s.currency_code),
      closing_balance: money(s.closing_balance === null ? null : Number(s.closing_balance), s.currency_code),
      balance_check: s.balance_check,
      line_count: Number(s.line_count),
      created_at: s.created_at,
      file_kept: kept.has(s.file_sha256),
      file_note: kept.has(s.file_sha256) ? null : notKeptNote(s.created_at),
      book_balance_before: await before(s.bank_account_id, s.period_start),
    })

  const ids = [...now.rows.keys()].sort()
  const links = await inChunks(ids, (chunk) =>
    db
      .selectFrom('document_links')
      .select(['document_id', 'transaction_id'])
      .where('company_id', '=', companyId)
      .where('transaction_id', 'in', chunk)
      .execute(),
  )
  const linked = new Map<string, string[]>()
  for (const l of links) linked.set(l.document_id, [...(linked.get(l.document_id) ?? []), l.transaction_id])
  const docRows = await inChunks([...linked.keys()].sort(), (chunk) =>
    db
      .selectFrom('documents')
      .select(['id', 'sha256', 'size', 'media_type', 'kind', 'file_name'])
      .where('company_id', '=', companyId)
      .where('id', 'in', chunk)
      .execute(),
  )
  const documents: PackDocument[] = docRows
    .map((d) => ({ ...d, size: Number(d.size), transaction_ids: (linked.get(d.id) ?? []).sort() }))
    .sort((a, b) => a.id.localeCompare(b.id))

  const entries = await inChunks(ids, (chunk) =>
    db
      .selectFrom('audit_entries')
      .select(['id', 'transaction_id', 'actor', 'action', 'changes', 'created_at', 'prev_hash', 'hash'])
      .where('company_id', '=', companyId)
      .where('transaction_id', 'in', chunk)
      .execute(),
  )
  const audit_entries: PackAuditEntry[] = entries.map((e) => ({ ...e, id: Number(e.id) })).sort((a, b) => a.id - b.id)

  return {
    month,
    company: { id: company.id, name: company.name, base_currency: company.base_currency },
    close: {
      ...toRecord(close),
      sequence,
      rows_count: close.rows_count === null ? null : Number(close.rows_count),
      rows_sha256: close.rows_sha256,
      figures:
        close.figures === null
          ? null
          : (JSON.parse(close.figures) as MonthFigure[]).map(({ bank_account_id, ...f }) => ({
              bank_account_id,
              bank_account: accountName.get(bank_account_id) ?? '',
              ...f,
            })),
    },
    rows_sha256_now: now.sha256,
    statements,
    reconciliation,
    documents,
    audit_entries,
  }
}
