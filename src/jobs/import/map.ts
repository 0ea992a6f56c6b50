/**
 * The import's map stage on this side: each record through the plan's RowMapper (src/import/map-rows.ts)
 * into a row ready to send; refused rows and skipped lines go to the tally. With a check (the dry run,
 * and the checking pass of --atomic, which send nothing and must find every problem), each row also
 * goes through the service's own request schema and, in another currency without a rate, the
 * company's exchange rates. The pass that sends leaves that to the service, which validates every row
 * of a batch anyway and answers the invalid ones by position: one validation a row, not two.
 */
import { beforeOpening, opened } from '../../domain/accounts/opening-date.js'
import { type BankAccount, CreateTransactionRequest } from '../../domain/schemas.js'
import type { RowMapper } from '../../import/map-rows.js'
import type { ImportPlan } from '../../import/plan.js'
import type { CsvRecord } from '../../import/read-rows.js'
import type { RateCheck } from './rate-check.js'
import { describeError, type ImportRequest, inImportWords, type ReadyRow } from './send.js'
import type { Tally } from './summarize.js'

/** Skipped lines past those the plan named that the summary lists one by one. */
const NAMED_SKIPS = 100

/** The rows of one pass over the file, a chunk at a time (never an empty one). */
export async function* mapRows(
  chunks: AsyncIterable<CsvRecord[]>,
  plan: ImportPlan,
  mapper: RowMapper,
  tally: Tally,
  check?: RateCheck,
  /** The account, whose opening date a check knows. */
  account?: Pick<BankAccount, 'id' | 'name' | 'opening_balance_date'>,
): AsyncGenerator<ReadyRow[]> {
  const { summary } = tally
  const planned = new Set(plan.skipped.map((s) => s.line))
  let named = 0
  summary.skipped_after_plan = undefined
  summary.zero_amounts = undefined
  for await (const records of chunks) {
    const ready: ReadyRow[] = []
    for (const rec of records) {
      const r = mapper.map(rec)
      summary.skipped_lines = mapper.skippedCount
      if (mapper.zeroRows) summary.zero_amounts = { rows: mapper.zeroRows, lines: mapper.zeroLines }
      if (!r) {
        // A line skipped by the running sum, which the plan could not name: listed (the first ones).
        if (mapper.skipped.length > named && mapper.skipped.length <= NAMED_SKIPS + plan.skipped.length) {
          const s = mapper.skipped[mapper.skipped.length - 1]
          named = mapper.skipped.length
          if (!planned.has(s.line)) {
            summary.skipped_after_plan ??= []
            summary.skipped_after_plan.push(s)
          }
        }
        continue
      }
      if (!r.ok) {
        tally.refused(r.fields, r.line, r.reason)
        continue
      }
      const request = r.request as ImportRequest
      // A row in another currency than the base and without --set exchange_rate is converted by
      // the service with the company's rates of its date (finctl rates), or refused by it naming them.
      const currency = request.currency_code ?? tally.summary.currency
      if (check) {
        const refusal = await checkRow(request, currency, check, account)
        if (refusal) {
          tally.refused(rec.fields, r.line, refusal)
          continue
        }
      }
      const row: ReadyRow = { request, minor: r.minor, currency, line: r.line, fields: rec.fields }
      tally.mapped(row, r.reversal === true)
      ready.push(row)
    }
    if (ready.length) yield ready
  }
  mapper.close()
}

/** Why the service would refuse the row, in the command's words, or undefined. */
async function checkRow(
  request: ImportRequest,
  currency: string,
  rates: RateCheck,
  account?: Pick<BankAccount, 'id' | 'name' | 'opening_balance_date'>,
): Promise<string | undefined> {
  const parsed = CreateTransactionRequest.safeParse(request)
  if (!parsed.success) return inImportWords(parsed.error.issues.map((i) => `${i.path.join('.') || 'row'}: ${i.message}`).join('; '))
  if (account && !opened(account.opening_balance_date, request.transaction_date))
    return describeError(beforeOpening(account, request.transaction_date))
  if (request.exchange_rate !== undefined || currency === rates.base) return undefined
  const missing = await rates.missing(currency, request.transaction_date)
  return missing ? describeError(missing) : undefined
}
