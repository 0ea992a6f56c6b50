/**
 * The values of a debit/credit indicator column, in the languages the header mapping knows
 * (debit/credit, DR/CR, D/C, Soll/Haben and S/H, Débit/Crédit, Cargo/Abono, Debe/Haber, Af/Bij,
 * Debetas/Kreditas and D/K, Debet/Kredit, Ut/Inn, Obciążenie/Uznanie, Odchozí/Příchozí,
 * Дебет/Кредит, Расход/Приход, Dare/Avere, ...), and the headers of a column that may hold them
 * among other kinds. Written as banks write them, kept as `markOf` writes them.
 */
import { normalizeHeader } from './mapping.js'

const normalized = (names: string[]) => names.map((n) => (n === '+' || n === '-' ? n : normalizeHeader(n)))

/**
 * Headers of a column that may say debit or credit but may as well hold other kinds ("Type": POS,
 * ATM): such a column is the indicator only when every value of it is a debit or credit mark.
 */
export const TYPE_HEADERS = new Set(
  normalized([
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
    'Transaksjonstype',
    'Transaktionstype',
    'Transaktionstyp',
    'Tapahtumalaji',
    'Laji',
    'Tyyppi',
    'Typ transakcji',
    'Typ operacji',
    'Rodzaj operacji',
    'Směr',
    'Směr úhrady',
    'Typ transakce',
    'Typ pohybu',
    'Тип',
    'Тип операции',
    'Вид операции',
    'Направление',
    'Тип операції',
    'Вид операції',
    'Напрямок',
    'Tipo de movimento',
    'Tipo de operação',
    'Natureza',
    'Tipologia',
  ]),
)

/** Values of an indicator column that mean money out / money in, as `markOf` writes them. */
export const DEBIT_MARKS = new Set(
  normalized([
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
    'Ut',
    'Uttak',
    'Uttag',
    'Hævet',
    'Udbetaling',
    'Veloitus',
    'Otto',
    'Obciążenie',
    'Obciążenia',
    'Winien',
    'Odchozí',
    'Výdaj',
    'Дебет',
    'Д',
    'Дт',
    'Расход',
    'Списание',
    'Видаток',
    'Списання',
    'Saída',
    'Dare',
    'Addebito',
    'Uscita',
    '借',
    '支',
    '支出',
    '出',
    '出金',
    '출금',
    '출',
  ]),
)
export const CREDIT_MARKS = new Set(
  normalized([
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
    'Inn',
    'Innskudd',
    'Insättning',
    'Indsat',
    'Indbetaling',
    'Hyvitys',
    'Pano',
    'Uznanie',
    'Uznania',
    'Příchozí',
    'Příjem',
    'Кредит',
    'К',
    'Кт',
    'Приход',
    'Зачисление',
    'Поступление',
    'Надходження',
    'Зарахування',
    'Entrada',
    'Avere',
    'Accredito',
    'Entrata',
    '贷',
    '貸',
    '收',
    '收入',
    '入',
    '入金',
    '입금',
    '입',
  ]),
)

/** An indicator value as the mark sets write it: lower case, accents off ("Débit" is "debit"); a lone + or - kept. */
export function markOf(value: string): string {
  const t = value.trim().toLowerCase()
  // Most marks are plain letters (D, CR, debit): no need to normalise them, once a row.
  if (PLAIN.test(t)) return t
  // Others ("Débit", "Дебет") are few in a column: each is normalised once, remembered up to a bound.
  let mark = written.get(t)
  if (mark === undefined) {
    mark = normalizeHeader(t)
    if (written.size >= 1000) written.clear()
    written.set(t, mark)
  }
  return mark
}

const PLAIN = /^(?:[a-z]*|\+|-)$/
const written = new Map<string, string>()

/** 'debit', 'credit', or undefined for a value that is neither. */
export function markSide(value: string): 'debit' | 'credit' | undefined {
  const m = markOf(value)
  return DEBIT_MARKS.has(m) ? 'debit' : CREDIT_MARKS.has(m) ? 'credit' : undefined
}
