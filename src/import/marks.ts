/**
 * The values of a debit/credit indicator column, in the languages the header mapping knows
 * (debit/credit, DR/CR, D/C, Soll/Haben and S/H, Débit/Crédit, Cargo/Abono, Debe/Haber, Af/Bij,
 * Debetas/Kreditas and D/K), and the headers of a column that may hold them among other kinds.
 */
import { normalizeHeader } from './mapping.js'

/**
 * Headers of a column that may say debit or credit but may as well hold other kinds ("Type": POS,
 * ATM): such a column is the indicator only when every value of it is a debit or credit mark.
 */
export const TYPE_HEADERS = new Set([
  'type',
  'transaction type',
  'trans type',
  'txn type',
  'entry type',
  'kind',
  'direction',
  'cd',
  'typ',
  'art',
  'umsatzart',
  'buchungsart',
  'kennzeichen',
  'sens',
  'type d operation',
  'type operation',
  'tipo',
  'tipo de movimiento',
  'tipo movimiento',
  'soort',
  'richting',
  'tipas',
  'rodzaj',
  'druh',
])

/** Values of an indicator column that mean money out / money in, as `markOf` writes them. */
export const DEBIT_MARKS = new Set([
  'd',
  'dr',
  'db',
  'debit',
  'deb',
  'dbit',
  's',
  'soll',
  'af',
  'debet',
  'debetas',
  'debe',
  'debito',
  'cargo',
  'out',
  'withdrawal',
  '-',
])
export const CREDIT_MARKS = new Set([
  'c',
  'cr',
  'credit',
  'cred',
  'crdt',
  'h',
  'haben',
  'haber',
  'bij',
  'k',
  'kredit',
  'kreditas',
  'credito',
  'abono',
  'in',
  'deposit',
  '+',
])

/** An indicator value as the mark sets write it: lower case, accents off ("Débit" is "debit"); a lone + or - kept. */
export function markOf(value: string): string {
  const t = value.trim().toLowerCase()
  // Most marks are plain letters (D, CR, debit): no need to normalise them, once a row.
  return PLAIN.test(t) ? t : normalizeHeader(t)
}

const PLAIN = /^(?:[a-z]*|\+|-)$/

/** 'debit', 'credit', or undefined for a value that is neither. */
export function markSide(value: string): 'debit' | 'credit' | undefined {
  const m = markOf(value)
  return DEBIT_MARKS.has(m) ? 'debit' : CREDIT_MARKS.has(m) ? 'credit' : undefined
}
