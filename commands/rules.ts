/** finctl rules list | get | create | update | delete | test | apply */
import type { Command } from 'commander'
import type { Client } from '../src/client/client.js'
import type { Context } from '../src/cli/context.js'
import { amountColumn, idColumn } from '../src/cli/columns.js'
import { note, printList, printRecord, type Column } from '../src/cli/output.js'
import { wholeNumber } from '../src/cli/flags.js'
import type { Runner } from '../src/cli/runner.js'
import { resolveListedId } from '../src/cli/short-ids.js'
import { confirmOrYes } from '../src/cli/prompts.js'
import { describeConditions } from '../src/domain/categorization/rule-words.js'
import type {
  CategorizationRule,
  RuleActions,
  RuleApplyResult,
  RuleConditions,
  RuleTestResult,
} from '../src/domain/categorization/rule-schemas.js'
import { AppError } from '../src/kernel/errors.js'

const PATH = '/api-v1/categorization-rules'
const one = (id: string) => `${PATH}/${encodeURIComponent(id)}`

/** The full id of the rule ID names: whole, or a unique prefix or suffix of 6+ hex digits (short-ids.ts). */
async function ruleId(ctx: Context, id: string): Promise<string> {
  const client = await ctx.client()
  return resolveListedId(
    'rule',
    id,
    () => api(client).list(),
    (r) => `${r.id}  ${r.name}`,
  )
}

function api(client: Client) {
  return {
    list: () => client.request<CategorizationRule[]>('GET', PATH).then((r) => r.data),
    get: (id: string) => client.request<CategorizationRule>('GET', one(id)).then((r) => r.data),
    create: (body: object) => client.request<CategorizationRule>('POST', PATH, { body }).then((r) => r.data),
    update: (id: string, body: object) => client.request<CategorizationRule>('PATCH', one(id), { body }).then((r) => r.data),
    delete: (id: string) => client.request<{ id: string; deleted: true }>('DELETE', one(id)).then((r) => r.data),
    test: (id: string, query: { since?: string; limit?: number }) =>
      client.request<RuleTestResult>('GET', `${one(id)}/test`, { query }).then((r) => r.data),
    apply: (id: string, body: { since?: string }) =>
      client.request<RuleApplyResult>('POST', `${one(id)}/apply`, { body }).then((r) => r.data),
  }
}

const SETTABLE = ['category', 'accounting_category', 'cash_flow_category', 'merchant_name', 'tags'] as const
const CONDITION_FLAGS =
  '--description-contains, --description-equals, --matches, --merchant-contains, --merchant-equals, --merchant-matches, --min-amount, --max-amount, --account or --currency'

function addConditionFlags(cmd: Command): Command {
  return cmd
    .option('--description-contains <text>', 'the description contains this text (any case)')
    .option('--description-equals <text>', 'the description is this text (any case)')
    .option('--matches <regex>', 'the description matches this RE2 regex (any case; anchor with ^ $)')
    .option('--merchant-contains <text>', 'the merchant contains this text (any case)')
    .option('--merchant-equals <text>', 'the merchant is this text (any case)')
    .option('--merchant-matches <regex>', 'the merchant matches this RE2 regex')
    .option('--min-amount <decimal>', 'amount at least this, signed: money out is negative')
    .option('--max-amount <decimal>', 'amount at most this (--max-amount -100: spending of 100 or more)')
    .option('--account <id>', 'only this bank account (bank_account_id)')
    .option('--currency <code>', 'only this currency')
    .option('--set <field=value...>', `${SETTABLE.join(', ')} (tags=a,b are added to the transaction's tags)`)
    .option('--name <name>', 'rule name (default: its conditions in words)')
    .option('--position <n>', 'run order, from 1 (default: last); later rules move down')
}

