/**
 * A column the header names is taken for that field only when its values agree: values decide,
 * names break ties. "Valuta" is a value date in a German file and the currency in a Nordic one, so
 * a value-date column whose values are currency codes is the currency; an amount column empty on
 * every row ("Amount details" beside "Debit CHF" and "Credit CHF"), or holding dates ("Value Dat",
 * a header cut short), is no amount, and the columns beside it are read instead.
 */
import { isCurrency } from '../kernel/currencies.js'
import { looksLikeAmount } from './amount.js'
import { columnName, isDateCell } from './column-evidence.js'
import type { ColumnMap, Role } from './mapping.js'
import { cell } from './row-text.js'

const MONEY: Array<'amount' | 'debit' | 'credit' | 'balance'> = ['amount', 'debit', 'credit', 'balance']
const CODE = /^[A-Z]{3}$/

/** Whether a cell is written as an amount (decimals or a sign): "1.234,56" may read as a date, an amount it is. */
const isAmount = (t: string) => looksLikeAmount(t)

/** Unmaps (and remaps) the columns whose values say they hold another field; the plan's notes on each. */
export function namedAgainstValues(
  header: string[],
  m: ColumnMap,
  rows: string[][],
  given: ReadonlySet<Role>,
  how: Partial<Record<Role, string>>,
): string[] {
  const notes: string[] = []
  const name = (i: number) => JSON.stringify(columnName(header, i))
  const values = (i: number) => rows.map((r) => cell(r, i)).filter(Boolean)
  for (const role of ['posted_date', 'date'] as const) {
    const i = m[role]
    if (i === undefined || i < 0 || given.has(role)) continue
    const v = values(i)
    const codes = v.filter((t) => CODE.test(t) && isCurrency(t))
    if (v.length === 0 || codes.length < v.length * 0.9) continue
    delete m[role]
    if (m.currency_code === undefined && !given.has('currency_code')) {
      m.currency_code = i
      how.currency_code = 'its values are currency codes'
    }
    const seen = [...new Set(codes)].slice(0, 3).join(', ')
    notes.push(
      `${role === 'date' ? 'date' : 'value date'}: ${name(i)} holds currency codes (${seen}), so it is the currency, not a ${role === 'date' ? 'date' : 'value date'}`,
    )
  }
  // The money fields: empty on every row, or other values than amounts on most.
  for (const role of MONEY) {
    const i = m[role]
    if (i === undefined || i < 0 || given.has(role)) continue
    // Positive evidence only: values of no kind ("n/a") leave the name standing, and those rows are rejected.
    const v = values(i)
    const dates = v.filter((t) => isDateCell(t) && !isAmount(t))
    // An empty column yields to the other money columns the header names; alone (a ragged file's), it stays and its rows say why.
    const others = (['amount', 'debit', 'credit'] as const).some((r) => r !== role && m[r] !== undefined && values(m[r]!).length > 0)
    if (v.length === 0 ? !others : dates.length * 2 < v.length) continue
    delete m[role]
    notes.push(
      `${role}: ${name(i)} ${v.length === 0 ? 'is empty on every row' : `holds dates, not amounts (${JSON.stringify(dates[0].slice(0, 30))})`}, so it is not the ${role}`,
    )
  }
  // Debit without credit (or the reverse) is no pair: the values decide.
  if ((m.debit === undefined) !== (m.credit === undefined) && m.amount === undefined) {
    for (const role of ['debit', 'credit'] as const) if (!given.has(role)) delete m[role]
  }
  return notes
}
