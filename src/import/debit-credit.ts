/**
 * Separate debit and credit columns. A column whose values all carry one sign is a magnitude
 * column: a debit is money out and a credit money in, whichever sign the bank writes them with
 * (`5.00` or `-5.00`). A value carrying the other sign from the rest of its column is a reversal
 * (a reversed credit written `5,00-` in the credit column) and counts the other way. When both
 * columns are filled on one row, the amount is credit - debit, each value read so.
 */
import { amountSign, type LocaleAmount } from './amount.js'

/** 1: the column's values are written unsigned (or with a plus), -1: with a minus. */
export type Sign = 1 | -1
export type MoneyColumn = 'debit' | 'credit'

export interface ColumnSigns {
  debit: Sign
  credit: Sign
}

/** Counts the signs a column's values carry, to tell the sign of the column. */
export class SignCounter {
  private negative = 0
  private positive = 0

  add(text: string): void {
    const sign = amountSign(text)
    if (sign < 0) this.negative++
    else if (sign > 0) this.positive++
  }

  /** The sign most of the column's values carry; unsigned when they tie (or there are none). */
  get usual(): Sign {
    return this.negative > this.positive ? -1 : 1
  }
}

/** A debit or credit value as money into the account (minor units), and whether it is a reversal. */
export function columnAmount(minor: number, column: MoneyColumn, usual: Sign): { minor: number; reversal: boolean } {
  const reversal = minor !== 0 && Math.sign(minor) !== usual
  const inward = (column === 'credit') !== reversal
  return { minor: inward ? Math.abs(minor) : -Math.abs(minor), reversal }
}

export type DebitCreditAmount = { ok: true; minor: number; reversal: boolean } | { ok: false; reason: string }

/** The amount of a row from its debit and credit cells, `read` parsing each one. */
export function debitCreditAmount(
  cells: Record<MoneyColumn, string>,
  signs: ColumnSigns,
  read: (text: string) => LocaleAmount,
): DebitCreditAmount {
  if (!cells.debit && !cells.credit) return { ok: false, reason: 'no amount: both the debit and the credit column are empty' }
  let minor = 0
  let reversal = false
  for (const column of ['debit', 'credit'] as const) {
    if (!cells[column]) continue
    const r = read(cells[column])
    if (!r.ok) return { ok: false, reason: `${column} ${r.message}` }
    const value = columnAmount(r.minor, column, signs[column])
    minor += value.minor
    reversal ||= value.reversal
  }
  return { ok: true, minor, reversal }
}

/** The plan's note on how the columns are read. */
export function signsNote(signs: ColumnSigns, header: string[], map: { debit?: number; credit?: number }): string {
  const written = (sign: Sign) => (sign === 1 ? 'unsigned' : 'with a minus')
  const name = (i: number | undefined) =>
    i === undefined ? '' : ` "${i < 0 || !header[i]?.trim() ? `column ${i < 0 ? i : i + 1}` : header[i]}"`
  return `debit${name(map.debit)} is money out written ${written(signs.debit)}, credit${name(map.credit)} money in written ${written(signs.credit)}; a value with the other sign is a reversal and counts the other way`
}
