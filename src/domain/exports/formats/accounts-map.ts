/**
 * Which account of the journal each finctl thing is posted against: a bank account -> an asset (or
 * liability) account, a transaction's category -> an income or expense account. The defaults are
 * below; `--accounts-map FILE` (JSON or YAML, the shape of AccountsMapFile) changes any of them.
 *
 * Precedence for a transaction: its cash-flow category when the map names it (transfers, by
 * default: `Assets:Transfers`, as the reports keep them apart), else its category when the map
 * names it, else its accounting category's account with the category as a sub-account, else
 * Income or Expenses by the sign of the amount.
 */
import { AppError } from '../../../kernel/errors.js'
import { AccountsMapFile, entryAccount, type MapEntry } from '../accounts-map-schema.js'
import type { ExportTransaction } from '../schemas.js'
import { accountNameProblem, component } from './names.js'
import type { JournalFormat } from './format.js'

export { AccountsMapFile }

/** What the journals read of a map: account names only (numbers are for the chart formats). */
interface JournalNames {
  bank_accounts: Record<string, string>
  categories: Record<string, string>
  accounting_categories: Record<string, string>
  cash_flow_categories: Record<string, string>
  category_subaccounts: boolean
  uncategorized_income: string
  uncategorized_expense: string
  opening_balances: string
}

function names(entries: Record<string, MapEntry> | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(entries ?? {})) {
    const a = entryAccount(v)
    if (a !== undefined) out[k] = a
  }
  return out
}

export const DEFAULT_MAP: JournalNames = {
  bank_accounts: {},
  categories: {},
  accounting_categories: {
    revenue: 'Income:Revenue',
    other_income: 'Income:Other-Income',
    cost_of_goods_sold: 'Expenses:Cost-Of-Goods-Sold',
    operating_expenses: 'Expenses:Operating-Expenses',
    payroll: 'Expenses:Payroll',
    taxes: 'Expenses:Taxes',
    interest: 'Expenses:Interest',
    capital_expenditure: 'Assets:Fixed-Assets',
    loan: 'Liabilities:Loans',
    equity: 'Equity:Owner',
    transfer: 'Assets:Transfers',
    other_expense: 'Expenses:Other-Expenses',
  },
  cash_flow_categories: { transfer: 'Assets:Transfers' },
  category_subaccounts: true,
  uncategorized_income: 'Income:Uncategorized',
  uncategorized_expense: 'Expenses:Uncategorized',
  opening_balances: 'Equity:Opening-Balances',
}

const BANK_ROOT: Record<string, string> = {
  credit_card: 'Liabilities:Credit-Card',
  loan: 'Liabilities:Loan',
  cash: 'Assets:Cash',
  investment: 'Assets:Investments',
}

export interface BankAccountInfo {
  id: string
  name: string
  account_type: string
}

/** The map of one export: the defaults under the file's entries, checked for the format. */
export class AccountsMap {
  private readonly map: JournalNames
  private readonly banks = new Map<string, string>()
  /** Names made from finctl's names, and what each was made from: two things never share one silently. */
  private readonly madeFrom = new Map<string, string>()

  constructor(
    private readonly format: JournalFormat,
    file: AccountsMapFile = {},
    private readonly accounts: BankAccountInfo[] = [],
  ) {
    const m = DEFAULT_MAP
    this.map = {
      bank_accounts: names(file.bank_accounts),
      categories: names(file.categories),
      accounting_categories: { ...m.accounting_categories, ...names(file.accounting_categories) },
      cash_flow_categories: { ...m.cash_flow_categories, ...names(file.cash_flow_categories) },
      category_subaccounts: file.category_subaccounts ?? m.category_subaccounts,
      uncategorized_income: entryAccount(file.uncategorized_income) ?? m.uncategorized_income,
      uncategorized_expense: entryAccount(file.uncategorized_expense) ?? m.uncategorized_expense,
      opening_balances: entryAccount(file.opening_balances) ?? m.opening_balances,
    }
    this.check(file)
  }

