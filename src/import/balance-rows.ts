/**
 * Rows of a bank file that carry a balance or a turnover instead of a movement, found
 * by the file's own signals; such a row is skipped and counted, never created:
 *
 * - its text: the description (or payee) is an opening or closing balance, a balance or a turnover
 *   in the bank's language ("Likutis pradžiai", "Closing balance", "Anfangssaldo", "Apyvarta"), the
 *   whole text and nothing else but dates, numbers and a currency code;
 * - a record-type column: a column named so ("Record type", "Įrašo tipas", "Reatüüp"), or an
 *   unnamed column of numeric codes, where the rows named a balance or turnover by their text (an
 *   unnamed column needs some) never carry the code most rows carry: that code is a movement, any
 *   other is not (Swedbank's 10, 82, 86 around the 20s of its movements);
 * - the running sum: after a balance row (named by its text), a row whose amount equals that balance
 *   plus every movement since, at least 2 of them ("Saldo per 31.05.2024" closing a month). Never
 *   from zero: in a file without a balance row, a movement equal to the sum of the ones before it
 *   (-1, 2, 3, then 4) is a movement.
 *
 * `--where` is the manual override: when given, it alone chooses the rows, and nothing here runs.
 */
import { isCurrency } from '../kernel/currencies.js'
import { normalizeHeader } from './mapping.js'

export type BalanceKind = 'opening balance' | 'closing balance' | 'balance' | 'turnover'

const PHRASES: Record<BalanceKind, string[]> = {
  'opening balance': [
    'opening balance',
    'beginning balance',
    'starting balance',
    'start balance',
    'previous balance',
    'balance brought forward',
    'brought forward',
    'balance b f',
    'anfangssaldo',
    'alter kontostand',
    'kontostand alt',
    'saldo alt',
    'saldovortrag',
    'anfangsbestand',
    'solde initial',
    'ancien solde',
    'solde precedent',
    'solde d ouverture',
    'solde de debut',
    'saldo inicial',
    'saldo anterior',
    'saldo iniziale',
    'saldo di apertura',
    'beginsaldo',
    'vorig saldo',
    'oud saldo',
    'saldo poczatkowe',
    'saldo otwarcia',
    'likutis pradziai',
    'pradinis likutis',
    'sakuma atlikums',
    'atlikums sakuma',
    'algsaldo',
    'ingaende saldo',
    'inngaende saldo',
    'primosaldo',
    'alkusaldo',
    'inngående balanse',
    'ingående balans',
    'startsaldo',
    'počáteční zůstatek',
    'počáteční stav',
    'входящий остаток',
    'входящее сальдо',
    'остаток на начало',
    'остаток на начало периода',
    'вхідний залишок',
    'залишок на початок',
    'залишок на початок періоду',
    'баланс на початок періоду',
    'saldo contabilístico inicial',
    'saldo contabile iniziale',
  ],
  'closing balance': [
    'closing balance',
    'ending balance',
    'end balance',
    'final balance',
    'new balance',
    'balance carried forward',
    'carried forward',
    'balance c f',
    'endsaldo',
    'schlusssaldo',
    'neuer kontostand',
    'kontostand neu',
    'saldo neu',
    'endbestand',
    'solde final',
    'nouveau solde',
    'solde de cloture',
    'solde de fin',
    'saldo final',
    'saldo finale',
    'saldo di chiusura',
    'eindsaldo',
    'nieuw saldo',
    'saldo koncowe',
    'saldo zamkniecia',
    'likutis pabaigai',
    'galutinis likutis',
    'beigu atlikums',
    'atlikums beigas',
    'loppsaldo',
    'lopusaldo',
    'utgaende saldo',
    'ultimosaldo',
    'loppusaldo',
    'utgående balanse',
    'utgående balans',
    'slutsaldo',
    'konečný zůstatek',
    'konečný stav',
    'исходящий остаток',
    'исходящее сальдо',
    'остаток на конец',
    'остаток на конец периода',
    'вихідний залишок',
    'залишок на кінець',
    'залишок на кінець періоду',
    'баланс на кінець періоду',
    'saldo contabilístico final',
    'saldo disponível final',
    'saldo contabile finale',
  ],
  balance: [
    'balance',
    'account balance',
    'saldo',
    'kontostand',
    'solde',
    'likutis',
    'atlikums',
    'balans',
    'balanse',
    'zůstatek',
    'остаток',
    'сальдо',
    'баланс',
    'залишок',
    'saldo contabilístico',
    'saldo disponível',
    'saldo contabile',
    'saldo disponibile',
  ],
  turnover: [
    'turnover',
    'total debits',
    'total credits',
    'total debit',
    'total credit',
    'debit turnover',
    'credit turnover',
    'umsatzsumme',
    'summe',
    'summe soll',
    'summe haben',
    'total des operations',
    'total des mouvements',
    'apyvarta',
    'apgrozijums',
    'kaeive',
    'obroty',
    'omzet',
    'omsaettning',
    'omsætning',
    'omsetning',
    'obrat',
    'обороты',
    'оборот',
    'обороти',
  ],
}

