/**
 * The read tools (docs/agents.md): each a request or two of the service through the client, as a
 * command makes them, answered as a page with a cursor; marked read-only for the client.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import type { Client } from '../client/client.js'
import { resolveAccountId, resolveTransactionId, shortId } from '../cli/short-ids.js'
import type { BankAccount, Transaction, TransactionDetail } from '../domain/schemas.js'
import { ACCOUNTING_CATEGORIES, TRANSACTION_STATUSES } from '../kernel/vocabulary.js'
import { bounded, DATA_NOTICE, TOOL_TIMEOUT_MS } from './answer.js'

/** A tool's client: each of its requests says which tool made it (the request log's `via`), ended by the call's deadline. */
export type ClientFor = (tool: string, signal: AbortSignal) => Client

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD')
const limit = (max: number, dflt: number) =>
  z.number().int().min(1).max(max).optional().describe(`rows in this page, 1 to ${max} (default ${dflt})`)
const cursor = z.string().max(500).optional().describe('next_cursor of the previous page, to read the next one')
const account = z.string().max(200).optional().describe('a bank account: its id, 6+ hex digits of it, or its name')

/** A transaction as a search lists it: its full id and the short one people type, text as quoted data. */
export const listed = (t: Transaction, names?: Record<string, string>) => ({
  id: t.id,
  short_id: shortId(t.id),
  date: t.transaction_date,
  description: t.description,
  amount: t.amount,
  currency: t.currency_code,
  category: t.category,
  accounting_category: t.accounting_category,
  merchant: t.merchant_name,
  status: t.status,
  account: names?.[t.bank_account_id] ?? t.bank_account_id,
})

const accountRow = (a: BankAccount) => ({
  id: a.id,
  short_id: shortId(a.id),
  name: a.name,
  type: a.account_type,
  currency: a.currency_code,
  status: a.status,
  current_balance: a.current_balance,
})

/** Rows of a whole list, paged here: `cursor` is the offset of the next row. */
function page<T>(rows: T[], size: number, at: string | undefined) {
  const from = at === undefined ? 0 : Number(at)
  const start = Number.isInteger(from) && from >= 0 ? from : 0
  const next = start + size < rows.length ? String(start + size) : null
  return { rows: rows.slice(start, start + size), next_cursor: next, has_more: next !== null, total: rows.length }
}

