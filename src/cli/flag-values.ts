/**
 * Flag values the CLI can judge without the service (docs/cli.md "Flag values"): dates, months,
 * amounts, currency codes, whole numbers in a range and the values of an enumeration. Each is checked as the command is
 * parsed, before any request: a value that is not one is a usage error (exit 2) whose message names
 * the flag and the value and says what is wrong with it (`--date 2026-11-31: November has 30 days`,
 * `--status postd: did you mean posted?`). What only the service can judge (an id, a closed month,
 * an amount's decimals in its account's currency) stays the service's (exit 6).
 */
import type { Command } from 'commander'
import { CURRENCY_CODES, isCurrency } from '../kernel/currencies.js'
import { BUDGET_INTERVALS } from '../domain/budgets/months.js'
import { INTERVALS as RECURRING_INTERVALS } from '../domain/recurring/schedule.js'
import { INTERVALS as REPORT_INTERVALS } from '../domain/reports/periods.js'
import { AppError } from '../kernel/errors.js'
import { nearNames } from '../kernel/near-names.js'
import { parsePeriod, periodFormsText } from '../kernel/period-words.js'
import { ROLES } from '../kernel/roles.js'
import { STATEMENT_FORMATS, STATEMENT_STATUSES } from '../kernel/statement-formats.js'
import { printableLine } from '../kernel/terminal-text.js'
import {
  ACCOUNT_STATUSES,
  ACCOUNT_TYPES,
  ACCOUNTING_CATEGORIES,
  CASH_FLOW_CATEGORIES,
  daysInMonth,
  EXPORT_FORMATS,
  PROPOSAL_STATES,
  TRANSACTION_STATUSES,
} from '../kernel/vocabulary.js'
import { commaProblem, typedAmount } from './money.js'

export type FlagKind = 'date' | 'month' | 'amount' | 'currency' | { choices: readonly string[] } | { whole: { min: number; max: number } }

/** A recurring item's intervals as its flags write them: last-working-day, the API's last_working_day. */
export const RECURRING_INTERVAL_WORDS: readonly string[] = RECURRING_INTERVALS.map((i) => i.replaceAll('_', '-'))

const whole = (min: number, max: number): FlagKind => ({ whole: { min, max } })

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const SORTS = ['transaction_date', '-transaction_date', 'amount', '-amount', 'created_at', '-created_at']

/**
 * The kind of each flag by its name, and where one name means several things, by the command's path
 * too (`accounts list --status` is an account's status, `tx list --status` a transaction's).
 */
const KINDS: Record<string, FlagKind | Record<string, FlagKind>> = {
  '--date': 'date',
  '--posted-date': 'date',
  '--opening-balance-date': 'date',
  '--month': 'month',
  '--amount': 'amount',
  '--min-amount': 'amount',
  '--max-amount': 'amount',
  '--opening-balance': 'amount',
  '--currency': 'currency',
  '--accounting-category': { choices: ACCOUNTING_CATEGORIES },
  '--cash-flow-category': { choices: CASH_FLOW_CATEGORIES },
  '--role': { choices: ROLES },
  '--reconciled': { 'tx update': { choices: ['true', 'false'] } },
  '--sort': { choices: SORTS },
  '--interval': {
    'reports cash-flow': { choices: REPORT_INTERVALS },
    'reports budget': { choices: BUDGET_INTERVALS },
    'recurring add': { choices: RECURRING_INTERVAL_WORDS },
  },
  // Budgets are by month; the forecast and the recurring items are by day.
  '--from': {
    'budgets set': 'month',
    'budgets list': 'month',
    'budgets delete': 'month',
    forecast: 'date',
    'recurring detect': 'date',
  },
  '--to': { 'budgets set': 'month', 'budgets list': 'month', 'budgets delete': 'month' },
  '--start': { 'recurring add': 'date' },
  '--ends-on': 'date',
  '--monthly': 'amount',
  '--fail-below': 'amount',
  '--days': { forecast: whole(1, 1000) },
  '--date-tolerance': { 'recurring detect': whole(0, 7), 'recurring add': whole(0, 7) },
  '--amount-tolerance': { 'recurring detect': whole(0, 50), 'recurring add': whole(0, 50) },
  '--min-occurrences': { 'recurring detect': whole(3, 100) },
  '--kind': { 'imports list': { choices: ['csv', 'statement', 'seed'] } },
  '--state': { 'approvals list': { choices: [...PROPOSAL_STATES, 'all'] } },
  '--type': {
    'accounts list': { choices: ACCOUNT_TYPES },
    'accounts create': { choices: ACCOUNT_TYPES },
    'accounts update': { choices: ACCOUNT_TYPES },
  },
  '--status': {
    'tx list': { choices: TRANSACTION_STATUSES },
    'tx update': { choices: TRANSACTION_STATUSES },
    'tx bulk-update': { choices: TRANSACTION_STATUSES },
    'tx bulk-delete': { choices: TRANSACTION_STATUSES },
    'accounts transactions': { choices: TRANSACTION_STATUSES },
    'accounts list': { choices: ACCOUNT_STATUSES },
    'accounts update': { choices: ACCOUNT_STATUSES },
    'keys list': { choices: ['active', 'revoked', 'expired', 'all'] },
    'statements list': { choices: STATEMENT_STATUSES },
  },
  '--format': {
    export: { choices: EXPORT_FORMATS },
    'rates import': { choices: ['ecb', 'plain'] },
    'statements upload': { choices: STATEMENT_FORMATS },
  },
  '--log-level': { serve: { choices: ['debug', 'info', 'warn', 'error', 'silent'] } },
  '--require-documents': { 'policy set': { choices: ['on', 'off'] } },
}

