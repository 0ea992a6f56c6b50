/**
 * Which columns a row's amount is read from, decided by the file's own evidence, names only
 * breaking ties. A running balance is the evidence: a column that moves from row to row by exactly
 * the amounts a reading gives (balance-chain.ts) identifies both itself and that reading, money
 * out and money in included, and is then checked on every row (map-rows.ts). Without a balance,
 * the header's names decide, then the values (one column of amounts; two taking turns when their
 * signs tell which is money out); where nothing decides between two readings, the file is refused
 * naming both and the flag that chooses one.
 */
import { chains, ChainCheck, CHAIN_ORDERS, ordersOfDates, type BalanceSense, type ChainOrder, type ChainResult } from './balance-chain.js'
import { columnName } from './column-evidence.js'
import { DateDetector, parseDate } from './dates.js'
import type { ColumnMap, Role } from './mapping.js'
import {
  fileDecimalMark,
  markColumn,
  moneyColumns,
  readingAmounts,
  takeTurns,
  type MarkColumn,
  type MoneyColumn,
  type Reading,
} from './money-columns.js'
import { cell, ImportError } from './row-text.js'

/** What the plan keeps of a balance that chains: the map stage checks every row against it. */
export interface BalancePlan {
  column: number
  order: ChainOrder
  sense: BalanceSense
  /** Pairs of rows compared and chained over the evidence. */
  pairs: number
  held: number
  /** false: --no-balance-check, the rows are read as chosen but not refused when they break. */
  check: boolean
}

export interface MoneyChoice {
  balance?: BalancePlan
  /** The balance shows money out written as positive: every sign is flipped. */
  invert?: true
  /** Words for the columns line, per field. */
  how: Partial<Record<Role, string>>
  notes: string[]
}

export interface MoneyOptions {
  /** Fields the user mapped with --map (they are the reading; the balance still checks them). */
  given: ReadonlySet<Role>
  /** The account is a card or a loan: its balance may be written as owed. */
  liability?: boolean
  /** --no-balance-check. */
  noBalanceCheck?: boolean
  /** --invert-sign, or a bank layout's. */
  invertSign?: boolean
  headerless: boolean
}

interface Combo {
  reading: Reading
  balance: number
  result: ChainResult
  sense: BalanceSense
  amounts: Array<number | undefined>
  /** 2 the header's reading, 1 a reading as written (1.5: unsigned amounts signed by a column of marks), 0 signs flipped. */
  rank: number
  /** Rows the reading gives an amount for: one that leaves rows out chains on fewer, not better. */
  covered: number
}

const MONEY_ROLES = new Set<Role>(['amount', 'debit', 'credit', 'fee', 'balance'])
/** Columns the evidence reads, money columns found by their values that it tries, debit/credit columns beside them. */
const WIDTH = 64
const CANDIDATES = 12
const MARK_COLUMNS = 4

/** How far a balance column moves from each row that shows one to the next of its group (sizes only: either order, either sense). */
function balanceSteps(b: MoneyColumn, groups: string[]): number[] {
  const steps: number[] = []
  const last = new Map<string, number>()
  b.values.forEach((v, k) => {
    if (v === undefined) return
    const before = last.get(groups[k])
    if (before !== undefined) steps.push(Math.abs(v - before))
    last.set(groups[k], v)
  })
  return steps
}

