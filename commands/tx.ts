/** finctl tx list | get | create | update | delete | bulk-update */
import type { Command } from 'commander'
import { AppError } from '../src/kernel/errors.js'
import { currencyExponent, isCurrency } from '../src/kernel/currencies.js'
import { parseAmount } from '../src/kernel/money.js'
import { isIsoDate } from '../src/kernel/vocabulary.js'
import type { CreateTransactionRequest } from '../src/domain/schemas.js'
import type { Context } from '../src/cli/context.js'
import { transactionColumns } from '../src/cli/columns.js'
import { accountsFor, firstRows, resolveAccountId, resolveTransactionId, resolveTransactionIds, shortId } from '../src/cli/short-ids.js'
import { today } from '../src/cli/format.js'
import { note, printRecord } from '../src/cli/output.js'
import { promptSelect, promptText, valueOrPrompt } from '../src/cli/prompts.js'
import type { Runner } from '../src/cli/runner.js'
import { showAmount } from '../src/cli/money.js'
import { addListFilters, hasFilter, listQuery, type ListFilterOptions } from '../src/cli/tx-filters.js'
import { amountTotal } from '../src/cli/totals.js'
import { readIds } from '../src/cli/ids.js'
import { confirmOrYes } from '../src/cli/prompts.js'
import { printList, streamList } from '../src/cli/output.js'
import { registerTxImport } from './tx-import.js'
import { registerTxReview } from './tx-review.js'
import type { Transaction, UpdateTransactionRequest, BulkUpdateRequest } from '../src/domain/schemas.js'

export function registerTx(program: Command, run: Runner): void {
  const tx = program.command('tx').description('transactions')
  addListFilters(tx.command('list').description('list transactions (one page; --all for every page)'))
    .addHelpText(
      'after',
      '\nExamples:\n  finctl tx list --from 2026-01-01 --to 2026-03-31 --category Rent\n  finctl tx list --all --output csv > transactions.csv\n',
    )
    .action(run(runList))
  tx.command('get')
    .argument('<id>')
    .description('show a transaction with its history')
    .addHelpText('after', '\nExample:\n  finctl tx get $TX --json\n')
    .action(run(runGet))
  tx.command('update')
    .argument('<id>')
    .description('change a transaction')
    .option('--account <id>', 'move to another bank account: its name or id (bank_account_id)')
    .option('--date <date>', 'transaction date (transaction_date)')
    .option('--posted-date <date>', 'posted date')
    .option('--description <text>', 'description')
    .option('--amount <decimal>', 'signed amount')
    .option('--currency <code>', 'currency (with --exchange-rate unless the base currency)')
    .option('--exchange-rate <decimal>', 'rate to the base currency')
    .option('--category <name>', 'category ("" to clear)')
    .option('--accounting-category <name>', 'accounting category')
    .option('--cash-flow-category <name>', 'cash-flow category')
    .option('--merchant-name <name>', 'merchant')
    .option('--status <status>', 'posted or void (pending -> posted -> void)')
    .option('--reconciled <bool>', 'true or false (is_reconciled)')
    .option('--tags <list>', 'replace the tags (comma-separated; "" for none)')
    .option('--force', 'accept a date outside the date window (1970-01-01 to a year ahead) or an amount of 0')
    .addHelpText(
      'after',
      '\nExamples:\n  finctl tx update $TX --category Software --accounting-category operating_expenses\n  finctl tx update $TX --status posted --reconciled true\n',
    )
    .action(run(runUpdate))
  tx.command('delete')
    .argument('<id>')
    .description('delete a transaction')
    .option('--yes', 'do not ask to confirm')
    .addHelpText('after', '\nExample:\n  finctl tx delete $TX --yes\n')
    .action(run(runDelete))
  addListFilters(
    tx
      .command('bulk-update')
      .description('change many transactions at once: all or nothing per 1,000')
      .option('--ids <list>', 'comma-separated transaction ids')
      .option('--ids-file <path>', 'a file of transaction ids, one per line ("-" for stdin)')
      .option(
        '--set <field=value...>',
        'category, accounting_category, cash_flow_category, merchant_name, status, is_reconciled, tags, add_tags, remove_tags',
      )
      .option('--dry-run', 'show what would change and change nothing')
      .option('--yes', 'do not ask to confirm'),
    { paging: false },
  )
    .addHelpText(
      'after',
      '\nExamples:\n  finctl tx bulk-update --search "AWS" --set category=Software --set accounting_category=operating_expenses --yes\n  finctl tx bulk-update --ids-file ids.txt --set add_tags=reviewed --dry-run\n',
    )
    .action(run(runBulkUpdate))
  tx.command('create')
    .description('create a transaction (prompts for what is missing on a terminal)')
    .option('--account <id>', 'bank account: its name or id (bank_account_id)')
    .option('--date <date>', 'transaction date YYYY-MM-DD (transaction_date)')
    .option('--description <text>', 'description')
    .option('--amount <decimal>', 'signed decimal amount: -149.99 for money out')
    .option('--currency <code>', 'ISO 4217 currency (default: the account currency)')
    .option('--posted-date <date>', 'YYYY-MM-DD')
    .option('--exchange-rate <decimal>', "rate to the base currency (default: the company's rate of the date, finctl rates)")
    .option('--category <name>', 'category')
    .option('--accounting-category <name>', 'accounting category')
    .option('--cash-flow-category <name>', 'operations, investing, financing or transfer')
    .option('--merchant-name <name>', 'merchant')
    .option('--tags <list>', 'comma-separated tags')
    .option('--idempotency-key <key>', 'send an Idempotency-Key header')
    .option('--force', 'accept a date outside the date window (1970-01-01 to a year ahead) or an amount of 0')
    .addHelpText(
      'after',
      '\nExample:\n  finctl tx create --account $ACCOUNT --date 2026-11-20 --description "Office chairs" --amount -349.90 --category Furniture\n',
    )
    .action(run(runCreate))
  registerTxImport(tx, run)
  registerTxReview(tx, run)
}

