/**
 * The columns a header leaves open, decided from the values of the rows after it (plan.ts keeps
 * the first EVIDENCE_ROWS aside for this): the date, the amount and the currency where no header
 * names them, the description where its column says too little, and the columns a row's
 * description falls back on when its own cells are empty (a fee row without a payee name).
 */
import { balanceKind } from './balance-rows.js'
import { dateColumnByValues, descriptionByValues, takenColumns } from './column-evidence.js'
import { currencyColumnByValues, textColumnsByValues } from './columns-by-values.js'
import type { DateFormat } from './dates.js'
import { headerCurrency } from './file-currency.js'
import { isDescriptionHeader, missingColumns, type ColumnMap, type Role } from './mapping.js'
import { namedAgainstValues } from './named-columns.js'
import { chooseMoney, type BalancePlan, type MoneyOptions } from './money-readings.js'
import { cell, DATE_LIKE, ImportError, NO_DESCRIPTION } from './row-text.js'

export interface ColumnChoice {
  /** Words the plan's columns line adds to a field found by its values. */
  how: Partial<Record<Role, string>>
  notes: string[]
  /** Text columns, in order, a row's description is taken from when its description cells are empty. */
  fallbacks: number[]
  /** A running balance the amounts chain with (money-readings.ts). */
  balance?: BalancePlan
  /** The balance shows every amount's sign written the other way. */
  invert?: true
}

export interface ChoiceOptions extends Omit<MoneyOptions, 'given'> {
  /** --date-format's: a date of its layout's shape makes a row a transaction. */
  format?: DateFormat
}

/** Decides the open columns into `m`; throws an ImportError naming what it cannot tell. */
export function chooseColumns(header: string[], m: ColumnMap, rows: string[][], given: ReadonlySet<Role>, o: ChoiceOptions): ColumnChoice {
  const { format } = o
  const how: ColumnChoice['how'] = {}
  const notes: string[] = []
  if (m.date === undefined) {
    const i = dateColumnByValues(header, rows, takenColumns(m), format)
    if (i !== undefined) {
      m.date = i
      how.date = 'its values are dates'
    }
  }
  const dated = m.date === undefined ? [] : rows.filter((f) => DATE_LIKE.test(cell(f, m.date), format))
  // A column the header names is checked against its values: a "Valuta" of currency codes is the currency, an empty "Amount details" no amount.
  if (dated.length) notes.push(...namedAgainstValues(header, m, dated, given, how))
  // The amount's header names its currency ("Сума в валюті картки (UAH)"): a column of codes beside it is the operation's, not the amount's.
  if (m.currency_code === undefined && !given.has('currency_code') && dated.length && !headerCurrency(header, m)) {
    // Values decide here whatever the header says: a bare "Valuta" of NOK is the currency (named-columns.ts).
    const i = currencyColumnByValues(dated, takenColumns(m), m.amount ?? m.debit ?? m.credit)
    if (i !== undefined) {
      m.currency_code = i
      how.currency_code = 'its values are currency codes'
    }
  }
  // Balance and turnover rows ("Closing balance") are no movements: no evidence of how the movements read.
  const movements = dated.filter((f) => !f.some((c) => c && balanceKind(c) !== undefined))
  let money: ReturnType<typeof chooseMoney> = { how: {}, notes: [] }
  if (movements.length) {
    money = chooseMoney(header, m, movements, { ...o, given })
    Object.assign(how, money.how)
    notes.push(...money.notes)
  }
  if (!given.has('description') && m.description.length === 1 && dated.length) {
    const choice = descriptionByValues(header, m, dated)
    if (choice) {
      m.description = choice.columns
      if (choice.why) notes.push(`description: ${choice.why}`)
    }
  }
  const byValues = dated.length ? textColumnsByValues(dated, takenColumns(m)) : { varying: [], constant: [] }
  const texts = byValues.varying
  if (m.description.length === 0 && (texts.length || byValues.constant.length)) {
    m.description = [texts.shift() ?? byValues.constant[0]]
    how.description = 'its values are words'
  }
  const missing = missingColumns(m)
  if (missing.length)
    throw new ImportError(
      `cannot tell which column holds the ${missing.join(', the ')}; ${header.some((h) => h.trim()) ? `header: ${header.map((x) => `"${x}"`).join(', ')}` : 'the file has no header row: name columns by number (--map date=1)'}`,
    )
  const fallbacks = fallbacksOf(header, m, texts)
  // No text column of the description's own: the first of the others is its column.
  if (m.description.length === 0 && fallbacks.length) m.description = [fallbacks.shift()!]
  if (m.description.length === 0)
    notes.push(
      `description: the file has no text column (no payee, purpose, type or reference), so every row is described as "${NO_DESCRIPTION}"`,
    )
  return {
    how,
    notes,
    fallbacks,
    ...(money.balance ? { balance: money.balance } : {}),
    ...(money.invert ? { invert: money.invert } : {}),
  }
}

/**
 * Where a row's description comes from when its description cells are empty, in order: the payee,
 * other columns named as text (a booking text beside the purpose), text columns found by their
 * values, the bank's reference.
 */
function fallbacksOf(header: string[], m: ColumnMap, texts: number[]): number[] {
  const own = new Set(m.description)
  const list: number[] = []
  const add = (i: number | undefined) => {
    if (i !== undefined && i >= 0 && !own.has(i) && !list.includes(i)) list.push(i)
  }
  add(m.merchant_name)
  const taken = takenColumns(m)
  header.forEach((h, i) => {
    if (!taken.has(i) && isDescriptionHeader(h)) add(i)
  })
  for (const i of texts) add(i)
  add(m.reference)
  return list
}