/** The money columns' reading, decided into `m` (amount or debit/credit, indicator, balance); throws an ImportError when it cannot be told. */
export function chooseMoney(header: string[], m: ColumnMap, rows: string[][], o: MoneyOptions): MoneyChoice {
  const how: MoneyChoice['how'] = {}
  const notes: string[] = []
  // A bank file's columns are a few dozen: the evidence reads the first WIDTH (and the ones the header
  // or --map names), so that a file of thousands of columns costs no more than its size (parser-limits.md).
  const width = Math.min(WIDTH, Math.max(header.length, ...rows.map((r) => r.length)))
  const name = (i: number) => columnName(header, i)
  const moneyRole = new Map<number, Role>()
  for (const role of MONEY_ROLES) {
    const i = m[role as 'amount']
    if (typeof i === 'number' && i >= 0) moneyRole.set(i, role)
  }
  const other = otherColumns(m)
  const fileMark = fileDecimalMark(rows, width)
  const money = moneyColumns(rows, width, (i) => !other.has(i), fileMark)
  for (const i of moneyRole.keys()) if (i >= width) money.push(...moneyColumns(rows, i + 1, (k) => k === i, fileMark))
  const byColumn = new Map(money.map((c) => [c.column, c]))
  const marks = new Map<number, MarkColumn>()
  for (let i = 0; i < width; i++) {
    if (byColumn.has(i) || (other.has(i) && m.indicator !== i)) continue
    const mc = markColumn(rows, i)
    if (mc) marks.set(i, mc)
  }
  const named = namedReading(m)
  const fee = m.fee === undefined ? undefined : byColumn.get(m.fee)
  const n = rows.length
  const amountsOf = (r: Reading) => {
    const a = readingAmounts(r, byColumn, marks, n, fee)
    return o.invertSign ? a.map((v) => (v === undefined ? v : -v)) : a
  }
  const groups = rows.map((r) => `${cell(r, m.currency_code)}\u0000${cell(r, m.account)}`)
  const days = datesOf(rows, m.date)
  const orders = ordersOfDates(days ?? [])
  // Found by their values alone, amounts are written as amounts (decimals or a sign): a column of sequential
  // references (90123456, 90123457) moves by 1 a row, and a column of 1s would chain with it. At most
  // CANDIDATES of them are tried (every pair of them, with every other as the balance).
  const written = (c: MoneyColumn) => moneyRole.has(c.column) || c.amountLike >= c.filled * 0.9
  const tried = money
    .filter(written)
    .filter((c, k, all) => moneyRole.has(c.column) || all.slice(0, k).filter((x) => !moneyRole.has(x.column)).length < CANDIDATES)
  const dense = tried.filter((c) => c.filled >= n * 0.9)
  const userReading = o.given.has('amount') || o.given.has('debit') || o.given.has('credit')

  // The readings to try: the header's (or --map's), then every one the values allow, with --map too: a
  // balance that follows another reading refuses --map's.
  const readings: Array<{ reading: Reading; rank: number }> = []
  if (named) readings.push({ reading: named, rank: 2 })
  for (const c of dense) {
    if (c.column === m.balance || !written(c)) continue
    readings.push({ reading: { kind: 'amount', column: c.column, invert: false }, rank: 1 })
    if (!o.invertSign) readings.push({ reading: { kind: 'amount', column: c.column, invert: true }, rank: 0 })
    // Unsigned amounts beside a column of debit/credit marks: the marks give the sign (the chain cannot
    // see its first row's); amounts with signs of their own keep them.
    const unsigned = c.negative === 0
    for (const mk of [...marks.values()].slice(0, MARK_COLUMNS))
      readings.push({ reading: { kind: 'amount', column: c.column, invert: false, indicator: mk.column }, rank: unsigned ? 1.5 : 0.5 })
  }
  for (const a of tried)
    for (const b of tried)
      if (a.column !== b.column && takeTurns(a, b)) readings.push({ reading: { kind: 'pair', debit: a.column, credit: b.column }, rank: 1 })
  const balances = tried.filter(
    (c) => c.filled >= n * 0.5 && (m.balance === undefined || c.column === m.balance || !o.given.has('balance')),
  )
  const steps = new Map(balances.map((b) => [b.column, balanceSteps(b, groups)]))
  const combos: Combo[] = []
  for (const { reading, rank } of readings) {
    const amounts = amountsOf(reading)
    const sizes = new Set(amounts.map((v) => (v === undefined ? v : Math.abs(v))))
    for (const b of balances) {
      // Most steps of a running balance are the size of some amount of the reading: else it follows none of them.
      const moves = steps.get(b.column)!
      if (usesColumn(reading, b.column) || moves.filter((d) => sizes.has(d)).length * 5 < moves.length * 4) continue
      const sense: BalanceSense = o.liability && ownedMostly(b) ? 'owed' : 'held'
      const check = new ChainCheck(orders, sense)
      for (let k = 0; k < n; k++) check.add(k, amounts[k], b.values[k], groups[k], days?.[k] ?? undefined)
      const result = best(check.results())
      if (result && chains(result))
        combos.push({
          reading,
          balance: b.column,
          result,
          sense,
          amounts,
          rank: rank + (b.column === m.balance ? 0.25 : 0),
          covered: amounts.filter((v) => v !== undefined).length,
        })
    }
  }

  if (combos.length === 0) {
    if (o.given.has('balance'))
      throw new ImportError(
        `--map balance=${name(m.balance!)}: the column does not follow the amounts from row to row on most rows, so it is no running balance of them; check --map, or leave the balance out`,
      )
    if (m.balance !== undefined) {
      notes.push(`balance: ${JSON.stringify(name(m.balance))} does not follow the amounts from row to row, so it checks nothing`)
      delete m.balance
    }
    if (named) return { how, notes }
    return byValues(header, m, money, dense, how, notes)
  }

  combos.sort(
    (a, b) =>
      b.covered - a.covered ||
      score(b) - score(a) ||
      b.rank - a.rank ||
      CHAIN_ORDERS.indexOf(a.result.order) - CHAIN_ORDERS.indexOf(b.result.order),
  )
  const top = combos[0]
  // Two readings the balance follows as well, neither the header's nor as written before the other: refused. The balance after
  // each row is the norm, before it (ASN) the exception: a reading the balance follows only "before" yields.
  const after = (c: Combo) => c.result.order.startsWith('after')
  const rival = combos.find(
    (c) =>
      c.covered === top.covered &&
      score(c) === score(top) &&
      c.rank === top.rank &&
      after(c) === after(top) &&
      !sameAmounts(c.amounts, top.amounts),
  )
  if (rival)
    throw new ImportError(
      `the amounts can be read two ways, each followed by a running balance: ${readingWords(top.reading, name)} (${name(top.balance)} the balance) or ${readingWords(rival.reading, name)} (${name(rival.balance)}): choose one with ${readingFlags(top.reading, name)} or ${readingFlags(rival.reading, name)}`,
    )
  const { result } = top
  const all = result.held === result.pairs
  if (named && !sameAmounts(amountsOf(named), top.amounts)) {
    // --map is the user's word: the balance refuses it, or (--no-balance-check) leaves it standing unchecked.
    if (userReading && !o.noBalanceCheck) throw new ImportError(breakMessage(top, named, header, rows, true))
    if (userReading) {
      notes.push(
        `balance: ${name(top.balance)} follows ${readingWords(top.reading, name)}, not --map's reading; not checked (--no-balance-check)`,
      )
      return { how, notes }
    }
    notes.push(
      `amount: the header says ${readingWords(named, name)}, but ${name(top.balance)} is a running balance of ${readingWords(top.reading, name)} only, so that is how the rows are read`,
    )
  }
  if (!all && !o.noBalanceCheck) throw new ImportError(breakMessage(top, top.reading, header, rows, false))
  apply(m, top.reading)
  m.balance = top.balance
  const rowsWord = (k: number) => `${k + 1} row${k + 1 === 1 ? '' : 's'}`
  const evidence = `${name(top.balance)} is a running balance that chains on ${all ? `all ${rowsWord(result.pairs)}` : `${result.held + 1} of ${rowsWord(result.pairs)}`} (${orderWords(result.order)}${top.sense === 'owed' ? ', written as the amount owed' : ''})`
  for (const role of readingRoles(top.reading)) how[role] = o.noBalanceCheck ? 'told by the balance' : 'checked against the balance'
  how.balance = o.noBalanceCheck
    ? 'a running balance; not checked: --no-balance-check'
    : 'a running balance: every row is checked against it'
  notes.push(`${readingWords(top.reading, name)}: ${evidence}`)
  return {
    balance: {
      column: top.balance,
      order: result.order,
      sense: top.sense,
      pairs: result.pairs,
      held: result.held,
      check: !o.noBalanceCheck,
    },
    ...(top.reading.kind === 'amount' && top.reading.invert ? { invert: true as const } : {}),
    how,
    notes,
  }
}