interface RuleOptions {
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

function conditionsOf(o: RuleOptions): RuleConditions | undefined {
  const c = {
    description_contains: o.descriptionContains,
    description_equals: o.descriptionEquals,
    description_regex: o.matches,
    merchant_contains: o.merchantContains,
    merchant_equals: o.merchantEquals,
    merchant_regex: o.merchantMatches,
    min_amount: o.minAmount,
    max_amount: o.maxAmount,
    bank_account_id: o.account,
    currency_code: o.currency?.toUpperCase(),
  }
  return Object.values(c).some((v) => v !== undefined) ? c : undefined
}

/** --set field=value ...: field names and category values also in kebab-case. */
function actionsOf(sets: string[] | undefined): RuleActions | undefined {
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

const shownValue = (v: unknown) => (v === null || v === undefined ? '(none)' : Array.isArray(v) ? v.join(',') || '(none)' : String(v))
const actionsText = (a: RuleActions) =>
  Object.entries(a)
    .map(([k, v]) => `${k}=${shownValue(v)}`)
    .join(' ')

const ruleColumns: Column<CategorizationRule>[] = [
  { header: '#', value: (r) => r.position, align: 'right' },
  idColumn((r: CategorizationRule) => r.id),
  { header: 'name', value: (r) => r.name },
  { header: 'active', value: (r) => (r.is_active ? 'yes' : 'no') },
  { header: 'conditions', value: (r) => describeConditions(r.conditions) },
  { header: 'actions', value: (r) => actionsText(r.actions) },
]

type Change = RuleTestResult['changes'][number]
const changeColumns: Column<Change>[] = [
  idColumn((c: Change) => c.transaction.id),
  { header: 'date', value: (c) => c.transaction.transaction_date },
  { header: 'description', value: (c) => c.transaction.description },
  amountColumn<Change>(
    'amount',
    (c) => c.transaction.amount,
    (c) => c.transaction.currency_code,
  ),
  {
    header: 'changes',
    value: (c) =>
      Object.entries(c.changes)
        .map(([f, { from, to }]) => `${f}: ${shownValue(from)} → ${shownValue(to)}`)
        .join('; '),
  },
]

/** One rule as a record: conditions and actions in words in a table, as sent in JSON. */
function printRule(ctx: Context, r: CategorizationRule): Promise<void> {
  const shown = ctx.printer.format === 'table' ? { ...r, conditions: describeConditions(r.conditions), actions: actionsText(r.actions) } : r
  return printRecord(ctx.io, ctx.printer, shown)
}

export function registerRules(program: Command, run: Runner): void {
  const rules = program
    .command('rules')
    .description('categorization rules: conditions on new and existing transactions that set their category and tags')
  rules
    .command('list')
    .description('list the rules in the order they run')
    .addHelpText('after', '\nExample:\n  finctl rules list --json\n')
    .action(run(runList))
  rules
    .command('get')
    .argument('<id>')
    .description('show a rule')
    .addHelpText('after', '\nExample:\n  finctl rules get $RULE --json\n')
    .action(run(runGet))
  addConditionFlags(rules.command('create').description('create a rule: at least one condition and one --set'))
    .addHelpText(
      'after',
      '\nFor each field, the first matching rule (lowest position) wins; tags of every matching rule are added.\n\nExamples:\n  finctl rules create --matches "^(aws|amazon web services)" --set category=Cloud --set accounting-category=operating-expenses\n  finctl rules create --merchant-contains uber --max-amount -0.01 --set category=Travel --set tags=travel,reimbursable --position 1\n',
    )
    .action(run(runCreate))
  addConditionFlags(
    rules
      .command('update')
      .argument('<id>')
      .description('change a rule: condition flags replace all its conditions, --set replaces all its actions'),
  )
    .option('--disable', 'stop running the rule on new transactions')
    .option('--enable', 'run the rule again')
    .addHelpText(
      'after',
      '\nExamples:\n  finctl rules update $RULE --position 1\n  finctl rules update $RULE --description-contains aws --currency USD --disable\n',
    )
    .action(run(runUpdate))
  rules
    .command('delete')
    .argument('<id>')
    .description('delete a rule')
    .option('--yes', 'do not ask to confirm')
    .addHelpText('after', '\nExample:\n  finctl rules delete $RULE --yes\n')
    .action(run(runDelete))
  rules
    .command('test')
    .argument('<id>')
    .description('show which existing transactions the rule would change, changing nothing')
    .option('--since <when>', 'transactions dated since: 90d (days before today) or YYYY-MM-DD', '90d')
    .option('--limit <n>', 'list at most this many changes (default 50, at most 1000)')
    .addHelpText('after', '\nExamples:\n  finctl rules test $RULE\n  finctl rules test $RULE --since 2026-01-01 --limit 500 --json\n')
    .action(run(runTest))
  rules
    .command('apply')
    .argument('<id>')
    .description('change the existing transactions the rule matches (audited, like tx bulk-update)')
    .option('--since <when>', 'transactions dated since: 90d (days before today) or YYYY-MM-DD', '90d')
    .option('--yes', 'do not ask to confirm')
    .addHelpText('after', '\nExamples:\n  finctl rules test $RULE --since 365d && finctl rules apply $RULE --since 365d --yes\n')
    .action(run(runApply))
}

async function runList(ctx: Context): Promise<number> {
  const data = await api(await ctx.client()).list()
  await printList(ctx.io, ctx.printer, data, ruleColumns, { empty: 'no rules yet: `finctl rules create`' })
  return 0
}

async function runGet(ctx: Context, _o: object, [id]: string[]): Promise<number> {
  await printRule(ctx, await api(await ctx.client()).get(await ruleId(ctx, id)))
  return 0
}

async function runCreate(ctx: Context, o: RuleOptions): Promise<number> {
  const conditions = conditionsOf(o)
  if (!conditions) throw new AppError('usage', `give at least one condition: ${CONDITION_FLAGS}`)
  const actions = actionsOf(o.set)
  if (!actions) throw new AppError('usage', 'give at least one --set field=value (for example --set category=Software)')
  const position = wholeNumber(o.position, '--position')
  const rule = await api(await ctx.client()).create({ name: o.name, position, conditions, actions })
  await printRule(ctx, rule)
  note(ctx.io, ctx.printer, `created rule ${rule.id} at position ${rule.position}`)
  return 0
}

async function runUpdate(ctx: Context, o: RuleOptions & { disable?: boolean; enable?: boolean }, [id]: string[]): Promise<number> {
  if (o.disable && o.enable) throw new AppError('usage', 'give --disable or --enable, not both')
  const patch = {
    name: o.name,
    position: wholeNumber(o.position, '--position'),
    conditions: conditionsOf(o),
    actions: actionsOf(o.set),
    is_active: o.disable ? false : o.enable ? true : undefined,
  }
  if (Object.values(patch).every((v) => v === undefined))
    throw new AppError('usage', `nothing to change: give --name, --position, --set, --disable, --enable or conditions (${CONDITION_FLAGS})`)
  const rule = await api(await ctx.client()).update(await ruleId(ctx, id), patch)
  await printRule(ctx, rule)
  note(ctx.io, ctx.printer, `updated rule ${rule.id}`)
  return 0
}

async function runDelete(ctx: Context, o: { yes?: boolean }, [id]: string[]): Promise<number> {
  await confirmOrYes(ctx, o.yes, `Delete rule ${id}?`)
  const r = await api(await ctx.client()).delete(await ruleId(ctx, id))
  await printRecord(ctx.io, ctx.printer, r)
  note(ctx.io, ctx.printer, `deleted rule ${r.id}`)
  return 0
}

async function runTest(ctx: Context, o: { since: string; limit?: string }, [id]: string[]): Promise<number> {
  const t = await api(await ctx.client()).test(await ruleId(ctx, id), { since: o.since, limit: wholeNumber(o.limit, '--limit') })
  if (ctx.printer.format === 'json') await printRecord(ctx.io, ctx.printer, t)
  else await printList(ctx.io, ctx.printer, t.changes, changeColumns, { empty: 'no transaction would change' })
  const shown = t.changes.length < t.would_change ? ` (listed ${t.changes.length}: --limit for more)` : ''
  note(
    ctx.io,
    ctx.printer,
    `rule "${t.rule.name}" since ${t.since}: ${t.scanned} transactions scanned, ${t.matched} match, ${t.would_change} would change${shown}`,
  )
  return 0
}

async function runApply(ctx: Context, o: { since: string; yes?: boolean }, [id]: string[]): Promise<number> {
  id = await ruleId(ctx, id)
  const rules = api(await ctx.client())
  let question = `Apply rule ${id} to its transactions since ${o.since}?`
  // On a terminal, say how many would change before asking (and ask nothing when none would).
  if (!o.yes && !ctx.globals.yes && ctx.canPrompt()) {
    const t = await rules.test(id, { since: o.since, limit: 1 })
    if (t.would_change === 0) {
      note(ctx.io, ctx.printer, `rule "${t.rule.name}" would change no transaction since ${t.since}: nothing to do`)
      return 0
    }
    question = `Apply rule "${t.rule.name}" to ${t.would_change} transaction(s) dated since ${t.since}?`
  }
  await confirmOrYes(ctx, o.yes, question)
  const r = await rules.apply(id, { since: o.since })
  await printRecord(ctx.io, ctx.printer, ctx.printer.format === 'table' ? { since: r.since, matched: r.matched, updated: r.updated } : r)
  note(ctx.io, ctx.printer, `updated ${r.updated} of ${r.matched} matching transaction(s) since ${r.since}`)
  return 0
}
