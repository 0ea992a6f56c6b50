/** What the verbs of `finctl rules` share: the requests, the condition flags and their options, a rule's columns. */
import { collect } from '../../src/cli/flags.js'
import { typedAmount } from '../../src/cli/money.js'
import type { Command } from 'commander'
import type { Client } from '../../src/client/client.js'
import { ALL_RULES } from '../../src/client/rules.js'
import { amountColumn, idColumn } from '../../src/cli/columns.js'
import { printRecord, type Column } from '../../src/cli/output.js'
import { resolveListedId } from '../../src/cli/short-ids.js'
import type { VerbHost } from '../../src/cli/runner.js'
import { describeConditions } from '../../src/domain/categorization/rule-words.js'
import type { CategorizationRule, RuleActions, RuleConditions, RuleTestResult } from '../../src/domain/categorization/rule-schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { count, quoteName } from '../../src/kernel/words.js'

const ALL = ALL_RULES

/** The flags `rules test` and `rules apply` share. */
export interface RunFlags {
  since: string
  all?: boolean
  onlyEmpty?: boolean
}

export function addRunFlags(cmd: Command): Command {
  return cmd
    .option('--all', 'all active rules in their order, each row taking, field by field, what the first matching rule sets')
    .option('--only-empty', 'fill only fields a transaction leaves empty: a category already set stays (tags are added either way)')
    .option('--since <when>', 'transactions dated since: 90d (days before today) or YYYY-MM-DD', '90d')
}

/** The rule an ID names, or `all` with --all (one or the other). */
export async function ruleOrAll(host: VerbHost, given: string | undefined, all: boolean | undefined): Promise<string> {
  if (all && given !== undefined) throw new AppError('usage', `give a rule's ID or --all, not both`)
  if (all) return ALL
  if (given === undefined) throw new AppError('usage', `give a rule's ID, or --all for every active rule in order`)
  return ruleId(host, given)
}

/** What ran, in words: rule 'aws' (its name quoted once), or the 3 active rules in order. */
export function whatRan(t: RuleTestResult): string {
  return t.rule ? `rule ${quoteName(t.rule.name)}` : t.rules === 0 ? 'no active rule' : `the ${count(t.rules, 'active rule')} in order`
}

/** The window as the user gave it and as dates: "since 2026-08-28 (--since 90d: the last 90 days)". */
export function windowWords(since: string, given: string): string {
  return given === since ? `since ${since}` : `since ${since} (--since ${given}: ${count(Number(given.slice(0, -1)), 'day')} before today)`
}

/** The full id of the rule ID names: whole, or a unique prefix or suffix of 6+ hex digits (short-ids.ts). */
export async function ruleId(host: VerbHost, id: string): Promise<string> {
  const client = await host.client()
  return resolveListedId(
    'rule',
    id,
    () => api(client).list(),
    (r) => `${r.id}  ${r.name}`,
  )
}

/** The rules' calls (src/client/rules.ts). */
export function api(client: Client) {
  return client.rules
}

const SETTABLE = ['category', 'accounting_category', 'cash_flow_category', 'merchant_name', 'tags'] as const
export const CONDITION_FLAGS =
  '--description-contains, --description-equals, --matches, --merchant-contains, --merchant-equals, --merchant-matches, --min-amount, --max-amount, --account or --currency'

export function addConditionFlags(cmd: Command): Command {
  return cmd
    .option('--description-contains <text>', 'the description contains this text (any case)')
    .option('--description-equals <text>', 'the description is this text (any case)')
    .option('--matches <regex>', 'the description matches this RE2 regex (any case; anchor with ^ $)')
    .option('--merchant-contains <text>', 'the merchant contains this text (any case)')
    .option('--merchant-equals <text>', 'the merchant is this text (any case)')
    .option('--merchant-matches <regex>', 'the merchant matches this RE2 regex')
    .option('--min-amount <decimal>', 'amount at least this, signed: money out is negative')
    .option('--max-amount <decimal>', 'amount at most this (--max-amount -100: spending of 100 or more)')
    .option('--account <id>', 'only this bank account: its name or id (bank_account_id)')
    .option('--currency <code>', 'only this currency')
    .option('--set <field=value>', `${SETTABLE.join(', ')}, one per --set (tags=a,b are added to the transaction's tags)`, collect)
    .option('--name <name>', 'rule name (default: its conditions in words)')
    .option('--position <n>', 'run order, from 1 (default: last); later rules move down')
}