interface CreateOptions {
  account?: string
  date?: string
  description?: string
  amount?: string
  currency?: string
  postedDate?: string
  exchangeRate?: string
  category?: string
  accountingCategory?: string
  cashFlowCategory?: string
  merchantName?: string
  tags?: string
  idempotencyKey?: string
  force?: boolean
}

async function runCreate(ctx: Context, o: CreateOptions): Promise<number> {
  const client = await ctx.client()
  if (o.account !== undefined) o.account = await resolveAccountId(client, o.account)
  const account = await valueOrPrompt(ctx, o.account, '--account', 'the bank account', async () => {
    const { data } = await client.accounts.list({ status: 'active' })
    if (data.length === 0) throw new AppError('usage', 'there are no bank accounts yet: create one with `finctl accounts create`')
    return promptSelect(
      ctx,
      'Bank account',
      data.map((a) => ({
        name: `${a.name} (${a.currency_code}, ${showAmount(a.current_balance, a.currency_code, { group: true, code: true })})`,
        value: a.id,
      })),
    )
  })
  const date = await valueOrPrompt(ctx, o.date, '--date', 'the transaction date', () =>
    promptText(ctx, 'Date (YYYY-MM-DD)', {
      default: today(ctx.io.now()),
      validate: (v) => (isIsoDate(v) ? true : 'write the date as YYYY-MM-DD'),
    }),
  )
  const description = await valueOrPrompt(ctx, o.description, '--description', 'a description', () =>
    promptText(ctx, 'Description', { validate: (v) => (v.trim() ? true : 'required') }),
  )
  const amount = await valueOrPrompt(ctx, o.amount, '--amount', 'the amount', async () => {
    const currency = o.currency ?? (await client.accounts.get(account)).currency_code
    const exp = isCurrency(currency) ? currencyExponent(currency) : 2
    return promptText(ctx, `Amount in ${currency} (negative for money out)`, {
      validate: (v) => {
        const r = parseAmount(v, exp)
        return r.ok ? true : r.message
      },
    })
  })
  const body: CreateTransactionRequest = {
    bank_account_id: account,
    transaction_date: date,
    description,
    amount: amount.replace(/^\u2212/, '-'),
    currency_code: o.currency?.toUpperCase(),
    posted_date: o.postedDate,
    exchange_rate: o.exchangeRate,
    category: o.category,
    accounting_category: o.accountingCategory as CreateTransactionRequest['accounting_category'],
    cash_flow_category: o.cashFlowCategory as CreateTransactionRequest['cash_flow_category'],
    merchant_name: o.merchantName,
    tags:
      o.tags === undefined
        ? undefined
        : o.tags
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
    force: o.force || undefined,
  }
  const created = await client.transactions.create(body, { idempotencyKey: o.idempotencyKey })
  if (ctx.printer.format === 'table') {
    await printRecord(ctx.io, ctx.printer, created, [
      ...transactionColumns.filter((c) => !c.ttyOnly).map((c) => [c.header, c.value] as [string, (r: typeof created) => unknown]),
      ['account', (t) => t.bank_account_id],
      ['tags', (t) => t.tags.join(',')],
    ])
  } else await printRecord(ctx.io, ctx.printer, created)
  note(ctx.io, ctx.printer, `created transaction ${created.id}`)
  return 0
}

