/**
 * The import's summarize stage: what every other stage tells it (a row mapped, a row refused here,
 * a batch answered) becomes the counts, the sums per currency, the rejected rows (in memory, a
 * spill file, the --rejects file) and the progress line; `close` finishes them into the summary.
 */
import { currencyExponent } from '../../kernel/currencies.js'
import { formatMinor } from '../../kernel/money.js'
import type { ImportPlan } from '../../import/plan.js'
import { CurrencyTotals, type CurrencyTotal } from './currency-totals.js'
import { discardRejects, RejectList, type RejectedRow } from './reject-list.js'
import { RejectsWriter } from './rejects-file.js'
import type { ImportRequest, ReadyRow, SendResult } from './send.js'

export type { CurrencyTotal, RejectedRow }

export interface ImportProgress {
  done: number
  total: number
  created: number
  duplicates: number
  rejected: number
  elapsedMs: number
}

export interface ImportSummary {
  file: string
  bank_account_id: string
  currency: string
  dry_run: boolean
  /** The import's batch on the service (finctl imports show); none on a dry run. */
  batch_id?: string
  mode: 'batch' | 'single' | 'none'
  /** Transaction rows found in the file (after the header; balance and footer lines left out). */
  read: number
  created: number
  already_imported: number
  /**
   * Rows already on a statement of the account: paired with the transactions the statement made
   * (the upload's reconciliation rule, the other way round) instead of created again.
   */
  on_statement: number
  rejected: number
  /** With debit and credit columns: the rows read whose value had the other sign from its column's (debit-credit.ts). */
  reversals?: number
  /** Lines after the header that are not transactions (balances, turnovers, footers). */
  skipped_lines: number
  /**
   * Rows of amount 0 read as bookings (a card hold, a waived fee: zero-rows.ts), imported as 0.00:
   * how many, and the lines of the first 100. A 0 on a closing or balance line is skipped instead.
   */
  zero_amounts?: { rows: number; lines: number[] }
  /** A running balance in the file: the rows it was checked on (all of them, or the file is refused), of the rows read, and its column. */
  balance_checked?: { rows: number; of: number; column: string }
  /** The skipped lines the plan could not name (a balance found by the running sum), with why: the first 100. */
  skipped_after_plan?: Array<{ line: number; reason: string }>
  /** Sum of the valid rows of the file in `currency` (the account's), and of those this run created. */
  amount_total: string
  created_total: string
  /** Rows in other currencies than the account's (their own currency column, or --set currency_code): the same sums per currency. */
  other_currencies?: CurrencyTotal[]
  elapsed_ms: number
  /**
   * The first rejected rows (up to KEPT_REJECTS); when there were more, the rest are in the file
   * `rejects_spill` names, and `readRejects(rejects, rejects_spill)` yields them all.
   */
  rejects: RejectedRow[]
  /** Not printed: the spill file of the rejected rows after `rejects` (see reject-list.ts). Whoever prints the summary discards it. */
  rejects_spill?: string
  rejects_file: string | null
  notes: string[]
  /** Dry run: the first rows as they would be created. */
  preview?: ImportRequest[]
  /** --review: nothing was created; `pending` rows (summing `pending_total`) wait for `imports apply` until `expires_at`. */
  review?: { state: 'pending'; pending: number; pending_total: string; expires_at: string }
  /** --atomic refused or rolled back: nothing of this run was kept. */
  rolled_back?: boolean
}

export class Tally {
  readonly summary: ImportSummary
  private readonly totals: CurrencyTotals
  private readonly rejects: RejectList
  private readonly rejectsFile: RejectsWriter
  /** Rows refused before they were sent, in this pass (the service's rejects come back per batch). */
  private refusedHere = 0

