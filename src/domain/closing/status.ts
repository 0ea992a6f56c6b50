/**
 * The month-end status (docs/closing.md): per bank account, its last statement's closing balance
 * beside the book balance on the statement's last day, and what in the month is still open
 * (not reconciled, uncategorized, pending, unconverted, statements processing). Ready when nothing is.
 */
import { countAll, openPoints } from '../../store/fragments.js'
import type { Store } from '../../store/store.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { formatMinor, minorToNumber } from '../../kernel/money.js'
import { baseCurrency } from '../accounts/companies.js'
import { accountMovements } from '../accounts/balances.js'
import { balanceOf, heldByOpening } from '../accounts/opening.js'
import { lockDateOf, monthEnd, monthStart, previousMonth } from '../accounts/period-lock.js'
import { companyKey } from '../transaction-rows.js'
import { exact } from '../sums.js'
import type { CloseStatus, CloseStatusAccount } from './schemas.js'
import { missingDocuments } from './document-policy.js'

/** The last full month before `now`, YYYY-MM. */
export function lastFullMonth(now: Date): string {
  return previousMonth(now.toISOString().slice(0, 7))
}

type Counts = Pick<
  CloseStatusAccount,
  'not_reconciled' | 'uncategorized' | 'pending' | 'unconverted' | 'statements_processing' | 'documents_missing'
>
const COUNT_WORDS: Array<[keyof Counts, string]> = [
  ['documents_missing', 'without a document (at or above the threshold)'],
  ['not_reconciled', 'not reconciled'],
  ['uncategorized', 'uncategorized'],
  ['pending', 'pending'],
  ['unconverted', 'in a currency without a rate into the account'],
  ['statements_processing', 'statement(s) still processing'],
]