async function runList(ctx: Context, o: ListFilterOptions & { all?: boolean }): Promise<number> {
  const client = await ctx.client()
  const query = listQuery(o, ctx)
  await accountsFor(ctx, client, query)
  if (o.all) {
    // Progress on a terminal's stderr, unless rows stream to the same terminal (a table is printed at the end).
    const { ProgressLine } = await import('../src/cli/progress.js')
    const bar = new ProgressLine(
      ctx.io,
      ctx.io.isStderrTTY && !ctx.printer.quiet && (!ctx.io.isStdoutTTY || ctx.printer.format === 'table'),
    )
    const started = Date.now()
    const pages = (async function* () {
      let done = 0
      try {
        for await (const page of client.pages<Transaction>('/api-v1/transactions', { ...query, limit: query.limit ?? 1000 })) {
          done += page.data.length
          bar.update({ done, total: page.pagination?.total ?? done, elapsedMs: Date.now() - started })
          yield page.data
        }
      } finally {
        bar.end()
      }
    })()
    await streamList(ctx.io, ctx.printer, pages, transactionColumns, amountTotal)
    return 0
  }
  const page = await client.transactions.list(query)
  await printList(ctx.io, ctx.printer, page.data, transactionColumns, { footer: amountTotal(page.data), empty: 'no transactions match' })
  if (page.pagination?.has_more && ctx.printer.format === 'table') {
    note(ctx.io, ctx.printer, `showing ${page.data.length} of ${page.pagination.total}: add --all for every row, or --limit N`)
  }
  return 0
}

async function runGet(ctx: Context, _o: object, [id]: string[]): Promise<number> {
  const client = await ctx.client()
  const t = await client.transactions.get(await resolveTransactionId(client, id))
  if (ctx.printer.format !== 'table') {
    await printRecord(ctx.io, ctx.printer, t)
    return 0
  }
  const { history, bank_account, statement, ...rest } = t
  await printRecord(ctx.io, ctx.printer, {
    ...rest,
    amount: showAmount(t.amount, t.currency_code, { group: ctx.io.isStdoutTTY, code: true }),
    bank_account: `${bank_account.name} (${bank_account.id})`,
    statement: statement ? `${statement.file_name} (${statement.id})` : '',
  })
  await printList(ctx.io, ctx.printer, history, [
    { header: 'when', value: (e) => e.at },
    { header: 'who', value: (e) => e.actor },
    { header: 'action', value: (e) => e.action },
    {
      header: 'changes',
      value: (e) =>
        Object.entries(e.changes)
          .map(([f, c]) => `${f}: ${JSON.stringify(c.before)} -> ${JSON.stringify(c.after)}`)
          .join('; '),
    },
  ])
  return 0
}

interface UpdateOptions {
  force?: boolean
  account?: string
  date?: string
  postedDate?: string
  description?: string
  amount?: string
  currency?: string
  exchangeRate?: string
  category?: string
  accountingCategory?: string
  cashFlowCategory?: string
  merchantName?: string
  status?: string
  reconciled?: string
  tags?: string
}