/** Without a balance: one column of amounts, or two taking turns whose signs tell which is money out; else refused naming the flags. */
function byValues(
  header: string[],
  m: ColumnMap,
  money: MoneyColumn[],
  dense: MoneyColumn[],
  how: MoneyChoice['how'],
  notes: string[],
): MoneyChoice {
  const name = (i: number) => columnName(header, i)
  const amountLike = dense.filter((c) => c.amountLike >= c.filled * 0.9)
  const pairs: Array<[MoneyColumn, MoneyColumn]> = []
  for (let x = 0; x < money.length; x++)
    for (let y = x + 1; y < money.length; y++) if (takeTurns(money[x], money[y])) pairs.push([money[x], money[y]])
  if (amountLike.length === 1 && pairs.length === 0) {
    m.amount = amountLike[0].column
    how.amount = 'its values are amounts'
    return { how, notes }
  }
  if (pairs.length === 1 && amountLike.every((c) => c.column === pairs[0][0].column || c.column === pairs[0][1].column)) {
    const [a, b] = pairs[0]
    // Money out written with a minus beside money in without one says which is which.
    const out = a.usual === -1 && b.usual === 1 ? a : b.usual === -1 && a.usual === 1 ? b : undefined
    if (out) {
      const into = out === a ? b : a
      m.debit = out.column
      m.credit = into.column
      how.debit = `its values are amounts written with a minus, taking turns with ${name(into.column)}`
      how.credit = 'its values are amounts taking turns with the money out'
      return { how, notes }
    }
    throw new ImportError(
      `${name(a.column)} and ${name(b.column)} hold amounts on alternate rows and no column is a running balance of them, so nothing in the file says which is money out: give --map debit=${flagName(header, a.column)} --map credit=${flagName(header, b.column)}, or --map debit=${flagName(header, b.column)} --map credit=${flagName(header, a.column)}`,
    )
  }
  if (amountLike.length > 1 || pairs.length > 0) {
    const columns = [...new Set([...amountLike.map((c) => c.column), ...pairs.flat().map((c) => c.column)])].sort((x, y) => x - y)
    throw new ImportError(
      `cannot tell which column holds the amount: ${columns.map(name).join(', ')} all hold amounts and none is a running balance of another; give --map amount=Column (or --map debit=Column --map credit=Column)`,
    )
  }
  return { how, notes }
}

