/**
 * `finctl tx import`, the writing side: pass 1 plans the file (csv-import.ts), pass 2 streams it
 * again, converts every row and sends the rows it could read to the service, which validates them (the
 * dry run validates here, with the same schema: validRows), exactly once.
 *
 * Exactly once: each row carries `import_ref` (its content plus its occurrence among identical rows
 * of the file), unique per account in the service. Re-running a file, resuming after a kill, or
 * importing an overlapping download creates only the rows the account does not have yet.
 *
 * Transport: batches of up to `batchSize` through POST /transactions/batch, several in flight.
 * Against a service without the batch route (the service as specified), concurrent single creates,
 * each with an Idempotency-Key derived from the row's identity. A 429 never fails a row: every
 * worker waits out Retry-After and the row is sent again.
 */
import type { Client } from '../../client/client.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { AppError } from '../../kernel/errors.js'
import { formatMinor } from '../../kernel/money.js'
import { CreateTransactionRequest } from '../../domain/schemas.js'
import type { TransactionDraft } from '../../import/draft.js'
import { planImport, type ImportOptions, type ImportPlan } from '../../import/csv-import.js'
import { RowConverter } from '../../import/row-converter.js'
import { readRecordChunks } from '../../import/csv-reader.js'
import { RejectsWriter } from './rejects-file.js'
import { CurrencyTotals, type CurrencyTotal } from './currency-totals.js'
import { discardRejects, RejectList, type RejectedRow } from './reject-list.js'
import { LongWait, longWaitStop, Pacer, Pool } from './pacing.js'
import { RateCheck } from './rate-check.js'
import { describeError, type ImportRequest, inImportWords, Sender } from './sender.js'

export type { RejectedRow, CurrencyTotal, ImportRequest }

/** The mapper's drafts (src/import/draft.ts) name no field the service's create request lacks: checked when this compiles. */
const draftFieldsAreRequestFields: Exclude<keyof TransactionDraft, keyof CreateTransactionRequest> extends never ? true : false = true
void draftFieldsAreRequestFields

export interface ImportRunOptions extends ImportOptions {
  accountId: string
  /** Values set on every row (`--set currency_code=EUR`, `--set tags=a,b`). */
  constants?: Partial<CreateTransactionRequest>
  dryRun?: boolean
  atomic?: boolean
  rejectsPath?: string
  /** --overwrite: the rejects file may replace an existing file. */
  overwrite?: boolean
  /** --wait: wait out a 429 however long (else over a minute stops the import, exit 7). */
  wait?: boolean
  /** Requests in flight at once (batches, or single creates). */
  concurrency?: number
  batchSize?: number
  /** 'auto' uses batches when the service has them. */
  mode?: 'auto' | 'batch' | 'single'
  /** How many rows a dry run shows. */
  previewRows?: number
  onPlan?: (plan: ImportPlan) => void
  onProgress?: (p: ImportProgress) => void
  sleep?: (ms: number) => Promise<void>
}

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
  /** --atomic refused or rolled back: nothing of this run was kept. */
  rolled_back?: boolean
}

const DEFAULT_BATCH = 1000

