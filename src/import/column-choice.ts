/**
 * The columns a header leaves open, decided from the values of the rows after it (plan.ts keeps
 * the first EVIDENCE_ROWS aside for this): the date, the amount and the currency where no header
 * names them, the description where its column says too little, and the columns a row's
 * description falls back on when its own cells are empty (a fee row without a payee name).
 */
import { dateColumnByValues, descriptionByValues, columnName, takenColumns } from './column-evidence.js'
import { amountColumnByValues, currencyColumnByValues, textColumnsByValues } from './columns-by-values.js'
import type { DateFormat } from './dates.js'
import { headerCurrency } from './file-currency.js'
import { isDescriptionHeader, isKnownHeader, missingColumns, type ColumnMap, type Role } from './mapping.js'
import { cell, DATE_LIKE, ImportError, NO_DESCRIPTION } from './row-text.js'

export interface ColumnChoice {
  /** Words the plan's columns line adds to a field found by its values. */
  how: Partial<Record<Role, string>>
  notes: string[]
  /** Text columns, in order, a row's description is taken from when its description cells are empty. */
  fallbacks: number[]
}

/** Decides the open columns into `m`; throws an ImportError naming what it cannot tell. */
export function chooseColumns(
  header: string[],
  m: ColumnMap,
  rows: string[][],
  given: ReadonlySet<Role>,
  /** --date-format's: a date of its layout's shape makes a row a transaction. */
  format?: DateFormat,
): ColumnChoice {
  const how: ColumnChoice['how'] = {}
  const notes: string[] = []
  // A column under a header the mapping knows holds that header's field, not another found by values.
  const unnamed = (taken: Set<number>) => {
    for (let i = 0; i < header.length; i++) if (isKnownHeader(header[i])) taken.add(i)
    return taken
  }
  if (m.date === undefined) {
    const i = dateColumnByValues(header, rows, takenColumns(m), format)
    if (i !== undefined) {
      m.date = i
      how.date = 'its values are dates'
    }
  }
  const dated = m.date === undefined ? [] : rows.filter((f) => DATE_LIKE.test(cell(f, m.date), format))
  if (m.amount === undefined && m.debit === undefined && m.credit === undefined && dated.length) {
    const a = amountColumnByValues(dated, unnamed(takenColumns(m)))
    if (a.ok) {
      m.amount = a.column
      const balances = a.balances.map((i) => columnName(header, i))
      how.amount = `its values are amounts${balances.length ? `; ${balances.join(', ')} ${balances.length === 1 ? 'is a' : 'are'} running balance${balances.length === 1 ? '' : 's'}` : ''}`
    } else if (a.columns.length > 1)
      throw new ImportError(
        `cannot tell which column holds the amount: ${a.columns.map((i) => columnName(header, i)).join(', ')} all hold amounts; give --map amount=Column`,
      )
  }
  // The amount's header names its currency ("Сума в валюті картки (UAH)"): a column of codes beside it is the operation's, not the amount's.
  if (m.currency_code === undefined && !given.has('currency_code') && dated.length && !headerCurrency(header, m)) {
    const i = currencyColumnByValues(dated, unnamed(takenColumns(m)), m.amount ?? m.debit ?? m.credit)
    if (i !== undefined) {
      m.currency_code = i
      how.currency_code = 'its values are currency codes'
    }
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
  return { how, notes, fallbacks }
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