const KIND_OF = new Map<string, BalanceKind>()
for (const [kind, phrases] of Object.entries(PHRASES) as Array<[BalanceKind, string[]]>)
  for (const p of phrases) KIND_OF.set(normalizeHeader(p), kind)

/** Words that lead to a date at the end of a balance's text, and month names (English ones). */
const FILLERS = new Set([
  'pr',
  'pa',
  'den',
  'za',
  'k',
  'ke',
  'dni',
  'em',
  'di',
  'на',
  'за',
  'at',
  'on',
  'as',
  'of',
  'per',
  'am',
  'zum',
  'vom',
  'au',
  'du',
  'le',
  'al',
  'del',
  'a',
  'de',
  'op',
  'na',
  'uz',
  'seisuga',
  'jan',
  'feb',
  'mar',
  'apr',
  'may',
  'jun',
  'jul',
  'aug',
  'sep',
  'oct',
  'nov',
  'dec',
  'january',
  'february',
  'march',
  'april',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
])

/** The first words of the phrases (normalized): a text starting with another word is no balance, found without normalizing it all. */
const FIRST_WORDS = new Set([...KIND_OF.keys()].map((p) => p.split(' ')[0]))
const FIRST_WORD = /^[^\p{L}]*(\p{L}+)/u
const firstWordSeen = new Map<string, boolean>()

/** What a row's text says it is, when it is a balance or a turnover: the whole text, less dates, numbers and a currency code. */
export function balanceKind(text: string): BalanceKind | undefined {
  // Every row of a file comes here: most are told apart by their length or first word alone.
  if (text.length > 80) return undefined
  const first = FIRST_WORD.exec(text)?.[1]
  if (!first) return undefined
  let starts = firstWordSeen.get(first)
  if (starts === undefined) {
    starts = FIRST_WORDS.has(normalizeHeader(first))
    // A file's texts start with the same few words (CARD, POS, SEPA): remembered, up to a bound.
    if (firstWordSeen.size > 10_000) firstWordSeen.clear()
    firstWordSeen.set(first, starts)
  }
  if (!starts) return undefined
  const words = normalizeHeader(text)
    .split(' ')
    .filter((w) => w && !/\d/.test(w))
  // "Nouveau solde au 31/03/2024", "Saldo per 31.05.2024", "Closing balance as of 31 May EUR": the date's words and a currency go.
  while (words.length > 1 && (FILLERS.has(words[words.length - 1]) || isCurrency(words[words.length - 1].toUpperCase()))) words.pop()
  if (words.length === 0 || words.length > 5) return undefined
  return KIND_OF.get(words.join(' '))
}

/** Headers of a record-type column. */
const RECORD_TYPE_HEADERS = new Set([
  'record type',
  'row type',
  'line type',
  'entry type',
  'reatuup',
  'rea tuup',
  'ieraksta tips',
  'iraso tipas',
  'tipo de registro',
  'satzart',
])
const CODE = /^[A-Za-z0-9]{1,4}$/
const NUMERIC_CODE = /^\d{1,4}$/
/** A code that names something other than movements on more rows than this is no record type. */
const MAX_LINES_PER_CODE = 1000