/** The kind of `flag` under the command `path` ("tx list"); undefined when the CLI does not judge it. */
export function flagKind(path: string, flag: string): FlagKind | undefined {
  const k = KINDS[flag]
  if (k === undefined || typeof k === 'string' || 'choices' in k || 'whole' in k) return k as FlagKind | undefined
  return (k as Record<string, FlagKind>)[path]
}

/** Why `text` is not a date written YYYY-MM-DD, in words; undefined when it is one. */
export function dateProblem(text: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (!m) return 'write the date as YYYY-MM-DD (2026-10-31)'
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (month < 1 || month > 12) return `there is no month ${month}: write the date as YYYY-MM-DD`
  const days = daysInMonth(year, month)
  if (day < 1 || day > days) return `${MONTHS[month - 1]}${month === 2 ? ` ${year}` : ''} has ${days} days`
  return undefined
}

/** Why `text` is not a month written YYYY-MM; undefined when it is one. */
export function monthProblem(text: string): string | undefined {
  const m = /^(\d{4})-(\d{2})$/.exec(text)
  if (!m) return 'write the month as YYYY-MM (2026-10)'
  const month = Number(m[2])
  return month < 1 || month > 12 ? `there is no month ${month}: write the month as YYYY-MM` : undefined
}

/** Why `text` is no value of `choices`: the nearest, or the list. */
function choiceProblem(text: string, choices: readonly string[]): string | undefined {
  if (choices.includes(text)) return undefined
  const near = nearNames(choices, text, 2).filter((n) => n !== text)
  const list = `(${choices.join(', ')})`
  return near.length ? `did you mean ${near.join(' or ')}? ${list}` : `not one of ${choices.join(', ')}`
}

/** What is wrong with `value` as a value of `kind`; undefined when nothing is. */
export function valueProblem(kind: FlagKind, value: string): string | undefined {
  if (kind === 'date') return dateProblem(value)
  if (kind === 'month') return monthProblem(value)
  if (kind === 'currency') {
    if (isCurrency(value.toUpperCase())) return undefined
    const near = nearNames(CURRENCY_CODES, value.toUpperCase(), 2)
    return `not an ISO 4217 currency code${near.length ? ` (did you mean ${near.join(' or ')}?)` : ' (USD, EUR, GBP, ...)'}`
  }
  if (kind === 'amount') {
    const t = value.trim().replace(/^\u2212/, '-')
    const problem = commaProblem(t)
    if (problem && typedAmount(t) === t) return problem
    return /^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(typedAmount(t)) ? undefined : 'not a decimal amount (write it as -149.99)'
  }
  if ('whole' in kind) {
    const { min, max } = kind.whole
    return /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max ? undefined : `not a whole number from ${min} to ${max}`
  }
  return choiceProblem(value, kind.choices)
}

/** The day a --from (first day) or --to (last day) value names; a usage error naming the flag otherwise. */
export function periodDay(text: string, flag: '--from' | '--to', now: Date): { date: string; relative: boolean } {
  const p = parsePeriod(text, now)
  // A date written as one that is none (2026-02-30) says why; anything else lists the forms.
  const why = /^\d{4}-\d{2}-\d{2}$/.test(text) ? dateProblem(text) : /^\d{4}-\d{2}$/.test(text) ? monthProblem(text) : undefined
  if (!p && why) throw new AppError('usage', `${flag} ${printableLine(text)}: ${why}`)
  if (!p) throw new AppError('usage', `${flag} "${text}" is not a date or a period; the forms it takes:\n${periodFormsText()}`)
  return { date: flag === '--from' ? p.range.from : p.range.to, relative: p.relative }
}

/** A --from and a --to that name a period ending before it starts: the usage error naming both. */
export function judgeRange(from: string | undefined, to: string | undefined, now: Date): void {
  const f = from === undefined ? undefined : periodDay(from, '--from', now)
  const t = to === undefined ? undefined : periodDay(to, '--to', now)
  if (f && t && f.date > t.date)
    throw new AppError(
      'usage',
      `--from ${printableLine(from!)} --to ${printableLine(to!)}: the period would end on ${t.date}, before it starts on ${f.date}`,
    )
}

/**
 * Judge every flag of `cmd` the command line gave (not a default) whose kind the CLI knows: throws
 * the usage error of the first that is wrong. Run before the command's action.
 */
export function judgeFlagValues(cmd: Command, path: string): void {
  for (const o of cmd.options) {
    if (!o.long || !(o.required || o.optional)) continue
    const kind = flagKind(path, o.long)
    if (!kind) continue
    const attr = o.attributeName()
    if (cmd.getOptionValueSource(attr) !== 'cli') continue
    const v = cmd.getOptionValue(attr) as unknown
    for (const value of Array.isArray(v) ? v : [v]) {
      if (typeof value !== 'string') continue
      const problem = valueProblem(kind, value)
      if (problem) throw new AppError('usage', `${o.long} ${printableLine(value)}: ${problem}`)
    }
  }
  const given = (name: string) => (cmd.getOptionValueSource(name) === 'cli' ? (cmd.getOptionValue(name) as string) : undefined)
  if (cmd.options.some((o) => o.long === '--from') && cmd.options.some((o) => o.long === '--to'))
    judgeRange(given('from'), given('to'), new Date())
}
