/**
 * How well a document's fields fit a transaction (docs/documents.md, "Matching"), a pure rule: the
 * amount (the same in the same currency, either sign: a bill paid or a refund) weighs most, then
 * the date's distance, then the merchant's words found in the transaction's description or
 * merchant. A document is linked by itself only to a transaction whose amount is the same, scored
 * AUTO_LINK_SCORE or more, with no other candidate within AUTO_LINK_MARGIN of it.
 */
import { formatMinor } from '../../kernel/money.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { dayDiff, similarity } from '../reconcile.js'
import type { DocumentFields } from './read-fields.js'

export const WEIGHTS = { amount: 0.6, date: 0.25, merchant: 0.15 } as const
/** The score from which one candidate alone is linked by itself. */
export const AUTO_LINK_SCORE = 0.8
/** How far ahead of the next candidate the best one must be to be linked by itself. */
export const AUTO_LINK_MARGIN = 0.1
/** Days a transaction may be before the document's date (a card paid before the receipt was printed) ... */
export const DAYS_BEFORE = 7
/** ... and after it (an invoice paid on its terms). */
export const DAYS_AFTER = 45
/** Full points for the date within this many days after it (a card payment posted late) ... */
const SAME_DAYS = 2
/** ... then half as many every this many days: a receipt is paid the day it is printed, an invoice within weeks. */
const HALF_LIFE_DAYS = 5
/** A transaction that has a document already is a weaker candidate by this much. */
const HAS_DOCUMENT = 0.2
/** Candidates shown per document. */
export const MAX_CANDIDATES = 5

export interface MatchableTransaction {
  id: string
  transaction_date: string
  amount_minor: number
  currency_code: string
  description: string
  merchant_name: string | null
  /** Documents linked to it already. */
  documents: number
}

export interface Scored {
  transaction_id: string
  score: number
  /** Whether the amount is the same in the same currency (only such a candidate is ever linked by itself). */
  amount_matches: boolean
  why: string[]
  /** The merchant's words found in the transaction (0..1): with the amount, what makes a candidate (the date alone does not). */
  merchant_share: number
}

const round2 = (n: number) => Math.round(n * 100) / 100
const money = (minor: number, currency: string) => `${formatMinor(minor, currencyExponent(currency))} ${currency}`

/** The share of the date's points for a transaction `days` away, before the document's date or after it. */
export function dateShare(days: number, before: boolean): number {
  if (before) return days > DAYS_BEFORE ? 0 : days <= 1 ? 1 : 0.5 ** (days / 2)
  if (days > DAYS_AFTER) return 0
  return days <= SAME_DAYS ? 1 : 0.5 ** ((days - SAME_DAYS) / HALF_LIFE_DAYS)
}

export function score(doc: DocumentFields, tx: MatchableTransaction): Scored {
  const why: string[] = []
  let points = 0
  let amountMatches = false
  let words = 0
  if (doc.amount_minor !== null && doc.currency !== null) {
    const docAmount = Math.abs(doc.amount_minor)
    if (doc.currency !== tx.currency_code) why.push(`amount in ${doc.currency}, the transaction in ${tx.currency_code}`)
    else if (Math.abs(tx.amount_minor) === docAmount) {
      amountMatches = true
      points += WEIGHTS.amount
      why.push(`amount ${money(docAmount, doc.currency)} the same`)
    } else why.push(`amount ${money(docAmount, doc.currency)}, the transaction ${money(Math.abs(tx.amount_minor), tx.currency_code)}`)
  }
  if (doc.date !== null) {
    const days = dayDiff(doc.date, tx.transaction_date)
    points += WEIGHTS.date * dateShare(days, tx.transaction_date < doc.date)
    why.push(
      days === 0 ? 'same date' : `${days} day${days === 1 ? '' : 's'} ${tx.transaction_date > doc.date ? 'after' : 'before'} the document`,
    )
  }
  if (doc.merchant !== null) {
    words = similarity(doc.merchant, `${tx.description} ${tx.merchant_name ?? ''}`)
    points += WEIGHTS.merchant * words
    if (words > 0) why.push(`merchant "${doc.merchant}" ${words === 1 ? 'named' : 'partly named'} in the transaction`)
  }
  if (tx.documents > 0) {
    points -= HAS_DOCUMENT
    why.push(`has ${tx.documents === 1 ? 'a document' : `${tx.documents} documents`} already`)
  }
  return { transaction_id: tx.id, score: round2(Math.max(0, points)), amount_matches: amountMatches, why, merchant_share: words }
}

/** Candidates best first (score, then the nearer date, then id): those of the amount or of the merchant, scoring something. */
export function rank(doc: DocumentFields, txs: readonly MatchableTransaction[]): Scored[] {
  const date = new Map(txs.map((t) => [t.id, doc.date ? dayDiff(doc.date, t.transaction_date) : 0]))
  return txs
    .map((t) => score(doc, t))
    .filter((s) => s.score > 0 && (s.amount_matches || s.merchant_share > 0))
    .sort(
      (a, b) =>
        b.score - a.score || date.get(a.transaction_id)! - date.get(b.transaction_id)! || (a.transaction_id < b.transaction_id ? -1 : 1),
    )
}

/** The one transaction to link by itself, or null (none sure enough, or two too close to tell). */
export function autoLinkOf(ranked: readonly Scored[]): string | null {
  const [best, next] = ranked
  if (!best?.amount_matches || best.score < AUTO_LINK_SCORE) return null
  // Scores are rounded to hundredths: a margin of exactly AUTO_LINK_MARGIN is enough.
  if (next && best.score - next.score < AUTO_LINK_MARGIN - 1e-9) return null
  return best.transaction_id
}
