/**
 * Writing a processed statement: duplicates left out, existing transactions reconciled, the other
 * lines created as posted transactions of the statement, audit entries for each, and the statement
 * record completed, all in ONE database transaction: a failure leaves nothing half-imported.
 */
import type { Kysely } from 'kysely'
import type { Db, NewAuditEntryRow } from '../../store/schema.js'
import { creationEntries } from '../../store/creations.js'
import type { NewTransactionRow, TransactionRow } from '../../store/transaction-codec.js'
import type { Store } from '../../store/store.js'
import { actorId } from '../actor.js'
import { auditRow, diff } from '../transactions/audit.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { uuidv7 } from '../../kernel/ids.js'
import { convertMinor, formatMinor } from '../../kernel/money.js'
import { lineRefs } from './match.js'
import { matchLines, MATCH_WINDOW_DAYS, shiftDate, type Candidate } from '../reconcile.js'
import { StatementFileError } from './parse.js'
import type { SelectedStatement } from './select.js'
import { toStatement, type StatementJob } from './statements.js'
import { eventRow, recordEvents } from '../events.js'
import { companyKey, toTransaction } from '../transaction-rows.js'
import { RateBook } from '../rate-book.js'
import { amountInAccount } from '../accounts/balances.js'
import { isLocked, lockDateOf } from '../accounts/period-lock.js'
import { opened } from '../accounts/opening.js'
import { exampleOf } from '../categorization/labels.js'
import { labelsChanged } from '../categorization/settings.js'
import type { Example } from '../categorization/model.js'
import { count } from '../../kernel/words.js'

const MAX_WARNINGS = 100
/**
 * Rows are built and written SLICE at a time, yielding to the event loop between slices: a large
 * statement neither holds the loop for long nor piles up its rows (and their garbage) in memory.
 */
const SLICE = 500
const yieldLoop = () => new Promise<void>((r) => setImmediate(r))

export interface ApplyResult {
  created: number
  matched: number
  duplicates: number
}

async function existingRefs(trx: Kysely<Db>, accountKey: number, refs: string[]): Promise<Set<string>> {
  const out = new Set<string>()
  for (let i = 0; i < refs.length; i += 500) {
    const rows = await trx
      .selectFrom('transactions')
      .select('statement_ref')
      .where('account_key', '=', accountKey)
      .where('statement_ref', 'in', refs.slice(i, i + 500))
      .execute()
    for (const r of rows) if (r.statement_ref) out.add(r.statement_ref)
    // better-sqlite3 answers synchronously: without this, the whole loop is one turn of the event loop.
    if (i % 5000 === 4500) await yieldLoop()
  }
  return out
}

/** Transactions of the account a line may reconcile: no statement, not void, within the window. */
async function candidates(store: Store, trx: Kysely<Db>, accountKey: number, from: string, to: string): Promise<TransactionRow[]> {
  let q = trx
    .selectFrom('transactions')
    .selectAll()
    .where('account_key', '=', accountKey)
    .where('bank_statement_id', 'is', null)
    .where('status', '!=', 'void')
    .where('transaction_date', '>=', shiftDate(from, -MATCH_WINDOW_DAYS))
    .where('transaction_date', '<=', shiftDate(to, MATCH_WINDOW_DAYS))
    .orderBy('created_at')
    .orderBy('seq')
  if (store.sql.rowLocks) q = q.forUpdate()
  return store.tx.decode(trx, await q.execute())
}

export function warningsJson(warnings: string[]): string {
  const kept =
    warnings.length > MAX_WARNINGS ? [...warnings.slice(0, MAX_WARNINGS), `… and ${warnings.length - MAX_WARNINGS} more`] : warnings
  return JSON.stringify(kept)
}

async function openingDateOf(trx: Kysely<Db>, accountId: string): Promise<string | null> {
  const row = await trx.selectFrom('bank_accounts').select('opening_balance_date').where('id', '=', accountId).executeTakeFirst()
  return row?.opening_balance_date ?? null
}

/**
 * New lines dated before the account's opening date (as it is now) fail the statement, each one
 * named: its opening balance holds what came before, and a statement is imported whole. The way
 * out is named: the opening date moved to the statement's first day, with its opening balance.
 */
function refuseBeforeOpening(
  openingDate: string | null,
  fresh: ReadonlyArray<{ line: SelectedStatement['lines'][number] }>,
  account: StatementJob['account'],
  sel: SelectedStatement,
): void {
  const early = fresh.filter(({ line }) => !opened(openingDate, line.date))
  if (early.length === 0) return
  const named = early.map(({ line }) => `${line.line ? `line ${line.line}` : `the line of ${line.date}`}: dated ${line.date}`)
  const first = early.map(({ line }) => line.date).sort()[0]
  const day = sel.periodStart !== null && sel.periodStart < first ? sel.periodStart : first
  const amount =
    sel.openingBalance !== null && day === sel.periodStart
      ? formatMinor(sel.openingBalance, currencyExponent(account.currency_code))
      : 'AMOUNT'
  throw new StatementFileError(
    `${count(early.length, 'line')} ${early.length === 1 ? 'is' : 'are'} dated before the opening date ${openingDate} of bank account "${account.name}", whose opening balance is its balance at the start of that day, and a statement is imported whole, so nothing was imported: ${named.slice(0, 3).join('; ')}${early.length > 3 ? '; …' : ''}. To import it, move the opening date first: finctl accounts update ${account.id} --opening-balance-date ${day} --opening-balance ${amount}${amount === 'AMOUNT' ? ` (the balance at the start of ${day})` : " (the statement's opening balance)"}`,
    named,
  )
}