/** Columns a role other than money holds: never read as amounts. */
function otherColumns(m: ColumnMap): Set<number> {
  const s = new Set<number>()
  for (const role of ['date', 'posted_date', 'currency_code', 'account', 'reference', 'category', 'merchant_name', 'indicator'] as const) {
    const i = m[role]
    if (i !== undefined && i >= 0) s.add(i)
  }
  for (const i of m.description) if (i >= 0) s.add(i)
  return s
}

function namedReading(m: ColumnMap): Reading | undefined {
  if (m.amount !== undefined)
    return { kind: 'amount', column: m.amount, invert: false, ...(m.indicator !== undefined ? { indicator: m.indicator } : {}) }
  if (m.debit !== undefined && m.credit !== undefined) return { kind: 'pair', debit: m.debit, credit: m.credit }
  return undefined
}

function usesColumn(r: Reading, i: number): boolean {
  return r.kind === 'amount' ? r.column === i || r.indicator === i : r.debit === i || r.credit === i
}

function apply(m: ColumnMap, r: Reading): void {
  if (r.kind === 'amount') {
    delete m.debit
    delete m.credit
    m.amount = r.column
    if (r.indicator !== undefined) m.indicator = r.indicator
  } else {
    delete m.amount
    delete m.indicator
    m.debit = r.debit
    m.credit = r.credit
  }
}