function parseBool(text: string, flag: string): boolean {
  if (/^(true|yes|1)$/i.test(text)) return true
  if (/^(false|no|0)$/i.test(text)) return false
  throw new AppError('usage', `${flag} must be true or false`)
}

const emptyToNull = (v: string | undefined) => (v === undefined ? undefined : v === '' ? null : v)
const splitList = (v: string) =>
  v
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)

async function runUpdate(ctx: Context, o: UpdateOptions, [id]: string[]): Promise<number> {
  const patch: UpdateTransactionRequest = {
    bank_account_id: o.account,
    transaction_date: o.date,
    posted_date: o.postedDate,
    description: o.description,
    amount: o.amount?.replace(/^\u2212/, '-'),
    currency_code: o.currency?.toUpperCase(),
    exchange_rate: o.exchangeRate,
    category: emptyToNull(o.category),
    accounting_category: emptyToNull(o.accountingCategory) as UpdateTransactionRequest['accounting_category'],
    cash_flow_category: emptyToNull(o.cashFlowCategory) as UpdateTransactionRequest['cash_flow_category'],
    merchant_name: emptyToNull(o.merchantName),
    status: o.status as UpdateTransactionRequest['status'],
    is_reconciled: o.reconciled === undefined ? undefined : parseBool(o.reconciled, '--reconciled'),
    tags: o.tags === undefined ? undefined : splitList(o.tags),
  }
  if (Object.values(patch).every((v) => v === undefined))
    throw new AppError('usage', 'nothing to change: give at least one field flag (see finctl tx update --help)')
  if (o.force) patch.force = true
  const client = await ctx.client()
  if (patch.bank_account_id !== undefined) patch.bank_account_id = await resolveAccountId(client, patch.bank_account_id)
  const t = await client.transactions.update(await resolveTransactionId(client, id), patch)
  // A table shows the amount in fixed decimals with its currency, as tx create and tx get do.
  await printRecord(
    ctx.io,
    ctx.printer,
    ctx.printer.format === 'table' ? { ...t, amount: showAmount(t.amount, t.currency_code, { group: ctx.io.isStdoutTTY, code: true }) } : t,
  )
  note(ctx.io, ctx.printer, `updated transaction ${t.id}`)
  return 0
}

async function runDelete(ctx: Context, o: { yes?: boolean }, [id]: string[]): Promise<number> {
  const client = await ctx.client()
  // What is deleted, in the question: its date, amount and description (the id alone says nothing).
  const t = await client.transactions.get(await resolveTransactionId(client, id))
  await confirmOrYes(
    ctx,
    o.yes,
    `Delete transaction ${shortId(t.id)} of ${t.transaction_date}, ${showAmount(t.amount, t.currency_code, { group: true, code: true })}, "${t.description}"?`,
  )
  const r = await client.transactions.delete(t.id)
  await printRecord(ctx.io, ctx.printer, r)
  note(ctx.io, ctx.printer, `deleted transaction ${r.id}`)
  return 0
}

const BULK_FIELDS = [
  'category',
  'accounting_category',
  'cash_flow_category',
  'merchant_name',
  'status',
  'is_reconciled',
  'tags',
  'add_tags',
  'remove_tags',
] as const

function parseSets(sets: string[] | undefined): BulkUpdateRequest['updates'] {
  if (!sets?.length) throw new AppError('usage', 'give at least one --set field=value (for example --set category=Rent)')
  const updates: Record<string, unknown> = {}
  for (const s of sets) {
    const eq = s.indexOf('=')
    if (eq < 1) throw new AppError('usage', `--set ${s}: write it as field=value`)
    const field = s.slice(0, eq).trim().replace(/-/g, '_')
    const value = s.slice(eq + 1)
    if (!(BULK_FIELDS as readonly string[]).includes(field))
      throw new AppError('usage', `--set: ${field} cannot be bulk-updated (use ${BULK_FIELDS.join(', ')})`)
    if (field === 'is_reconciled') updates[field] = parseBool(value, '--set is_reconciled')
    else if (field === 'tags' || field === 'add_tags' || field === 'remove_tags') updates[field] = splitList(value)
    else updates[field] = value === '' && field !== 'status' ? null : value
  }
  return updates as BulkUpdateRequest['updates']
}

