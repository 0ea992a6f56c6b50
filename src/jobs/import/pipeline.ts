/**
 * `finctl tx import`'s stages, in the order a file's rows go through them: plan (src/import/plan.ts),
 * read rows (src/import/read-rows.ts), map (map.ts, by src/import/map-rows.ts), batch (batch.ts),
 * send (send.ts), summarize (summarize.ts). The service validates what is sent, exactly once.
 *
 * Exactly once: each row carries `import_ref` (its content plus its occurrence among identical rows
 * of the file), unique per account in the service. Re-running a file, resuming after a kill, or
 * importing an overlapping download creates only the rows the account does not have yet.
 */
import type { Client } from '../../client/client.js'
import { AppError } from '../../kernel/errors.js'
import type { CreateTransactionRequest } from '../../domain/schemas.js'
import type { TransactionDraft } from '../../import/draft.js'
import { RowMapper } from '../../import/map-rows.js'
import { planImport, type CsvMapping, type ImportPlan } from '../../import/plan.js'
import { currencyRefusal } from '../../import/file-currency.js'
import { balanceRefusal, checkBalance } from '../../import/balance-check.js'
import { columnName } from '../../import/column-evidence.js'
import { LIABILITY_ACCOUNT_TYPES } from '../../kernel/vocabulary.js'
import { accountRefusal } from '../../import/own-account.js'
import { readRecordChunks } from '../../import/read-rows.js'
import { batches, batchSize, REVIEW_BATCH_ROWS } from './batch.js'
import { finishImportBatch, openImportBatch } from './import-batch.js'
import { mapRows } from './map.js'
import { LongWait, longWaitStop, Pacer, Pool } from './pacing.js'
import { RateCheck } from './rate-check.js'
import { asReview, keepFile, ReviewSender } from './review-send.js'
import { describeError, type ImportRequest, type ReadyRow, rollBack, Sender, sendBatches } from './send.js'
import { Tally, type ImportProgress, type ImportSummary } from './summarize.js'

/** The mapper's drafts (src/import/draft.ts) name no field the service's create request lacks: checked when this compiles. */
const draftFieldsAreRequestFields: Exclude<keyof TransactionDraft, keyof CreateTransactionRequest> extends never ? true : false = true
void draftFieldsAreRequestFields

/** What to import and how: plain data, so that it can cross to the import's thread. */
export interface ImportOptions {
  path: string
  accountId: string
  /** How the file is read and mapped (the flags, or a saved mapping): the plan takes it whole. */
  mapping: CsvMapping
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
  /** Stage the rows on the batch, pending, for `imports apply` (review-send.ts). */
  review?: boolean
  /** How many rows a dry run shows. */
  previewRows?: number
}

export interface PipelineHooks {
  onPlan?: (plan: ImportPlan) => void
  onProgress?: (p: ImportProgress) => void
  /** The import's batch was opened on the service (so that a stopped import can mark it interrupted). */
  onBatch?: (id: string) => void
  /** The folder for the rejected rows' spill file, if one is needed (reject-list.ts). */
  spillDir?: string
  sleep?: (ms: number) => Promise<void>
}