function readingRoles(r: Reading): Role[] {
  return r.kind === 'pair' ? ['debit', 'credit'] : r.indicator !== undefined ? ['amount', 'indicator'] : ['amount']
}

/** A reading in the plan's words. */
function readingWords(r: Reading, name: (i: number) => string): string {
  if (r.kind === 'pair') return `money out <- ${name(r.debit)}, money in <- ${name(r.credit)}`
  const sign = r.indicator !== undefined ? ` with its sign from ${name(r.indicator)}` : r.invert ? ' with every sign flipped' : ''
  return `amount <- ${name(r.column)}${sign}`
}

/** The column as --map takes it: its number from 1 in a file without a header, else its name. */
function flagName(header: string[], i: number): string {
  const h = header[i]?.trim()
  return h ? (/[\s"]/.test(h) ? JSON.stringify(h) : h) : String(i + 1)
}

function readingFlags(r: Reading, name: (i: number) => string): string {
  if (r.kind === 'pair') return `--map debit=${name(r.debit)} --map credit=${name(r.credit)}`
  return `--map amount=${name(r.column)}${r.indicator !== undefined ? ` --map indicator=${name(r.indicator)}` : ''}${r.invert ? ' --invert-sign' : ''}`
}

/** Why the file is refused: the first row where the amounts and the balance part. */
function breakMessage(c: Combo, reading: Reading, header: string[], rows: string[][], given: boolean): string {
  const name = (i: number) => columnName(header, i)
  const b = c.result.firstBreak
  const at =
    b === undefined
      ? ''
      : ` (row ${b.line + 1} of the data${rows[b.line] ? `: ${JSON.stringify(rows[b.line].filter(Boolean).join(' ').slice(0, 60))}` : ''})`
  if (given)
    return `${name(c.balance)} is a running balance of ${readingWords(c.reading, name)}, not of ${readingWords(reading, name)} as --map says: give the --map that matches it, or --no-balance-check to import the rows as --map reads them unchecked`
  return `${name(c.balance)} is a running balance of ${readingWords(reading, name)} on ${c.result.held} of ${c.result.pairs} pairs of rows, but breaks${at}: nothing was imported; check that row, change the reading with --map, or give --no-balance-check to import the rows as read, unchecked`
}

function orderWords(order: ChainOrder): string {
  const [where, rows] = order.split(', ')
  return `the balance ${where} each row, the ${rows.replace(' first', ' row first')}`
}

/** The order that chains the most pairs, the balance after each row first on a tie. */
function best(results: ChainResult[]): ChainResult | undefined {
  return [...results].sort((a, b) => b.held - a.held || CHAIN_ORDERS.indexOf(a.order) - CHAIN_ORDERS.indexOf(b.order))[0]
}

const score = (c: Combo) => c.result.held / Math.max(1, c.result.pairs)

function sameAmounts(a: Array<number | undefined>, b: Array<number | undefined>): boolean {
  return a.length === b.length && a.every((v, k) => v === b[k])
}

/** A card's or loan's balance written as owed: most values 0 or above. */
function ownedMostly(b: MoneyColumn): boolean {
  return b.negative * 2 < b.filled
}

/** Each row's date, read with the format most of them fit (undefined when none is decided). */
function datesOf(rows: string[][], date: number | undefined): Array<string | null> | undefined {
  if (date === undefined) return undefined
  const detector = new DateDetector()
  for (const r of rows) detector.add(cell(r, date))
  const d = detector.decide()
  return d.ok ? rows.map((r) => parseDate(cell(r, date), d.format)) : undefined
}