/** A record-type column as the plan found it: `movement` is the code of movements, any other code is not one. */
export interface RecordType {
  column: number
  movement: string
  /** The other codes seen by the plan, for its note. */
  others: string[]
}

interface Candidate {
  column: number
  named: boolean
  /** Per code: rows whose text names no balance (their first lines kept), and rows whose text does. */
  codes: Map<string, { count: number; lines: number[]; named: number }>
  out: boolean
}

/** The plan stage: watches the columns that may be a record type and decides at the end of the plan. */
export class RecordTypeFinder {
  private readonly candidates: Candidate[]

  constructor(header: string[], mapped: Set<number>) {
    this.candidates = header.flatMap((h, column) => {
      if (mapped.has(column)) return []
      const norm = normalizeHeader(h)
      return norm === '' || RECORD_TYPE_HEADERS.has(norm) ? [{ column, named: norm !== '', codes: new Map(), out: false }] : []
    })
  }

  /** One data row; `named`: its text names a balance or turnover. */
  add(fields: string[], line: number, named: boolean): void {
    for (const c of this.candidates) {
      if (c.out) continue
      const code = (fields[c.column] ?? '').trim()
      if (!(c.named ? CODE : NUMERIC_CODE).test(code)) {
        c.out = true
        continue
      }
      let entry = c.codes.get(code)
      if (!entry) {
        entry = { count: 0, lines: [], named: 0 }
        c.codes.set(code, entry)
      }
      if (named) entry.named++
      else if (++entry.count <= MAX_LINES_PER_CODE) entry.lines.push(line)
      if (c.codes.size > 20) c.out = true
    }
  }

  /** The record-type column, if one qualifies, and the rows (their text naming no balance) it shows are no movements. */
  decide(): { recordType: RecordType; lines: Array<{ line: number; code: string }> } | undefined {
    for (const c of this.candidates) {
      if (c.out || c.codes.size < 2) continue
      const rows = (e: { count: number; named: number }) => e.count + e.named
      const ranked = [...c.codes].sort((a, b) => rows(b[1]) - rows(a[1]))
      const [movement, m] = ranked[0]
      // The movements' code is the most common one, by a margin.
      if (rows(m) === rows(ranked[1][1])) continue
      const others = [...c.codes.keys()].filter((k) => k !== movement)
      if (others.some((k) => c.codes.get(k)!.count > MAX_LINES_PER_CODE)) continue
      const namedRows = [...c.codes.values()].reduce((n, e) => n + e.named, 0)
      // No row named a balance by its text carries the movements' code; an unnamed column needs such rows to confirm it.
      if (m.named > 0 || (!c.named && namedRows === 0)) continue
      const lines = others.flatMap((code) => c.codes.get(code)!.lines.map((line) => ({ line, code })))
      return { recordType: { column: c.column, movement, others }, lines }
    }
    return undefined
  }
}

/** The running-sum signal, row by row (the map stage): `balanceRow` before a movement is counted in. */
export class RunningBalance {
  private sum = 0
  private movements = 0
  private fromBalance = false

  /** A balance row skipped by its text or record type: the balance is known from here. */
  balanceSeen(kind: BalanceKind | undefined, minor: number | undefined): void {
    if (minor === undefined || kind === 'turnover') return
    this.sum = minor
    this.movements = 0
    this.fromBalance = true
  }

  /** Why the row of `minor` is the balance so far rather than a movement; undefined for a movement (then counted in). */
  balanceRow(minor: number): string | undefined {
    if (this.fromBalance && this.movements >= 2 && minor === this.sum) {
      const reason = `a balance: equals the balance row before it plus the ${this.movements} movements since`
      this.movements = 0
      return reason
    }
    this.sum += minor
    this.movements++
    return undefined
  }
}
