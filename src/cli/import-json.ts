/**
 * `tx import --json`: the summary as the runner keeps it, its amounts (exact decimal text, which the
 * human summary shows) turned into JSON numbers, as every amount of the API is.
 */
import type { ImportSummary } from '../jobs/import/summarize.js'
import { jsonAmountOf } from './money.js'

export function importSummaryJson(s: Omit<ImportSummary, 'rejects_spill'>): object {
  const cur = s.currency
  return {
    ...s,
    amount_total: jsonAmountOf(s.amount_total, cur),
    created_total: jsonAmountOf(s.created_total, cur),
    ...(s.other_currencies
      ? {
          other_currencies: s.other_currencies.map((o) => ({
            ...o,
            amount_total: jsonAmountOf(o.amount_total, o.currency),
            created_total: jsonAmountOf(o.created_total, o.currency),
            ...(o.pending_total === undefined ? {} : { pending_total: jsonAmountOf(o.pending_total, o.currency) }),
          })),
        }
      : {}),
    ...(s.review ? { review: { ...s.review, pending_total: jsonAmountOf(s.review.pending_total, cur) } } : {}),
    ...(s.preview ? { preview: s.preview.map((r) => ({ ...r, amount: jsonAmountOf(String(r.amount), r.currency_code ?? cur) })) } : {}),
  }
}
