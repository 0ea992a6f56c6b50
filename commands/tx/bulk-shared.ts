/**
 * What `tx bulk-update` and `tx bulk-delete` share: choosing the rows (exactly one of --ids,
 * --ids-file or the list filters), the refusal of a closed month before the question, and sending
 * them in requests of at most 1,000, each all or nothing, some of which a bulk policy may hold back.
 */
import { noteNearCategory } from '../../src/cli/category-names.js'
import { readIds } from '../../src/cli/ids.js'
import { note, say } from '../../src/cli/output.js'
import type { VerbHost } from '../../src/cli/runner.js'
import { accountsFor, resolveTransactionIds } from '../../src/cli/short-ids.js'
import { amountTotal } from '../../src/cli/totals.js'
import { hasFilter, listQuery, type ListFilterOptions } from '../../src/cli/tx-filters.js'
import type { Client } from '../../src/client/client.js'
import type { Outcome } from '../../src/client/approvals.js'
import { isLocked, periodLocked } from '../../src/domain/accounts/period-lock.js'
import type { Proposal } from '../../src/domain/approvals/schemas.js'
import type { Transaction } from '../../src/domain/schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { count } from '../../src/kernel/words.js'
import { splitList } from './shared.js'

export type BulkSelection = ListFilterOptions & { ids?: string; idsFile?: string }
export type Target = Pick<Transaction, 'id'> & Partial<Transaction>

export const BULK_CHUNK = 1000

/**
 * The rows a bulk verb names. Filters are resolved first, so the plan shows exactly the rows and
 * the amount they touch (`full`, `total`). Explicit ids go as they are: the service checks them all
 * or nothing (one GET each would spend the rate limit).
 */
export async function bulkTargets(
  host: VerbHost,
  client: Client,
  o: BulkSelection,
): Promise<{ targets: Target[]; full?: Transaction[]; total?: string[] }> {
  const query = listQuery(o, host)
  const sources = [o.ids !== undefined, o.idsFile !== undefined, hasFilter(query)].filter(Boolean).length
  if (sources !== 1)
    throw new AppError(
      'usage',
      'choose the transactions with exactly one of --ids, --ids-file or list filters (--category, --from, --search, ...)',
    )
  await accountsFor(host, client, query)
  await noteNearCategory(host, client, o.category, 'filter')
  let targets: Target[]
  if (o.ids !== undefined || o.idsFile !== undefined) {
    const typed = [...new Set(o.ids !== undefined ? splitList(o.ids) : await readIds(host.io, o.idsFile!))]
    if (typed.length === 0) throw new AppError('usage', 'no transaction ids given')
    const ids = [...new Set(await resolveTransactionIds(client, typed, o.ids !== undefined ? '--ids' : '--ids-file'))]
    targets = ids.map((id) => ({ id }))
  } else {
    const rows: Transaction[] = []
    for await (const page of client.transactions.pages({ ...query, limit: 1000 })) rows.push(...page.data)
    targets = rows
  }
  const full = targets.every((t) => t.amount !== undefined) ? (targets as Transaction[]) : undefined
  return { targets, full, total: full ? amountTotal(full) : undefined }
}

/**
 * A refusal that does not depend on the answer comes before the question, and before a first
 * chunk is written: with rows of a closed month among them, a later chunk would be refused.
 */
export async function refuseLocked(client: Client, full: Transaction[] | undefined): Promise<void> {
  if (!full) return
  const { lock_date } = await client.company()
  const locked = lock_date ? full.find((t) => isLocked(lock_date, t.transaction_date)) : undefined
  if (lock_date && locked)
    throw periodLocked(
      lock_date,
      locked.transaction_date,
      `transaction ${locked.id} (dated ${locked.transaction_date}), one of those matched,`,
    )
}

/** Past 1,000 rows, the line saying the change goes in several requests, each all or nothing. */
export function noteChunks(host: VerbHost, targets: Target[]): void {
  if (targets.length > BULK_CHUNK)
    note(
      host.io,
      host.printer,
      `${count(targets.length, 'transaction')} go in ${count(Math.ceil(targets.length / BULK_CHUNK), 'request')} of at most ${BULK_CHUNK}; each is all or nothing`,
    )
}

/**
 * Send the rows by requests of at most 1,000: the answers done and the proposals a bulk policy
 * made of the others; a request refused after others went is said with what went before, exit 8.
 */
export async function sendChunks<T>(
  host: VerbHost,
  targets: Target[],
  send: (ids: string[]) => Promise<Outcome<T>>,
  counted: (r: T) => number,
  done: 'updated' | 'deleted',
): Promise<{ answers: T[]; proposals: Proposal[]; n: number } | { exit: number }> {
  let n = 0
  const answers: T[] = []
  const proposals: Proposal[] = []
  for (let i = 0; i < targets.length; i += BULK_CHUNK) {
    try {
      const o = await send(targets.slice(i, i + BULK_CHUNK).map((t) => t.id))
      if (o.proposal) proposals.push(o.proposal)
      else {
        n += counted(o.done)
        answers.push(o.done)
      }
    } catch (err) {
      if (n > 0 && err instanceof AppError) {
        say(
          host.io,
          `error: ${err.message}\n  ${n} of ${count(targets.length, 'transaction')} ${n === 1 ? 'was' : 'were'} ${done} before this request failed`,
        )
        return { exit: 8 }
      }
      throw err
    }
  }
  return { answers, proposals, n }
}