  constructor(
    private readonly o: { path: string; accountId: string; dryRun?: boolean; rejectsPath?: string; overwrite?: boolean },
    private readonly plan: ImportPlan,
    currency: string,
    private readonly started: number,
    private readonly onProgress?: (p: ImportProgress) => void,
    spillDir?: string,
  ) {
    this.rejects = new RejectList(undefined, spillDir)
    const zero = formatMinor(0, currencyExponent(currency))
    this.totals = new CurrencyTotals(currency)
    // A header-less file's rejects get column names, so that the file says which column is which.
    const header = plan.headerless ? plan.header.map((_, i) => `column ${i + 1}`) : plan.header
    this.rejectsFile = new RejectsWriter(o.rejectsPath, header, plan.layout.delimiter, { input: o.path, overwrite: o.overwrite })
    this.summary = {
      file: o.path,
      bank_account_id: o.accountId,
      currency,
      dry_run: Boolean(o.dryRun),
      mode: 'none',
      read: 0,
      created: 0,
      already_imported: 0,
      on_statement: 0,
      rejected: 0,
      skipped_lines: plan.skipped.length,
      amount_total: zero,
      created_total: zero,
      elapsed_ms: 0,
      rejects: this.rejects.kept,
      rejects_file: null,
      notes: plan.notes,
      ...(plan.signs ? { reversals: 0 } : {}),
    }
  }

  /** A row the map stage made ready (counted in `read` and the sums); `reversal`: a value with its column's other sign. */
  mapped(row: ReadyRow, reversal: boolean): void {
    this.summary.read++
    this.totals.add(row.currency, row.minor, false)
    if (reversal) this.summary.reversals!++
  }

  /** A row refused before it was sent. */
  refused(fields: string[], line: number, reason: string): void {
    this.refusedHere++
    this.reject(fields, line, reason)
  }

  /** The service's answer to a batch of `rows`. */
  answered(rows: ReadyRow[], result: SendResult, mode: 'batch' | 'single'): void {
    const s = this.summary
    for (const i of result.created) this.totals.add(rows[i].currency, rows[i].minor, true)
    s.created += result.created.length
    s.already_imported += result.duplicates
    s.on_statement += result.matched
    for (const e of result.errors) this.reject(rows[e.index].fields, rows[e.index].line, e.reason)
    s.mode = mode
    this.progress()
  }

  /** A pass over the file has ended: the rows refused here count as read, the sums go into the summary. */
  endPass(): void {
    this.summary.read += this.refusedHere
    this.totals.into(this.summary)
  }

  /** Before the pass that sends, after an atomic import's checking pass found nothing wrong: counted again from 0. */
  restart(): void {
    this.summary.read = 0
    this.totals.clear()
    this.refusedHere = 0
    if (this.plan.signs) this.summary.reversals = 0
  }

  /** --atomic undid what it had created. */
  rolledBack(): void {
    this.summary.rolled_back = true
    this.summary.created = 0
    this.totals.clearCreated()
  }

  /**
   * Finish: the elapsed time, the rejected rows closed and the rejects file moved into place. A
   * rejects file that cannot be finished (a full disk) fails the import too, unless it failed already.
   */
  async close(failed: boolean): Promise<void> {
    const s = this.summary
    s.elapsed_ms = Date.now() - this.started
    this.rejects.close()
    const unwritten = await this.rejectsFile.close().then(
      () => undefined,
      (e: unknown) => e as Error,
    )
    // Failed: no summary will be printed (the rejected rows are in the rejects file, if asked for).
    if (failed || unwritten) discardRejects(this.rejects.spillPath)
    else if (this.rejects.spillPath) s.rejects_spill = this.rejects.spillPath
    if (unwritten && !failed) throw unwritten
    if (s.rejected > 0 && this.o.rejectsPath) s.rejects_file = this.o.rejectsPath
  }

  private reject(fields: string[], line: number, reason: string): void {
    this.summary.rejected++
    this.rejects.add({ line, reason })
    this.rejectsFile.write(fields, line, reason)
  }

  private progress(): void {
    const s = this.summary
    const done = s.created + s.already_imported + s.on_statement + s.rejected
    // The plan's row count may be an estimate (ImportPlan.settledEarly): never less than what is done.
    this.onProgress?.({
      done,
      total: Math.max(this.plan.dataRows, done),
      created: s.created,
      duplicates: s.already_imported,
      rejected: s.rejected,
      elapsedMs: Date.now() - this.started,
    })
  }
}
