/**
 * `transactions` steps: rows given or generated, sent in batches of 1,000 with the import_ref
 * `seed.<step>.<n>`; a row the account holds already (same import_ref) is compared and patched.
 * Each run of a step is an import batch of kind `seed` (X-Import-Batch, as tx import sends), so
 * `imports list` shows it and `imports revert` takes its rows back.
 */
import { basename } from 'node:path'
import type { CreateTransactionRequest, Transaction } from '../../../domain/schemas.js'
import { currencyExponent } from '../../../kernel/currencies.js'
import { AppError, errorText } from '../../../kernel/errors.js'
import { generateRows } from '../generate.js'
import { PLACEHOLDER_ID, diffTransaction, seedRef } from '../plan.js'
import type { StepOutcome, StepStatus } from '../report.js'
import type { Step, TransactionItem } from '../schema.js'
import { takeMatches, type SeedState, type StepHandler } from './handler.js'
import { count } from '../../../kernel/words.js'

const BATCH = 1000

export const transactions: StepHandler<'transactions'> = {
  async run(step, state) {
    const spec = state.spec(step)
    const base = { step: step.name, kind: step.kind }
    const isNew = spec.bank_account_id === PLACEHOLDER_ID
    const currency = isNew
      ? (step.currency ?? state.world.company.base_currency)
      : (await state.accountById(spec.bank_account_id)).currency_code
    let rows: TransactionItem[]
    try {
      rows =
        spec.items ??
        generateRows(spec.generate!, currencyExponent(currency)).map(
          (r) => ({ ...r, exchange_rate: spec.generate!.exchange_rate }) as TransactionItem,
        )
    } catch (e) {
      return { ...base, status: state.failed, detail: (e as Error).message }
    }
    const n = rows.length
    if (state.dryRun) return plan(state, step, rows, spec.bank_account_id, currency, isNew)

    const requests: CreateTransactionRequest[] = rows.map((r, i) => ({
      ...r,
      bank_account_id: spec.bank_account_id,
      import_ref: seedRef(step.name, i + 1),
    }))
    const ids: Array<string | undefined> = new Array(n)
    const existing = new Map<string, number>()
    const errors: string[] = []
    let created = 0
    let rejected = 0
    const batch = await state.client.imports.create({
      kind: 'seed',
      bank_account_id: spec.bank_account_id,
      file_name: `${basename(state.file)}: ${step.name}`,
      options: { seed_file: basename(state.file), step: step.name, rows: n },
    })
    let ended = false
    try {
      for (let start = 0; start < n; start += BATCH) {
        const chunk = requests.slice(start, start + BATCH)
        const res = await state.client.transactions.batch(chunk, { importBatch: batch.id })
        rejected += res.errors.length
        const dup = new Map(res.duplicates.map((d) => [d.index, d.id]))
        const bad = new Map(res.errors.map((e) => [e.index, e]))
        let next = 0
        chunk.forEach((_, i) => {
          const at = start + i
          if (dup.has(i)) {
            ids[at] = dup.get(i)
            existing.set(dup.get(i)!, at)
          } else if (bad.has(i)) {
            const e = bad.get(i)!
            errors.push(`row ${at + 1}: ${errorText(new AppError('validation_error', e.message, { details: e.details }))}`)
          } else {
            ids[at] = res.created[next++]?.id
            created++
          }
        })
      }
      ended = true
    } finally {
      // A step stopped by an error keeps what it created, as an interrupted import does.
      const finishing = state.client.imports.finish(batch.id, { state: ended ? 'completed' : 'interrupted', read: n, rejected })
      // After a failed send, the send's error is the one to report, not the finish's.
      await (ended ? finishing : finishing.catch(() => undefined))
    }
    let updated = 0
    let patchFailed = 0
    if (existing.size) {
      for await (const t of accountTransactions(state, spec.bank_account_id, new Set(existing.keys()))) {
        const at = existing.get(t.id)!
        const patch = diffTransaction(t, rows[at], currency)
        if (!Object.keys(patch).length) continue
        try {
          await state.client.transactions.update(t.id, patch)
          updated++
        } catch (e) {
          errors.push(`row ${at + 1} (${t.id}): ${errorText(e)}`)
          patchFailed++
        }
      }
    }
    const counts = { created, updated, exists: existing.size - updated - patchFailed, failed: errors.length }
    const status: StepStatus = counts.failed ? 'failed' : created ? 'created' : updated ? 'updated' : 'exists'
    const kept = ids.filter((x): x is string => Boolean(x))
    state.setResult(step, { count: String(n), ids: kept.join(',') })
    state.env(step, 'ids', kept.join(','))
    const detail = `${count(n, 'transaction')}: ${counts.created} created, ${counts.updated} updated, ${counts.exists} unchanged${counts.failed ? `, ${counts.failed} failed` : ''}`
    return { ...base, status, detail, counts, ...(errors.length ? { errors } : {}) }
  },
}

/** The account's transactions among `ids`, page by page, until all are found. */
async function* accountTransactions(state: SeedState, account: string, ids: Set<string>): AsyncGenerator<Transaction> {
  let left = ids.size
  for await (const page of state.client.transactions.pages({
    bank_account_id: account,
    limit: 1000,
    sort: 'created_at',
  })) {
    for (const t of page.data) {
      if (!ids.has(t.id)) continue
      yield t
      if (--left === 0) return
    }
  }
}

/**
 * Dry run: import_ref cannot be read back, so rows are matched with the account's transactions by
 * their content (date, amount, description). An unmatched row is new, or a changed one that the
 * real run updates.
 */
async function plan(
  state: SeedState,
  step: Step<'transactions'>,
  rows: TransactionItem[],
  account: string,
  currency: string,
  isNew: boolean,
): Promise<StepOutcome> {
  const base = { step: step.name, kind: step.kind }
  state.setResult(step, { count: String(rows.length), ids: undefined })
  if (isNew)
    return {
      ...base,
      status: 'would create',
      detail: count(rows.length, 'transaction'),
      counts: { created: rows.length, updated: 0, exists: 0, failed: 0 },
    }
  const have = await state.contentIndex(account)
  const same = takeMatches(have, rows, currency)
  const other = rows.length - same
  return {
    ...base,
    status: other ? 'would create or update' : 'exists',
    detail: `${count(rows.length, 'transaction')}: ${same} found by date, amount and description${other ? `, ${other} new or changed` : ''}`,
  }
}
