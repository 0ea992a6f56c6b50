/**
 * Labels and training examples of the categorization model. A label is a category with its
 * accounting and cash-flow categories; a transaction is a training example when it has a category
 * that nobody guessed (a person, a rule or the import file set it: `ai_confidence_score` is null).
 */
import type { TransactionRow } from '../../store/transaction-codec.js'
import { currencyExponent } from '../../kernel/currencies.js'
import type { Features } from './features.js'
import type { Example } from './model.js'

const SEP = '\u001f'

export interface CategoryTriple {
  category: string
  accounting_category: string | null
  cash_flow_category: string | null
}

export function encodeLabel(t: CategoryTriple): string {
  return [t.category, t.accounting_category ?? '', t.cash_flow_category ?? ''].join(SEP)
}

export function decodeLabel(label: string): CategoryTriple {
  const [category, ac, cfc] = label.split(SEP)
  return { category, accounting_category: ac || null, cash_flow_category: cfc || null }
}

export type LabelledFields = Pick<
  TransactionRow,
  | 'description'
  | 'merchant_name'
  | 'amount'
  | 'currency_code'
  | 'category'
  | 'accounting_category'
  | 'cash_flow_category'
  | 'ai_confidence_score'
>

export function featuresOf(r: Pick<TransactionRow, 'description' | 'merchant_name' | 'amount' | 'currency_code'>): Features {
  return {
    description: r.description,
    merchant_name: r.merchant_name,
    amount_minor: Number(r.amount),
    currency_exponent: currencyExponent(r.currency_code),
  }
}

/** Features reused row after row, with the currency their exponent was read for. */
export interface ReusedFeatures extends Features {
  currency: string
}

/** `featuresOf` written into `out` (an import's rows allocate none); the exponent read again only when the currency changes. */
export function featuresInto(
  r: Pick<TransactionRow, 'description' | 'amount' | 'currency_code'> & { merchant_name?: string | null },
  out: ReusedFeatures,
): ReusedFeatures {
  out.description = r.description
  out.merchant_name = r.merchant_name ?? null
  out.amount_minor = Number(r.amount)
  if (r.currency_code !== out.currency) {
    out.currency_exponent = currencyExponent(r.currency_code)
    out.currency = r.currency_code
  }
  return out
}

/** The training example a row is, or null. */
export function exampleOf(r: LabelledFields): Example | null {
  if (r.category === null || r.category === undefined || (r.ai_confidence_score !== null && r.ai_confidence_score !== undefined))
    return null
  return {
    ...featuresOf(r),
    label: encodeLabel({
      category: r.category,
      accounting_category: r.accounting_category ?? null,
      cash_flow_category: r.cash_flow_category ?? null,
    }),
  }
}
