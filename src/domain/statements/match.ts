/**
 * Pure rules of statement import: each line's identity (for duplicates) and which existing
 * transaction a line reconciles.
 *
 * - Identity: the bank's id of the line when it has one (`id:<id>`), else its date, amount,
 *   description and CSV reference (`c:<digest>`); a second line of the same file with the same
 *   identity is numbered (`#2`), so two equal coffees on one day stay two transactions, while the
 *   same lines in a later, overlapping statement are known again.
 * - Reconciliation: a line matches a transaction of the account that has no statement, is not
 *   void, has the same amount in the account's currency (accounts/balances.ts: amountInAccount)
 *   and a transaction_date at most 3 days away. Each line takes at most
 *   one transaction and each transaction at most one line; pairs are taken best first: the most
 *   words of their descriptions in common, then the nearest date, then file and creation order.
 */
import { createHash } from 'node:crypto'
import type { StatementLine } from './parse.js'

export const MATCH_WINDOW_DAYS = 3

const normal = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim()

export function lineRefs(lines: StatementLine[]): string[] {
  const seen = new Map<string, number>()
  return lines.map((l) => {
    let base: string
    if (l.externalId) {
      base =
        l.externalId.length <= 120
          ? `id:${l.externalId}`
          : `id#${createHash('sha256').update(l.externalId).digest('base64url').slice(0, 32)}`
    } else {
      const content = `${l.date}\u0000${l.amountMinor}\u0000${normal(l.description)}\u0000${l.reference ?? ''}`
      base = `c:${createHash('sha256').update(content).digest('base64url').slice(0, 32)}`
    }
    const n = (seen.get(base) ?? 0) + 1
    seen.set(base, n)
    return n === 1 ? base : `${base}#${n}`
  })
}

/** Days between two ISO dates. */
export function dayDiff(a: string, b: string): number {
  return Math.round(Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000)
}

export function shiftDate(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}

function tokens(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .match(/[a-z0-9]{2,}/g) ?? [],
  )
}

/** Share of the shorter text's words found in the other (0..1). */
export function similarity(a: string, b: string): number {
  const ta = tokens(a)
  const tb = tokens(b)
  if (ta.size === 0 || tb.size === 0) return 0
  let common = 0
  for (const t of ta) if (tb.has(t)) common++
  return common / Math.min(ta.size, tb.size)
}

export interface Candidate {
  id: string
  transaction_date: string
  amount: number
  description: string
  merchant_name: string | null
}

/**
 * Pair lines (by index) with candidate transactions. Returns line index -> candidate id.
 * `lines` are the lines still to place (not duplicates), with their index in the statement; the
 * import's rows take the same rule the other way round (transactions/statement-lines.ts).
 */
export function matchLines(
  lines: Array<{ index: number; line: Pick<StatementLine, 'date' | 'amountMinor' | 'description' | 'merchant'> }>,
  candidates: Candidate[],
): Map<number, string> {
  const byAmount = new Map<number, Candidate[]>()
  for (const c of candidates) byAmount.set(c.amount, [...(byAmount.get(c.amount) ?? []), c])
  const order = new Map(candidates.map((c, i) => [c.id, i]))
  const pairs: Array<{ index: number; id: string; score: number; days: number }> = []
  for (const { index, line } of lines) {
    for (const c of byAmount.get(line.amountMinor) ?? []) {
      const days = dayDiff(line.date, c.transaction_date)
      if (days > MATCH_WINDOW_DAYS) continue
      const text = `${c.description} ${c.merchant_name ?? ''}`
      pairs.push({ index, id: c.id, score: similarity(`${line.description} ${line.merchant ?? ''}`, text), days })
    }
  }
  pairs.sort((a, b) => b.score - a.score || a.days - b.days || a.index - b.index || order.get(a.id)! - order.get(b.id)!)
  const out = new Map<number, string>()
  const taken = new Set<string>()
  for (const p of pairs) {
    if (out.has(p.index) || taken.has(p.id)) continue
    out.set(p.index, p.id)
    taken.add(p.id)
  }
  return out
}