export function registerReadTools(server: McpServer, clientFor: ClientFor): void {
  const tool = <T>(name: string, work: (c: Client, args: T) => Promise<unknown>) => {
    return (args: T, extra: { signal?: AbortSignal }) =>
      bounded(TOOL_TIMEOUT_MS, extra.signal, (signal) => work(clientFor(name, signal), args))
  }

  server.registerTool(
    'search_transactions',
    {
      title: 'Search transactions',
      description: `Find transactions of the company's books, newest first, a page at a time. All filters are optional and combine (AND): text (in the description or merchant), amounts (min_amount/max_amount, signed decimals in the transaction's currency: money out is negative), dates (from/to, inclusive, YYYY-MM-DD), account, category, status. Each row has its full id and a short_id (its last 8 hex digits), either of which get_transaction takes. Read has_more and pass next_cursor as cursor for the next page. ${DATA_NOTICE}`,
      inputSchema: {
        text: z.string().max(200).optional().describe('words to find in the description or merchant (any case)'),
        min_amount: z.string().max(40).optional().describe('lowest amount, e.g. "-500" or "10.50"'),
        max_amount: z.string().max(40).optional().describe('highest amount'),
        from: date.optional().describe('first date, inclusive'),
        to: date.optional().describe('last date, inclusive'),
        account,
        category: z.string().max(100).optional().describe('the category, exactly (e.g. "Travel")'),
        accounting_category: z.enum(ACCOUNTING_CATEGORIES).optional(),
        status: z.enum(TRANSACTION_STATUSES).optional(),
        limit: limit(100, 25),
        cursor,
      },
      annotations: { title: 'Search transactions', ...READ },
    },
    tool('search_transactions', async (c, a: Record<string, string | number | undefined>) => {
      const bank = typeof a.account === 'string' ? await resolveAccountId(c, a.account, 'account') : undefined
      const r = await c.transactions.list({
        q: a.text,
        min_amount: a.min_amount,
        max_amount: a.max_amount,
        from: a.from,
        to: a.to,
        bank_account_id: bank,
        category: a.category,
        accounting_category: a.accounting_category,
        status: a.status,
        sort: '-transaction_date',
        limit: a.limit ?? 25,
        cursor: a.cursor,
        include_account_names: true,
      })
      return {
        transactions: r.data.map((t) => listed(t, r.accountNames)),
        next_cursor: r.pagination?.next_cursor ?? null,
        has_more: r.pagination?.has_more ?? false,
      }
    }),
  )

  server.registerTool(
    'get_transaction',
    {
      title: 'Get a transaction',
      description: `One transaction in full: its fields, its account, its notes and its latest history (who changed what, newest last; at most 20 entries). transaction_id is the full id or 6 or more of its hex digits (a short_id from search_transactions). ${DATA_NOTICE}`,
      inputSchema: { transaction_id: z.string().min(6).max(64).describe('the full id, or 6+ hex digits of it from its start or end') },
      annotations: { title: 'Get a transaction', ...READ },
    },
    tool('get_transaction', async (c, a: { transaction_id: string }) => {
      const id = await resolveTransactionId(c, a.transaction_id, 'transaction_id')
      const t: TransactionDetail = await c.transactions.get(id)
      const { history, notes, ...fields } = t
      return {
        transaction: { ...fields, short_id: shortId(t.id) },
        notes: notes ?? [],
        history: history.slice(-20),
        history_entries: history.length,
      }
    }),
  )

  server.registerTool(
    'list_accounts',
    {
      title: 'List bank accounts',
      description: `The company's bank accounts: id, short_id, name, type, currency, status and current balance (in the account's currency). Other tools take an account by id, short id or name. ${DATA_NOTICE}`,
      inputSchema: { limit: limit(200, 50), cursor },
      annotations: { title: 'List bank accounts', ...READ },
    },
    tool('list_accounts', async (c, a: { limit?: number; cursor?: string }) => {
      const all = (await c.accounts.list()).data.map(accountRow)
      const p = page(all, a.limit ?? 50, a.cursor)
      return { accounts: p.rows, next_cursor: p.next_cursor, has_more: p.has_more, total: p.total }
    }),
  )

  const range = {
    from: date.optional().describe('first day, inclusive (default: the first day of the month 12 months ago)'),
    to: date.optional().describe('last day, inclusive (default: the last day of last month)'),
    account,
  }
  const rangeQuery = async (c: Client, a: { from?: string; to?: string; account?: string }) => ({
    from: a.from,
    to: a.to,
    bank_account_id: a.account === undefined ? undefined : await resolveAccountId(c, a.account, 'account'),
  })

  server.registerTool(
    'report_summary',
    {
      title: 'Summary report',
      description: `Income, expenses and net over a period in the company's base currency, by accounting category, with the top merchants and each account's balance; amounts are exact decimals. ${DATA_NOTICE}`,
      inputSchema: { ...range, top: z.number().int().min(1).max(50).optional().describe('how many top merchants (default 10)') },
      annotations: { title: 'Summary report', ...READ },
    },
    tool('report_summary', async (c, a: { from?: string; to?: string; account?: string; top?: number }) => ({
      report: await c.reports.summary({ ...(await rangeQuery(c, a)), top: a.top }),
    })),
  )

  server.registerTool(
    'report_cash_flow',
    {
      title: 'Cash-flow report',
      description: `Money in and out per period (day, week, month or quarter) in the base currency, split by cash-flow category (operations, investing, financing). ${DATA_NOTICE}`,
      inputSchema: { ...range, interval: z.enum(['day', 'week', 'month', 'quarter']).optional().describe('period length (default month)') },
      annotations: { title: 'Cash-flow report', ...READ },
    },
    tool('report_cash_flow', async (c, a: { from?: string; to?: string; account?: string; interval?: string }) => ({
      report: await c.reports.cashFlow({ ...(await rangeQuery(c, a)), interval: a.interval }),
    })),
  )

  server.registerTool(
    'report_budget',
    {
      title: 'Budget against actual',
      description: `Each category's budget against what was spent, per period (month, quarter or year) in the base currency: budget, actual, variance (positive is under budget) and percent used. Default: this year, the current budget version. ${DATA_NOTICE}`,
      inputSchema: {
        from: date.optional().describe('first day (default: the first day of this year)'),
        to: date.optional().describe('last day (default: the last day of this year)'),
        interval: z.enum(['month', 'quarter', 'year']).optional().describe('period length (default month)'),
        version: z.string().max(50).optional().describe('a budget version (default the current one)'),
      },
      annotations: { title: 'Budget against actual', ...READ },
    },
    tool('report_budget', async (c, a: { from?: string; to?: string; interval?: string; version?: string }) => ({
      report: await c.budgets.report(a),
    })),
  )

  server.registerTool(
    'forecast',
    {
      title: 'Cash forecast',
      description: `A daily balance forecast from a day (default today) for 1 to 366 days, in the base currency: the balance then, the recorded future transactions, the accepted recurring items and the unspent budgets; optionally one account. It writes nothing. ${DATA_NOTICE}`,
      inputSchema: {
        days: z.number().int().min(1).max(366).describe('how many days'),
        from: date.optional().describe('the first day (default today)'),
        account,
        version: z.string().max(50).optional().describe('a budget version (default the current one)'),
      },
      annotations: { title: 'Cash forecast', ...READ },
    },
    tool('forecast', async (c, a: { days: number; from?: string; account?: string; version?: string }) => ({
      forecast: await c.forecast.run({
        days: a.days,
        from: a.from,
        version: a.version,
        bank_account_id: a.account === undefined ? undefined : await resolveAccountId(c, a.account, 'account'),
      }),
    })),
  )

  server.registerTool(
    'close_status',
    {
      title: 'Month-end close status',
      description: `Whether a month is closed (on or before the lock date) or ready to close: per account, its unreconciled, uncategorized and pending transactions, and the transactions missing a document (at most 100). ${DATA_NOTICE}`,
      inputSchema: {
        month: z
          .string()
          .regex(/^\d{4}-\d{2}$/, 'YYYY-MM')
          .optional()
          .describe('the month, YYYY-MM (default last month)'),
      },
      annotations: { title: 'Close status', ...READ },
    },
    tool('close_status', async (c, a: { month?: string }) => ({ status: await c.close.status(a.month) })),
  )

  server.registerTool(
    'list_imports',
    {
      title: 'List imports',
      description: `The company's import batches, newest first: each CSV import and statement upload, its file name, account, state (completed, pending review, reverted, ...) and its counts. ${DATA_NOTICE}`,
      inputSchema: { account, limit: limit(100, 20), cursor },
      annotations: { title: 'List imports', ...READ },
    },
    tool('list_imports', async (c, a: { account?: string; limit?: number; cursor?: string }) => {
      const bank = a.account === undefined ? undefined : await resolveAccountId(c, a.account, 'account')
      const r = await c.imports.list({ bank_account_id: bank, limit: a.limit ?? 20, cursor: a.cursor })
      return { imports: r.data, next_cursor: r.pagination?.next_cursor ?? null, has_more: r.pagination?.has_more ?? false }
    }),
  )

  server.registerTool(
    'list_proposals',
    {
      title: 'List proposals',
      description: `Proposals waiting for a person's approval (or, with state, those approved, rejected or failed), newest first: what each would do (its effect), who proposed it and why. Your own write tools make proposals; a person decides them. ${DATA_NOTICE}`,
      inputSchema: {
        state: z.enum(['pending', 'approved', 'rejected', 'failed', 'all']).optional().describe('default pending'),
        limit: limit(50, 20),
        cursor,
      },
      annotations: { title: 'List proposals', ...READ },
    },
    tool('list_proposals', async (c, a: { state?: string; limit?: number; cursor?: string }) => {
      const p = page(await c.approvals.list({ state: a.state }), a.limit ?? 20, a.cursor)
      return { proposals: p.rows, next_cursor: p.next_cursor, has_more: p.has_more, total: p.total }
    }),
  )
}
