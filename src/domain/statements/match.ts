/**
 * A statement line's identity (for duplicates): the bank's id of the line when it has one
 * (`id:<id>`), else its date, amount, description and CSV reference (`c:<digest>`); a second line
 * of the same file with the same identity is numbered (`#2`), so two equal coffees on one day stay
 * two transactions, while the same lines in a later, overlapping statement are known again. Which
 * transaction a line reconciles is in ../reconcile.ts (the import pairs its rows by the same rule).
 */
import { createHash } from 'node:crypto'
import type { StatementLine } from './parse.js'

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