  /** Every name the file gives must be valid in the format, and every bank account it names must exist. */
  private check(file: AccountsMapFile): void {
    const problems: Array<{ path: string; message: string }> = []
    const each = (section: string, entries: Record<string, MapEntry> | undefined) => {
      for (const [k, v] of Object.entries(names(entries))) {
        const p = accountNameProblem(v, this.format)
        if (p) problems.push({ path: `${section}.${k}`, message: `"${v}" ${p}` })
      }
    }
    each('bank_accounts', file.bank_accounts)
    each('categories', file.categories)
    each('accounting_categories', file.accounting_categories)
    each('cash_flow_categories', file.cash_flow_categories)
    for (const k of ['uncategorized_income', 'uncategorized_expense', 'opening_balances'] as const) {
      const v = entryAccount(file[k])
      const p = v === undefined ? undefined : accountNameProblem(v, this.format)
      if (p) problems.push({ path: k, message: `"${v}" ${p}` })
    }
    for (const k of Object.keys(file.bank_accounts ?? {})) {
      if (!this.accounts.some((a) => a.id === k || a.name === k))
        problems.push({ path: `bank_accounts.${k}`, message: 'is no bank account of this company (give its id or name)' })
    }
    if (problems.length)
      throw new AppError('usage', `--accounts-map: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`, { details: problems })
  }

  /** A name made from finctl's text: the same name for the same source, another for another. */
  private made(name: string, source: string): string {
    let out = name
    for (let n = 2; ; n++) {
      const owner = this.madeFrom.get(out)
      if (owner === undefined) {
        this.madeFrom.set(out, source)
        return out
      }
      if (owner === source) return out
      out = `${name}-${n}`
    }
  }

  bank(account: BankAccountInfo): string {
    let name = this.banks.get(account.id)
    if (name === undefined) {
      name =
        this.map.bank_accounts[account.id] ??
        this.map.bank_accounts[account.name] ??
        this.made(`${BANK_ROOT[account.account_type] ?? 'Assets:Bank'}:${component(account.name)}`, `bank:${account.id}`)
      this.banks.set(account.id, name)
    }
    return name
  }

  get openingBalances(): string {
    return this.map.opening_balances
  }

  /** The account a transaction's other side is posted to. */
  counter(t: Pick<ExportTransaction, 'category' | 'accounting_category' | 'cash_flow_category' | 'amount'>): string {
    const m = this.map
    const byFlow = t.cash_flow_category ? m.cash_flow_categories[t.cash_flow_category] : undefined
    if (byFlow) return byFlow
    if (t.category !== null && m.categories[t.category]) return m.categories[t.category]
    const byAccounting = t.accounting_category ? m.accounting_categories[t.accounting_category] : undefined
    const parent = byAccounting ?? (t.category === null ? (t.amount > 0 ? m.uncategorized_income : m.uncategorized_expense) : undefined)
    if (parent && (t.category === null || !m.category_subaccounts)) return parent
    const root = parent ?? (t.amount > 0 ? 'Income' : 'Expenses')
    const category = t.category as string
    return this.made(`${root}:${component(category)}`, `category:${root}:${category}`)
  }
}

/** Read an accounts map file: YAML for .yaml / .yml, JSON otherwise. */
export async function parseAccountsMap(text: string, path: string, label = '--accounts-map'): Promise<AccountsMapFile> {
  let raw: unknown
  try {
    if (/\.ya?ml$/i.test(path)) {
      // yaml is CommonJS for Node: bundled, its functions are on the default export.
      const mod = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') }
      raw = (mod.parse ?? mod.default!.parse)(text)
    } else raw = JSON.parse(text)
  } catch (e) {
    throw new AppError(
      'usage',
      `${label}: ${path} is not valid ${/\.ya?ml$/i.test(path) ? 'YAML' : 'JSON'}: ${(e as Error).message.split('\n')[0]}`,
    )
  }
  const r = AccountsMapFile.safeParse(raw ?? {})
  if (!r.success) {
    const lines = r.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`)
    throw new AppError('usage', `${label}: ${path}: ${lines.join('; ')}`)
  }
  return r.data
}