/** The fresh lines of a closed period that a transaction of that period, not on a statement, matches (as a pairing would). */
async function closedThere(
  store: Store,
  trx: Kysely<Db>,
  account: StatementJob['account'],
  base: string,
  lockDate: string | null,
  fresh: Array<{ line: SelectedStatement['lines'][number]; index: number }>,
): Promise<Set<number>> {
  const closed = fresh.filter(({ line }) => isLocked(lockDate, line.date))
  if (!closed.length) return new Set()
  const dates = closed.map((f) => f.line.date).sort()
  const rows = (await candidates(store, trx, account.key, dates[0], dates[dates.length - 1])).filter((r) =>
    isLocked(lockDate, r.transaction_date),
  )
  const list: Candidate[] = rows.flatMap((r) => {
    const amount = amountInAccount(r, account.currency_code, base)
    return amount === undefined
      ? []
      : [{ id: r.id, transaction_date: r.transaction_date, amount, description: r.description, merchant_name: r.merchant_name }]
  })
  return new Set(matchLines(closed, list).keys())
}

export async function applyStatement(store: Store, job: StatementJob, sel: SelectedStatement, now: Date): Promise<ApplyResult> {
  const { account, actor, statementId } = job
  const refs = lineRefs(sel.lines)
  const ts = now.toISOString()
  const createdBy = actorId(actor)
  const exp = currencyExponent(account.currency_code)
  const baseExp = currencyExponent(job.baseCurrency)
  // Rules and the model fill the category of new lines; loaded before the write lock is taken.
  const categorizer = await (await import('../categorization/categorizer.js')).prepareCategorizer(
    store,
    account.company_id,
    sel.lines.some((l) => l.category == null),
  )
  // No rate given for an account in another currency than the base: each line takes the company's
  // rate of its date, loaded once for the statement's dates; a line without one fails the statement.
  const rates =
    job.rate === undefined
      ? await RateBook.load(
          store.db,
          account.company_id,
          sel.lines.map((l) => ({ currency: account.currency_code, date: l.date })),
        )
      : RateBook.empty()
  const rateOf = (line: { date: string; line?: number }): { rate: string; date: string | null } => {
    if (job.rate !== undefined) return { rate: job.rate, date: null }
    try {
      return rates.require(account.currency_code, line.date, job.baseCurrency)
    } catch (e) {
      throw new StatementFileError(
        `${line.line ? `line ${line.line}` : `the line of ${line.date}`}: ${(e as Error).message.replace(/^exchange_rate: /, 'an exchange rate ')}`,
      )
    }
  }
  const learned: Example[] = []
  const company = await companyKey(store, account.company_id)
  await store.tx.actorKey(createdBy)
  const { result, learn } = await store.writeTransaction(async (trx) => {
    // One statement of an account at a time, across processes too (SQLite: BEGIN IMMEDIATE does it).
    // NO KEY UPDATE: new transactions of the account (their foreign key takes KEY SHARE) do not wait.
    if (store.sql.rowLocks) await trx.selectFrom('bank_accounts').select('id').where('id', '=', account.id).forNoKeyUpdate().execute()
    const current = await trx.selectFrom('bank_statements').select('status').where('id', '=', statementId).executeTakeFirst()
    if (current?.status !== 'processing')
      throw new StatementFileError(`the statement is ${current?.status ?? 'gone'}, no longer processing: nothing was imported`)

    const known = await existingRefs(trx, account.key, refs)
    let fresh = sel.lines.map((line, index) => ({ line, index })).filter(({ index }) => !known.has(refs[index]))
    // Lines of a closed period (a duplicate changes nothing) fail the statement, each one named;
    // one that a transaction of that period holds already is there, left as it is (not paired: that would change it).
    const lockDate = await lockDateOf(trx, account.company_id)
    const there = await closedThere(store, trx, account, job.baseCurrency, lockDate, fresh)
    if (there.size) fresh = fresh.filter(({ index }) => !there.has(index))
    const locked = fresh.filter(({ line }) => isLocked(lockDate, line.date))
    if (lockDate && locked.length) {
      const named = locked.map(({ line }) => `${line.line ? `line ${line.line}` : `the line of ${line.date}`}: dated ${line.date}`)
      throw new StatementFileError(
        `period_locked: ${count(locked.length, 'line')} ${locked.length === 1 ? 'is' : 'are'} dated on or before the lock date ${lockDate} (a closed period), nothing was imported: ${named.slice(0, 3).join('; ')}${locked.length > 3 ? '; …' : ''}`,
        named,
      )
    }
    refuseBeforeOpening(await openingDateOf(trx, account.id), fresh, account, sel)
    let matches = new Map<number, string>()
    const rowsById = new Map<string, TransactionRow>()
    if (fresh.length) {
      const dates = fresh.map((f) => f.line.date).sort()
      // A transaction of a closed period is not reconciled by a later line near it: that would change it.
      const found = (await candidates(store, trx, account.key, dates[0], dates[dates.length - 1])).filter(
        (r) => !isLocked(lockDate, r.transaction_date),
      )
      for (const r of found) rowsById.set(r.id, r)
      // Compared in the account's currency, the statement's: a transaction in another one by what it counts for in the balance.
      const list: Candidate[] = found.flatMap((r) => {
        const amount = amountInAccount(r, account.currency_code, job.baseCurrency)
        return amount === undefined
          ? []
          : [{ id: r.id, transaction_date: r.transaction_date, amount, description: r.description, merchant_name: r.merchant_name }]
      })
      matches = matchLines(fresh, list)
    }

    let created: NewTransactionRow[] = []
    let audit: NewAuditEntryRow[] = []
    // Chained once, after the last row lock of this statement: the chain's head is locked last (no deadlock with an update).
    const chained: NewAuditEntryRow[] = []
    let createdCount = 0
    const flush = async () => {
      categorizer.apply(created)
      for (const r of created) {
        const e = exampleOf(r as TransactionRow)
        if (e) learned.push(e)
      }
      if (created.length)
        await trx
          .insertInto('transactions')
          .values(created.map((r) => store.tx.encode(r)))
          .execute()
      for (const a of audit) chained.push(a)
      for (const e of creationEntries(
        created,
        () => true,
        () => account.company_id,
      ))
        chained.push(e)
      createdCount += created.length
      created = []
      audit = []
      await yieldLoop()
    }
    for (const { line, index } of fresh) {
      if (created.length >= SLICE || audit.length >= SLICE) await flush()
      const matchedId = matches.get(index)
      if (matchedId) {
        const before = rowsById.get(matchedId)!
        const after: TransactionRow = {
          ...before,
          is_reconciled: 1,
          bank_statement_id: statementId,
          statement_ref: refs[index],
          status: before.status === 'pending' ? 'posted' : before.status,
          updated_at: ts,
        }
        await trx
          .updateTable('transactions')
          .set({ is_reconciled: 1, bank_statement_id: statementId, statement_ref: refs[index], status: after.status, updated_at: ts })
          .where('seq', '=', before.seq)
          .execute()
        audit.push(auditRow(actor, 'reconcile', matchedId, diff(toTransaction(before), toTransaction(after)), now))
        continue
      }
      const rate = rateOf(line)
      let baseAmount: number
      try {
        baseAmount = convertMinor(line.amountMinor, exp, rate.rate, baseExp)
      } catch {
        throw new StatementFileError(
          `${line.line ? `line ${line.line}` : `the line of ${line.date}`}: the amount is too large once converted to the base currency ${job.baseCurrency}`,
        )
      }
      const row: NewTransactionRow = {
        id: uuidv7(now.getTime()),
        company_key: company,
        account_key: account.key,
        bank_account_id: account.id,
        bank_statement_id: statementId,
        transaction_date: line.date,
        posted_date: line.date,
        description: line.description,
        original_description: line.originalDescription ?? line.description,
        amount: line.amountMinor,
        currency_code: account.currency_code,
        exchange_rate: rate.rate,
        exchange_rate_date: rate.date,
        base_amount: baseAmount,
        category: line.category ?? null,
        accounting_category: line.transfer ? 'transfer' : null,
        cash_flow_category: line.transfer ? 'transfer' : null,
        merchant_name: line.merchant ?? null,
        status: 'posted',
        is_reconciled: 0,
        ai_confidence_score: null,
        tags: '[]',
        created_at: ts,
        updated_at: ts,
        import_ref: null,
        statement_ref: refs[index],
        created_by: createdBy,
        created_via: 'statement_import',
      }
      created.push(row)
    }
    await flush()
    await store.writes.appendAudit(trx, chained)

    const result = { created: createdCount, matched: matches.size, duplicates: sel.lines.length - fresh.length }
    await trx
      .updateTable('bank_statements')
      .set({
        status: 'completed',
        period_start: sel.periodStart,
        period_end: sel.periodEnd,
        opening_balance: sel.openingBalance,
        closing_balance: sel.closingBalance,
        balance_check: sel.balanceCheck,
        line_count: sel.lines.length,
        transaction_count: result.created + result.matched,
        duplicate_count: result.duplicates,
        matched_count: result.matched,
        warnings: warningsJson(sel.warnings),
        error: null,
        updated_at: ts,
        processed_at: ts,
      })
      .where('id', '=', statementId)
      .execute()
    const learn = await labelsChanged(trx, store, account.company_id, [], learned, now)
    const stored = await trx.selectFrom('bank_statements').selectAll().where('id', '=', statementId).executeTakeFirstOrThrow()
    await recordEvents(store, trx, [eventRow(actor, 'statement.processed', statementId, { ...toStatement(stored), result }, now)])
    return { result, learn }
  })
  learn()
  return result
}