export async function closeStatus(store: Store, companyId: string, month: string | undefined, now: Date): Promise<CloseStatus> {
  const m = month ?? lastFullMonth(now)
  const start = monthStart(m)
  const end = monthEnd(m)
  const base = await baseCurrency(store, companyId)
  const company = await companyKey(store, companyId)
  const accounts = await store.db
    .selectFrom('bank_accounts')
    .select(['id', 'key', 'name', 'currency_code', 'opening_balance', 'opening_balance_date', 'status'])
    .where('company_id', '=', companyId)
    .orderBy('name')
    .orderBy('id')
    .execute()

  // The month's open points per account, in one pass over the month's rows (the company's date index).
  const perAccount = await store.db
    .selectFrom('transactions')
    .innerJoin('bank_accounts', 'bank_accounts.key', 'transactions.account_key')
    .where('transactions.company_key', '=', company)
    .where('transactions.transaction_date', '>=', start)
    .where('transactions.transaction_date', '<=', end)
    .where('transactions.status', '!=', 'void')
    .select([
      'transactions.account_key as account_key',
      openPoints.notReconciled().as('not_reconciled'),
      openPoints.uncategorized().as('uncategorized'),
      openPoints.pending().as('pending'),
      openPoints.unconverted(base).as('unconverted'),
    ])
    .groupBy('transactions.account_key')
    .execute()
  const counts = new Map(perAccount.map((r) => [Number(r.account_key), r]))
  const held = await heldByOpening(store.db, accounts, base)
  const processing = await store.db
    .selectFrom('bank_statements')
    .select(['bank_account_id', countAll().as('n')])
    .where('company_id', '=', companyId)
    .where('status', 'in', ['pending', 'processing'])
    .groupBy('bank_account_id')
    .execute()
  const busy = new Map(processing.map((r) => [r.bank_account_id, Number(r.n)]))
  const missing = await missingDocuments(store, companyId, company, m)
  // Listed always; a blocker only when the policy says so.
  const blocking = missing.policy.require_documents

  const out: CloseStatusAccount[] = []
  for (const a of accounts) {
    const statement = await store.db
      .selectFrom('bank_statements')
      .select(['id', 'period_end', 'closing_balance'])
      .where('bank_account_id', '=', a.id)
      .where('status', '=', 'completed')
      .where('period_end', 'is not', null)
      .where('closing_balance', 'is not', null)
      .where('period_end', '<=', end)
      .orderBy('period_end', 'desc')
      .orderBy('processed_at', 'desc')
      .limit(1)
      .executeTakeFirst()
    const c = counts.get(Number(a.key))
    const n: Counts = {
      not_reconciled: Number(exact(c?.not_reconciled ?? 0)),
      uncategorized: Number(exact(c?.uncategorized ?? 0)),
      pending: Number(exact(c?.pending ?? 0)),
      unconverted: Number(exact(c?.unconverted ?? 0)),
      statements_processing: busy.get(a.id) ?? 0,
      documents_missing: missing.perAccount.get(a.id) ?? 0,
    }
    // A closed account without anything in the month has nothing to close.
    if (a.status === 'closed' && !c && !statement && !n.statements_processing) continue
    const blockers = COUNT_WORDS.filter(([k]) => n[k] > 0 && (k !== 'documents_missing' || blocking)).map(
      ([k, words]) => `${n[k]} ${words}`,
    )
    let book: bigint | null = null
    let difference: bigint | null = null
    if (statement?.period_end && statement.closing_balance !== null) {
      const moved = (await accountMovements(store.db, [a], base, statement.period_end)).get(Number(a.key))!
      book = balanceOf(a, moved, held.get(Number(a.key)), statement.period_end).net
      difference = BigInt(statement.closing_balance) - book
      if (difference !== 0n) {
        const exp = currencyExponent(a.currency_code)
        blockers.unshift(
          `the statement's closing balance ${formatMinor(BigInt(statement.closing_balance), exp)} differs from the book balance ${formatMinor(book, exp)} on ${statement.period_end} by ${formatMinor(difference, exp)} ${a.currency_code}`,
        )
      }
    }
    out.push({
      id: a.id,
      name: a.name,
      currency_code: a.currency_code,
      statement:
        statement?.period_end && statement.closing_balance !== null
          ? {
              id: statement.id,
              period_end: statement.period_end,
              closing_balance: minorToNumber(statement.closing_balance, a.currency_code),
            }
          : null,
      book_balance: book === null ? null : minorToNumber(book, a.currency_code),
      difference: difference === null ? null : minorToNumber(difference, a.currency_code),
      ...n,
      ready: blockers.length === 0,
      blockers,
    })
  }
  const sum = (k: keyof Counts) => out.reduce((s, a) => s + a[k], 0)
  const lockDate = await lockDateOf(store.db, companyId)
  return {
    month: m,
    period_start: start,
    period_end: end,
    lock_date: lockDate,
    closed: lockDate !== null && lockDate >= end,
    accounts: out,
    company: {
      not_reconciled: sum('not_reconciled'),
      uncategorized: sum('uncategorized'),
      pending: sum('pending'),
      unconverted: sum('unconverted'),
      statements_processing: sum('statements_processing'),
      documents_missing: missing.total,
      accounts_not_ready: out.filter((a) => !a.ready).length,
    },
    ready: out.every((a) => a.ready),
    document_policy: { document_thresholds: missing.policy.document_thresholds, require_documents: blocking },
    documents_missing: missing.rows,
  }
}

/** What keeps a month from being ready, in one line (the not_ready error's message). */
export function notReadyWords(s: CloseStatus): string {
  const words = s.accounts
    .filter((a) => !a.ready)
    .map((a) => `${a.name}: ${a.blockers.join(', ')}`)
    .join('; ')
  if (!s.document_policy.require_documents || !s.documents_missing.length) return words
  const rows = s.documents_missing.map((d) => `${d.id} (${d.transaction_date}, ${d.amount} ${d.currency_code})`)
  const more = s.company.documents_missing - rows.length
  return `${words}; without a document: ${rows.slice(0, 20).join(', ')}${more + Math.max(rows.length - 20, 0) > 0 ? `, and ${more + Math.max(rows.length - 20, 0)} more` : ''}`
}
