/**
 * A chart of accounts for the filing formats (DATEV, SIE, SAF-T; docs/exporting.md, "A chart of
 * accounts"): the number each bank account and each transaction's other side is posted to, from an
 * accounts map. The precedence is the journals': a cash-flow category the map numbers, else the
 * category, else the accounting category; a transaction with no category takes
 * `uncategorized_income` or `uncategorized_expense` by its sign. Nothing falls back to a default
 * account: `unmapped` names every bank account and category of the period without a number, and the
 * export refuses them all at once (exit 6) before it writes a byte.
 */
import { type AccountsMapFile, entryNumber, type MapEntry } from '../accounts-map-schema.js'
import type { ExportGroups, OpeningBalances } from '../schemas.js'
import { AppError } from '../../../kernel/errors.js'
import type { BankAccountInfo } from './accounts-map.js'
import { minorOf } from './amounts.js'
import { type ChartFormat, FORMAT_NAME } from './format.js'

export interface ChartAccount {
  number: string
  name: string
  /** SAF-T's GroupingCategory and GroupingCode. */
  grouping?: { category: string; code: string }
}

/** What a transaction's other side is posted by. */
export interface Categorized {
  category: string | null
  accounting_category: string | null
  cash_flow_category: string | null
  /** The sign decides an uncategorized transaction's account: > 0 income, else expense. */
  amount: number
}

const ACCOUNTING_NAMES: Record<string, string> = {
  revenue: 'Revenue',
  other_income: 'Other income',
  cost_of_goods_sold: 'Cost of goods sold',
  operating_expenses: 'Operating expenses',
  payroll: 'Payroll',
  taxes: 'Taxes',
  interest: 'Interest',
  capital_expenditure: 'Fixed assets',
  loan: 'Loans',
  equity: 'Equity',
  transfer: 'Transfers',
  other_expense: 'Other expenses',
}

/** The Norwegian standard accounts' grouping (naeringsspesifikasjon) by the account's first two digits. */
function norwegianGrouping(number: string): { category: string; code: string } | undefined {
  if (!/^\d{4}$/.test(number)) return undefined
  const n = Number(number.slice(0, 2))
  const category =
    n <= 13
      ? 'balanseverdiForAnleggsmiddel'
      : n <= 19
        ? 'balanseverdiForOmloepsmiddel'
        : n === 20
          ? 'egenkapital'
          : n <= 22
            ? 'langsiktigGjeld'
            : n <= 29
              ? 'kortsiktigGjeld'
              : n <= 31
                ? 'salgsinntekt'
                : n <= 39
                  ? 'annenDriftsinntekt'
                  : n <= 49
                    ? 'varekostnad'
                    : n <= 59
                      ? 'loennskostnad'
                      : n <= 79
                        ? 'annenDriftskostnad'
                        : n === 80
                          ? 'finansinntekt'
                          : n <= 82
                            ? 'finanskostnad'
                            : n <= 87
                              ? 'skattekostnad'
                              : 'resultatDisponeringForSAF-T'
  return { category, code: number }
}

export class ChartMap {
  private readonly accountLength: number | undefined

  constructor(
    readonly format: ChartFormat,
    readonly file: AccountsMapFile,
    private readonly banks: BankAccountInfo[],
  ) {
    this.accountLength = format === 'datev' ? (file.datev?.account_length ?? 4) : undefined
  }

  private account(entry: MapEntry | undefined, fallbackName: string): ChartAccount | undefined {
    const number = entryNumber(entry)
    if (number === undefined) return undefined
    const o = typeof entry === 'object' ? entry : undefined
    const grouping =
      o?.grouping_category && o.grouping_code
        ? { category: o.grouping_category, code: o.grouping_code }
        : this.file.chart === 'no-standard'
          ? norwegianGrouping(number)
          : undefined
    return { number, name: o?.name ?? fallbackName, grouping }
  }

  private bankEntry(a: BankAccountInfo): MapEntry | undefined {
    return this.file.bank_accounts?.[a.id] ?? this.file.bank_accounts?.[a.name]
  }

  bank(id: string): ChartAccount | undefined {
    const a = this.banks.find((b) => b.id === id)
    return a ? this.account(this.bankEntry(a), a.name) : undefined
  }

  /** The account of a transaction's other side, and what named it (for a message). */
  counter(t: Categorized): { account: ChartAccount | undefined; by: string } {
    const m = this.file
    if (t.cash_flow_category) {
      const a = this.account(m.cash_flow_categories?.[t.cash_flow_category], ACCOUNTING_NAMES[t.cash_flow_category] ?? t.cash_flow_category)
      if (a) return { account: a, by: `cash-flow category ${t.cash_flow_category}` }
    }
    if (t.category !== null) {
      const a = this.account(m.categories?.[t.category], t.category)
      if (a) return { account: a, by: `category ${t.category}` }
    }
    if (t.accounting_category) {
      const a = this.account(
        m.accounting_categories?.[t.accounting_category],
        ACCOUNTING_NAMES[t.accounting_category] ?? t.accounting_category,
      )
      if (a) return { account: a, by: `accounting category ${t.accounting_category}` }
    }
    if (t.category === null && !t.accounting_category) {
      return t.amount > 0
        ? { account: this.account(m.uncategorized_income, 'Uncategorized income'), by: 'uncategorized_income' }
        : { account: this.account(m.uncategorized_expense, 'Uncategorized expenses'), by: 'uncategorized_expense' }
    }
    return { account: undefined, by: '' }
  }