export interface RuleOptions {
  descriptionContains?: string
  descriptionEquals?: string
  matches?: string
  merchantContains?: string
  merchantEquals?: string
  merchantMatches?: string
  minAmount?: string
  maxAmount?: string
  account?: string
  currency?: string
  set?: string[]
  name?: string
  position?: string
}

export function conditionsOf(o: RuleOptions): RuleConditions | undefined {
  const c = {
    description_contains: o.descriptionContains,
    description_equals: o.descriptionEquals,
    description_regex: o.matches,
    merchant_contains: o.merchantContains,
    merchant_equals: o.merchantEquals,
    merchant_regex: o.merchantMatches,
    min_amount: typedAmount(o.minAmount, '--min-amount'),
    max_amount: typedAmount(o.maxAmount, '--max-amount'),
    bank_account_id: o.account,
    currency_code: o.currency?.toUpperCase(),
  }
  return Object.values(c).some((v) => v !== undefined) ? c : undefined
}

/** --set field=value ...: field names and category values also in kebab-case. */
export function actionsOf(sets: string[] | undefined): RuleActions | undefined {
  if (!sets?.length) return undefined
  const actions: Record<string, unknown> = {}
  for (const s of sets) {
    const eq = s.indexOf('=')
    if (eq < 1) throw new AppError('usage', `--set ${s}: write it as field=value`)
    const field = s.slice(0, eq).trim().replace(/-/g, '_')
    const value = s.slice(eq + 1).trim()
    if (!(SETTABLE as readonly string[]).includes(field))
      throw new AppError('usage', `--set: a rule cannot set ${field} (use ${SETTABLE.join(', ')})`)
    if (!value) throw new AppError('usage', `--set ${field}= needs a value`)
    if (field === 'tags')
      actions.tags = value
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean)
    else actions[field] = field.endsWith('_category') ? value.replace(/-/g, '_') : value
  }
  return actions as RuleActions
}

export const shownValue = (v: unknown) =>
  v === null || v === undefined ? '(none)' : Array.isArray(v) ? v.join(',') || '(none)' : String(v)
const actionsText = (a: RuleActions) =>
  Object.entries(a)
    .map(([k, v]) => `${k}=${shownValue(v)}`)
    .join(' ')

export const ruleColumns: Column<CategorizationRule>[] = [
  { header: '#', value: (r) => r.position, align: 'right' },
  idColumn((r: CategorizationRule) => r.id),
  { header: 'name', value: (r) => r.name },
  { header: 'active', value: (r) => (r.is_active ? 'yes' : 'no') },
  { header: 'conditions', value: (r) => describeConditions(r.conditions) },
  { header: 'actions', value: (r) => actionsText(r.actions) },
]

/** One rule as a record: conditions and actions in words in a table, as sent in JSON. */
export function printRule(ctx: VerbHost, r: CategorizationRule): Promise<void> {
  const shown = ctx.printer.format === 'table' ? { ...r, conditions: describeConditions(r.conditions), actions: actionsText(r.actions) } : r
  return printRecord(ctx.io, ctx.printer, shown)
}

type Change = RuleTestResult['changes'][number]
const changeText = (c: Change, fields: (f: string) => boolean) =>
  Object.entries(c.changes)
    .filter(([f]) => fields(f))
    .map(([f, { from, to }]) => `${f}: ${shownValue(from)} → ${shownValue(to)}`)
    .join('; ')

/** The rows a run would change: id, date, description, amount, the category now → after, the other fields. */
export function changeColumns(changes: Change[]): Column<Change>[] {
  const others = changes.some((c) => Object.keys(c.changes).some((f) => f !== 'category'))
  return [
    idColumn((c: Change) => c.transaction.id),
    { header: 'date', value: (c) => c.transaction.transaction_date },
    { header: 'description', value: (c) => c.transaction.description },
    amountColumn<Change>(
      'amount',
      (c) => c.transaction.amount,
      (c) => c.transaction.currency_code,
    ),
    {
      header: 'category',
      value: (c) => {
        const ch = c.changes.category
        return ch ? `${shownValue(ch.from)} → ${shownValue(ch.to)}` : (c.transaction.category ?? '')
      },
    },
    ...(others
      ? [
          {
            header: 'other changes',
            value: (c: Change) => changeText(c, (f) => f !== 'category'),
          },
        ]
      : []),
  ]
}