const BULK_CHUNK = 1000
async function runBulkUpdate(
  ctx: Context,
  o: ListFilterOptions & { ids?: string; idsFile?: string; set?: string[]; dryRun?: boolean; yes?: boolean },
): Promise<number> {
  const updates = parseSets(o.set)
  const query = listQuery(o, ctx)
  const sources = [o.ids !== undefined, o.idsFile !== undefined, hasFilter(query)].filter(Boolean).length
  if (sources !== 1)
    throw new AppError(
      'usage',
      'choose the transactions with exactly one of --ids, --ids-file or list filters (--category, --from, --search, ...)',
    )
  const client = await ctx.client()
  await accountsFor(ctx, client, query)

  // Filters are resolved first, so the plan shows exactly the rows and the amount they touch.
  // Explicit ids go as they are: the service checks them all or nothing (one GET each would spend the rate limit).
  let targets: Array<Pick<Transaction, 'id'> & Partial<Transaction>>
  if (o.ids !== undefined || o.idsFile !== undefined) {
    const typed = [...new Set(o.ids !== undefined ? splitList(o.ids) : await readIds(ctx.io, o.idsFile!))]
    if (typed.length === 0) throw new AppError('usage', 'no transaction ids given')
    const ids = [...new Set(await resolveTransactionIds(client, typed, o.ids !== undefined ? '--ids' : '--ids-file'))]
    targets = ids.map((id) => ({ id }))
  } else {
    const rows: Transaction[] = []
    for await (const page of client.pages<Transaction>('/api-v1/transactions', { ...query, limit: 1000 })) rows.push(...page.data)
    targets = rows
  }
  if (targets.length === 0) {
    note(ctx.io, ctx.printer, 'no transactions match: nothing to change')
    return 0
  }
  const full = targets.every((t) => t.amount !== undefined) ? (targets as Transaction[]) : undefined
  const total = full ? amountTotal(full) : undefined
  const summary = `${targets.length} transaction(s)${total ? `, total ${total[3]}` : ''}: set ${Object.entries(updates)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : v}`)
    .join(', ')}`
  if (o.dryRun) {
    note(ctx.io, { quiet: false }, `dry run: would change ${summary}`)
    if (full) await printList(ctx.io, ctx.printer, full, transactionColumns, { footer: total })
    else await printList(ctx.io, ctx.printer, targets, [{ header: 'id', value: (t) => t.id }])
    return 0
  }
  if (targets.length > BULK_CHUNK)
    note(
      ctx.io,
      ctx.printer,
      `${targets.length} transactions go in ${Math.ceil(targets.length / BULK_CHUNK)} requests of at most ${BULK_CHUNK}; each is all or nothing`,
    )
  // The rows shown in the question are fetched only when it is asked (--yes asks nothing).
  const asked = !(o.yes || ctx.globals.yes)
  await confirmOrYes(ctx, o.yes, `Change ${summary}?${asked ? await firstRows(client, targets) : ''}`)
  let updated = 0
  const changed: Transaction[] = []
  for (let i = 0; i < targets.length; i += BULK_CHUNK) {
    const ids = targets.slice(i, i + BULK_CHUNK).map((t) => t.id)
    try {
      const r = await client.transactions.bulkUpdate({ transaction_ids: ids, updates })
      updated += r.updated
      changed.push(...r.transactions)
    } catch (err) {
      if (updated > 0 && err instanceof AppError) {
        ctx.io.stderr.write(
          `error: ${err.message}\n  ${updated} of ${targets.length} transactions were updated before this request failed\n`,
        )
        return 8
      }
      throw err
    }
  }
  await printList(ctx.io, ctx.printer, changed, transactionColumns)
  note(ctx.io, ctx.printer, `updated ${updated} transaction(s)`)
  return 0
}