export async function runPipeline(client: Client, o: ImportOptions, hooks: PipelineHooks = {}): Promise<ImportSummary> {
  const started = Date.now()
  const pacer = new Pacer(
    hooks.sleep ?? ((ms) => new Promise<void>((r) => setTimeout(r, ms))),
    o.wait ? Number.POSITIVE_INFINITY : undefined,
  )
  const account = await pacer.call(() => client.accounts.get(o.accountId))
  const currency = account.currency_code
  // Plan: settled from the start of the file, so that sending starts once its decisions are final.
  // A dry run plans the same way, so that it tells what the import will do.
  const liability = LIABILITY_ACCOUNT_TYPES.has(account.account_type)
  const plan = await planImport(o.path, liability ? { ...o.mapping, liability } : o.mapping, true)
  hooks.onPlan?.(plan)
  // A file in another currency than the account's is refused before anything is written (exit 6).
  const refusal = currencyRefusal(plan.currency, { name: account.name, currency }, o.constants?.currency_code)
  if (refusal) throw new AppError('validation_error', refusal)
  // So is a file of several accounts' rows, or of another account's (own-account.ts).
  if (plan.accounts) {
    const all = (await pacer.call(() => client.accounts.list())).data
    const info = (a: { name: string; account_number_last4: string | null }) => ({ name: a.name, last4: a.account_number_last4 })
    const wrong = accountRefusal(plan.accounts, info(account), all.filter((a) => a.id !== account.id).map(info), plan.accountChoice)
    if (wrong) throw new AppError('validation_error', wrong)
  }
  // A running balance in the file is checked on every row before anything is written (balance-check.ts).
  const balance = await checkBalance(readRecordChunks(o.path, plan.layout), plan, {
    accountId: o.accountId,
    currency,
    constants: o.constants,
  })
  const broken = balanceRefusal(plan, balance)
  if (broken) throw new AppError('validation_error', broken)
  const tally = new Tally(o, plan, currency, started, hooks.onProgress, hooks.spillDir)
  if (balance && plan.balance?.check)
    tally.summary.balance_checked = { rows: balance.balanced, of: balance.rows, column: columnName(plan.header, plan.balance.column) }
  if (!o.dryRun) {
    tally.summary.batch_id = await pacer.call(() => openImportBatch(client, o, plan))
    hooks.onBatch?.(tally.summary.batch_id)
    if (o.review) await keepFile(client, pacer, tally.summary.batch_id, o.path)
  }
  // Read rows and map them, once a pass: a row's occurrence number and the running balance start again with it.
  const pass = (check?: RateCheck) =>
    mapRows(
      readRecordChunks(o.path, plan.layout),
      plan,
      new RowMapper(plan, { accountId: o.accountId, currency, constants: o.constants }),
      tally,
      check,
      account,
    )
  let failed = false
  try {
    if (o.dryRun || o.atomic) {
      // Dry run, or the first pass of an atomic import: every row checked, nothing sent.
      const preview: ImportRequest[] = []
      for await (const rows of pass(await RateCheck.open(client)))
        for (const row of rows) if (preview.length < (o.previewRows ?? 10)) preview.push(row.request)
      tally.endPass()
      if (o.dryRun) {
        tally.summary.preview = preview
        return tally.summary
      }
      if (tally.summary.rejected > 0) {
        tally.summary.rolled_back = true
        return tally.summary
      }
      tally.restart()
    }
    const created: string[] = []
    const creator = new Sender(client, o, pacer, plan.dataRows, (ids) => {
      if (o.atomic) created.push(...ids)
    })
    creator.importBatch = tally.summary.batch_id
    // --review stages the rows on the batch instead (review-send.ts).
    const sender =
      o.review && tally.summary.batch_id
        ? new ReviewSender(client, pacer, tally.summary.batch_id)
        : {
            send: (rows: ReadyRow[], last: boolean) =>
              creator.send(
                rows.map((r) => r.request),
                last,
              ),
            get mode() {
              return creator.mode
            },
          }
    const pool = new Pool(Math.max(1, o.concurrency ?? 4))
    try {
      await sendBatches(
        batches(pass(), batchSize(o.batchSize ?? (o.review ? REVIEW_BATCH_ROWS : undefined))),
        sender,
        pool,
        (rows, result) => tally.answered(rows, result, sender.mode),
      )
    } catch (e) {
      // The requests in flight answer first, so that the counts are final and no rejected row of
      // theirs is written after the rejects are closed (a spill file would be left behind).
      await pool.drain().catch(() => {})
      if (!o.atomic) throw e
      await rollBack(client, created)
      throw new AppError(
        e instanceof AppError ? e.code : 'internal_error',
        `${describeError(e)}; --atomic: ${created.length === 1 ? 'the row this run had created was' : `the ${created.length} rows this run had created were`} deleted again`,
      )
    }
    if (o.atomic && tally.summary.rejected > 0) {
      await rollBack(client, created)
      tally.rolledBack()
    }
    tally.endPass()
    return tally.summary
  } catch (e) {
    failed = true
    throw e instanceof LongWait ? longWaitStop(e, tally.summary) : e
  } finally {
    const batch = tally.summary.batch_id
    // A failed import's batch is marked so, as far as the service can still be reached.
    if (batch)
      await finishImportBatch(client, batch, tally.summary, failed, o.review).catch((e: unknown) => {
        if (!failed) throw e
      })
    if (batch && o.review && !failed) asReview(tally.summary, (await client.imports.pending(batch, { limit: 1 })).data.expires_at)
    await tally.close(failed)
  }
}