export async function runImport(client: Client, path: string, o: ImportRunOptions): Promise<ImportSummary> {
  const started = Date.now()
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const pacer = new Pacer(sleep, o.wait ? Number.POSITIVE_INFINITY : undefined)
  const account = await pacer.call(() => client.accounts.get(o.accountId))
  const currency = account.currency_code
  const exponent = currencyExponent(currency)
  // Sending starts once the plan's decisions are final rather than after a whole first pass (at
  // 1,000,000 rows that pass took 2.6 s, with the service idle). A dry run plans the same way, so
  // that it tells what the import will do: a late row whose date fits the format no more is rejected.
  const plan = await planImport(path, o, true)
  o.onPlan?.(plan)
  // One converter a pass over the file: a row's occurrence number and the running balance start again with it.
  const newConverter = () => new RowConverter(plan, { ...o, accountId: o.accountId, currency, constants: o.constants })
  const rejectsFile = new RejectsWriter(o.rejectsPath, plan.header, plan.layout.delimiter, { input: path, overwrite: o.overwrite })
  const rejects = new RejectList()
  const summary: ImportSummary = {
    file: path,
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
    amount_total: formatMinor(0, exponent),
    created_total: formatMinor(0, exponent),
    elapsed_ms: 0,
    rejects: rejects.kept,
    rejects_file: null,
    notes: plan.notes,
    ...(plan.signs ? { reversals: 0 } : {}),
  }
  const totals = new CurrencyTotals(currency)
  let localRejects = 0
  const reject = (fields: string[], line: number, reason: string) => {
    summary.rejected++
    rejects.add({ line, reason })
    rejectsFile.write(fields, line, reason)
  }
  /** A row rejected here, before it is sent (the service's rejects come back per batch). */
  const rejectLocal = (fields: string[], line: number, reason: string) => {
    localRejects++
    reject(fields, line, reason)
  }
  const progress = () => {
    const done = summary.created + summary.already_imported + summary.on_statement + summary.rejected
    // The plan's row count may be an estimate (ImportPlan.settledEarly): never less than what is done.
    o.onProgress?.({
      done,
      total: Math.max(plan.dataRows, done),
      created: summary.created,
      duplicates: summary.already_imported,
      rejected: summary.rejected,
      elapsedMs: Date.now() - started,
    })
  }

  type ValidRow = { request: ImportRequest; minor: number; currency: string; line: number; fields: string[] }
  const planned = new Set(plan.skipped.map((s) => s.line))
  /**
   * Rows of the file, converted; `check` runs the service's own request schema on each here too (the
   * dry run and the first pass of --atomic, which send nothing and must find every problem). The pass
   * that sends leaves that to the service, which validates every row of a batch anyway and answers the
   * invalid ones by position (rejects with their line, as before): one validation a row, not two.
   * With `rates`, rows in another currency without a rate are checked against the company's rates too.
   */
  async function* validRows(check: boolean, rates?: RateCheck): AsyncGenerator<ValidRow[]> {
    const converter = newConverter()
    let named = 0
    summary.skipped_after_plan = undefined
    for await (const records of readRecordChunks(path, plan.layout)) {
      const valid: ValidRow[] = []
      for (const rec of records) {
        const r = converter.convert(rec)
        summary.skipped_lines = converter.skippedCount
        if (!r) {
          if (converter.skipped.length > named && converter.skipped.length <= 100 + plan.skipped.length) {
            const s = converter.skipped[converter.skipped.length - 1]
            named = converter.skipped.length
            if (!planned.has(s.line)) {
              summary.skipped_after_plan ??= []
              summary.skipped_after_plan.push(s)
            }
          }
          continue
        }
        if (!r.ok) {
          rejectLocal(r.fields, r.line, r.reason)
          continue
        }
        // A row in another currency than the base and without --set exchange_rate is converted by
        // the service with the company's rates of its date (finctl rates), or rejected by it naming them.
        const request = r.request as ImportRequest
        const parsed = check ? CreateTransactionRequest.safeParse(request) : undefined
        if (parsed && !parsed.success) {
          rejectLocal(
            rec.fields,
            r.line,
            inImportWords(parsed.error.issues.map((i) => `${i.path.join('.') || 'row'}: ${i.message}`).join('; ')),
          )
          continue
        }
        const rowCurrency = request.currency_code ?? currency
        if (rates && request.exchange_rate === undefined && rowCurrency !== rates.base) {
          const missing = await rates.missing(rowCurrency, request.transaction_date)
          if (missing) {
            rejectLocal(rec.fields, r.line, describeError(missing))
            continue
          }
        }
        if (r.reversal) summary.reversals!++
        valid.push({ request, minor: r.minor, currency: rowCurrency, line: r.line, fields: rec.fields })
      }
      if (valid.length) yield valid
    }
    converter.close()
  }

  let failed = false
  try {
    if (o.dryRun || o.atomic) {
      // Dry run, or the first pass of an atomic import: every row checked, nothing sent. Rows in
      // another currency are checked against the company's rates too, as the service will.
      const preview: ImportRequest[] = []
      for await (const rows of validRows(true, await RateCheck.open(client))) {
        for (const row of rows) {
          summary.read++
          totals.add(row.currency, row.minor, false)
          if (preview.length < (o.previewRows ?? 10)) preview.push(row.request)
        }
      }
      summary.read += localRejects
      totals.into(summary)
      if (o.dryRun) {
        summary.preview = preview
        return summary
      }
      if (summary.rejected > 0) {
        summary.rolled_back = true
        return summary
      }
      // Pass 3 sends.
      summary.read = 0
      totals.clear()
      localRejects = 0
      if (plan.signs) summary.reversals = 0
    }
    const created: string[] = []
    const sender = new Sender(client, o, pacer, plan.dataRows, (ids) => {
      if (o.atomic) created.push(...ids)
    })
    const pool = new Pool(Math.max(1, o.concurrency ?? 4))
    const batchSize = Math.min(Math.max(1, o.batchSize ?? DEFAULT_BATCH), 5000)
    let batch: ValidRow[] = []
    // The newest full batch waits until the file says whether another follows: the last one goes alone,
    // once every other is answered, and says so (`Prefer: bulk-load-end`): the service then finishes
    // what it prepared for the load (SQLite: the indexes it set aside) before it answers, and the import
    // ends with it.
    let held: ValidRow[] = []
    const flush = async (last = false) => {
      if (batch.length) {
        await send(held)
        held = batch
        batch = []
      }
      if (!last) return
      await pool.drain()
      await send(held, true)
      held = []
    }
    const send = async (rows: ValidRow[], last = false) => {
      if (rows.length === 0) return
      await pool.add(async () => {
        const result = await sender.send(
          rows.map((r) => r.request),
          last,
        )
        for (const i of result.created) totals.add(rows[i].currency, rows[i].minor, true)
        summary.created += result.created.length
        summary.already_imported += result.duplicates
        summary.on_statement += result.matched
        for (const e of result.errors) reject(rows[e.index].fields, rows[e.index].line, e.reason)
        summary.mode = sender.mode
        progress()
      })
    }
    try {
      for await (const rows of validRows(false)) {
        for (const row of rows) {
          summary.read++
          totals.add(row.currency, row.minor, false)
          batch.push(row)
          if (batch.length >= batchSize) await flush()
        }
      }
      await flush(true)
      await pool.drain()
    } catch (e) {
      // Stopped for a long wait: the requests in flight answer first, so that the counts are final.
      if (e instanceof LongWait) await pool.drain().catch(() => {})
      if (!o.atomic) throw e
      await pool.drain().catch(() => {})
      await rollBack(client, created)
      throw new AppError(
        e instanceof AppError ? e.code : 'internal_error',
        `${describeError(e)}; --atomic: the ${created.length} rows this run had created were deleted again`,
      )
    }
    if (o.atomic && summary.rejected > 0) {
      await rollBack(client, created)
      summary.rolled_back = true
      summary.created = 0
      totals.clearCreated()
    }
    summary.read += localRejects
    totals.into(summary)
    return summary
  } catch (e) {
    failed = true
    throw e instanceof LongWait ? longWaitStop(e, summary) : e
  } finally {
    summary.elapsed_ms = Date.now() - started
    rejects.close()
    // A rejects file that cannot be finished (a full disk) fails the import too, unless it failed already.
    const unwritten = await rejectsFile.close().then(
      () => undefined,
      (e: unknown) => e as Error,
    )
    // Failed: no summary will be printed (the rejected rows are in the rejects file, if asked for).
    if (failed || unwritten) discardRejects(rejects.spillPath)
    else if (rejects.spillPath) summary.rejects_spill = rejects.spillPath
    // biome-ignore lint/correctness/noUnsafeFinally: only when the run itself succeeded, so no error is lost
    if (unwritten && !failed) throw unwritten
    if (summary.rejected > 0 && o.rejectsPath) summary.rejects_file = o.rejectsPath
  }
}

async function rollBack(client: Client, ids: string[]): Promise<void> {
  const pool = new Pool(8)
  for (const id of ids) await pool.add(() => client.transactions.delete(id).then(() => undefined))
  await pool.drain()
}
