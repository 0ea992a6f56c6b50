/**
 * Which existing transaction a statement line reconciles, a pure rule that a statement upload
 * (statements/apply.ts) and an import's rows (transactions/statement-lines.ts) both take, so it
 * sits below both. A line matches a transaction of the account that has no statement, is not void,
 * has the same amount in the account's currency (accounts/balances.ts: amountInAccount) and a
 * transaction_date at most 3 days away. Each line takes at most one transaction and each
 * transaction at most one line; pairs are taken best first: the most words of their descriptions
 * in common, then the nearest date, then file and creation order.
 */

export const MATCH_WINDOW_DAYS = 3

/** What the rule reads of a line (statements/parse.ts StatementLine, or an imported row). */
export interface ReconciledLine {
  date: string
  amountMinor: number
  description: string
  merchant?: string
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
export function matchLines(lines: Array<{ index: number; line: ReconciledLine }>, candidates: Candidate[]): Map<number, string> {
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