  get opening(): ChartAccount | undefined {
    return this.account(this.file.opening_balances, 'Opening balances')
  }

  /**
   * Everything of the period that has no number: each bank account with transactions or a balance,
   * each category (with its accounting category), uncategorized income or expense; and, for DATEV, a
   * number longer than the account length. Each named once.
   */
  unmapped(groups: ExportGroups['groups'], balances: string[], needsOpening: boolean): string[] {
    const out = new Set<string>()
    const length = (a: ChartAccount, what: string) => {
      if (this.accountLength !== undefined && a.number.length > this.accountLength)
        out.add(`${what}: ${a.number} is longer than datev.account_length (${this.accountLength})`)
    }
    for (const id of new Set([...groups.map((g) => g.bank_account_id), ...balances])) {
      const b = this.banks.find((x) => x.id === id)
      const a = this.bank(id)
      if (!a) out.add(`bank account "${b?.name ?? id}" (bank_accounts)`)
      else length(a, `bank account "${b?.name ?? id}"`)
    }
    for (const g of groups) {
      const uncategorized = g.category === null && !g.accounting_category
      // An uncategorized group may hold money in and out: each side present needs its account.
      const amounts = uncategorized ? [...(g.base_in > 0 ? [1] : []), ...(g.base_out < 0 || g.base_in <= 0 ? [-1] : [])] : [0]
      for (const amount of amounts) {
        const { account, by } = this.counter({ ...g, amount })
        if (account) length(account, by)
        else if (g.category !== null)
          out.add(`category "${g.category}"${g.accounting_category ? ` (accounting category ${g.accounting_category})` : ''} (categories)`)
        else if (g.accounting_category) out.add(`accounting category ${g.accounting_category} (accounting_categories)`)
        else out.add(by)
      }
    }
    if (needsOpening) {
      const o = this.opening
      if (!o) out.add('opening_balances (the account the balances before the period are brought against)')
      else length(o, 'opening_balances')
    }
    return [...out]
  }

  /** Refuse the export when anything has no number: every such thing named (exit 6). */
  requireMapped(groups: ExportGroups['groups'], balances: string[], needsOpening: boolean, sections: string[] = []): void {
    const missing = [...sections, ...this.unmapped(groups, balances, needsOpening)]
    if (!missing.length) return
    throw new AppError(
      'validation_error',
      `${FORMAT_NAME[this.format]} needs these in the accounts map (--accounts-map FILE, or finctl export map set): ${missing.join('; ')}`,
      { details: missing.map((m) => ({ path: 'accounts_map', message: `missing: ${m}` })) },
    )
  }
}

/** The fiscal year that holds `day` (YYYY-MM-DD), from its first day MM-DD. */
export function fiscalYear(day: string, start = '01-01'): { start: string; end: string } {
  const year = Number(day.slice(0, 4))
  const first = `${day.slice(5) >= start ? year : year - 1}-${start}`
  const next = `${Number(first.slice(0, 4)) + 1}-${start}`
  const end = new Date(Date.parse(`${next}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
  return { start: first, end }
}

/** A filing format's file holds one fiscal year: refuse a period across two (exit 2). */
export function oneFiscalYear(format: ChartFormat, from: string, to: string, start?: string): { start: string; end: string } {
  const fy = fiscalYear(from, start)
  if (to > fy.end)
    throw new AppError(
      'usage',
      `a ${FORMAT_NAME[format]} file holds one fiscal year: ${from} to ${to} runs past ${fy.end} (fiscal_year_start ${start ?? '01-01'}); export each fiscal year on its own`,
    )
  return fy
}

/** Each bank account's balance in the base currency at the period's start, and the opening balances that count later in it. */
export interface Positions {
  /** Bank account id -> base minor units at the start of `from`. */
  start: Map<string, bigint>
  /** Accounts whose opening date falls in the period: the opening brought in on that day. */
  later: Array<{ date: string; bankId: string; base: bigint }>
}

export function positions(o: OpeningBalances, format: ChartFormat, base: string, to: string): Positions {
  const start = new Map<string, bigint>()
  const later: Positions['later'] = []
  const noRate: string[] = []
  for (const a of o.accounts) {
    let sum = 0n
    for (const b of a.before) sum += BigInt(minorOf(b.base_amount, base))
    const counts = a.opening_balance_date === null || a.opening_balance_date <= o.from
    const opening = a.opening_base === null ? null : BigInt(minorOf(a.opening_base, base))
    if (opening === null && a.opening_balance !== 0 && (counts || (a.opening_balance_date ?? '') <= to))
      noRate.push(`"${a.name}" (${a.currency_code})`)
    if (counts) sum += opening ?? 0n
    else if (a.opening_balance_date! <= to && opening !== null) {
      let held = 0n
      for (const h of a.held) held += BigInt(minorOf(h.base_amount, base))
      if (opening - held !== 0n) later.push({ date: a.opening_balance_date!, bankId: a.id, base: opening - held })
    }
    start.set(a.id, sum)
  }
  if (noRate.length)
    throw new AppError(
      'validation_error',
      `${FORMAT_NAME[format]} is in the base currency (${base}): the opening balance of ${noRate.join(', ')} has no rate yet (docs/money.md)`,
    )
  later.sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0))
  return { start, later }
}
