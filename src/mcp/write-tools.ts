/**
 * The write tools (docs/agents.md): each asks the service for a write with the agent's key, which the
 * service answers with a proposal (202) and nothing changed; a person approves it in `finctl
 * approvals approve`. Offered to an agent's key alone: another credential's writes would be done at once.
 */
import { mkdtemp, realpath, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join, sep } from 'node:path'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import type { Client } from '../client/client.js'
import { fillPath, type Where } from '../client/route-call.js'
import { categorizationRulesPaths, importReviewsPaths, transactionWritesPaths } from '../api/paths.js'
import { resolveAccountId, resolveTransactionId } from '../cli/short-ids.js'
import type { Proposal } from '../domain/approvals/schemas.js'
import { AppError } from '../kernel/errors.js'
import { ACCOUNTING_CATEGORIES, CASH_FLOW_CATEGORIES } from '../kernel/vocabulary.js'
import { bounded, DATA_NOTICE, IMPORT_TIMEOUT_MS, TOOL_TIMEOUT_MS } from './answer.js'
import type { ClientFor } from './read-tools.js'

/** What the write tools need beyond the client: whether the key is an agent's, the folder files may come from. */
export interface WriteOptions {
  /** The credential is an agent's key (GET /api-keys/me): the service makes its writes proposals. */
  agent: boolean
  /** The folder `propose_import` may read a file from; without it, CSV text only. */
  files?: string
}

const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const
/** The most CSV text (or file bytes) one import proposal takes. */
export const MAX_CSV_BYTES = 5 * 1024 * 1024

const reason = z
  .string()
  .trim()
  .min(1)
  .max(1000)
  .describe('why you propose it, in a sentence: the person who decides reads it beside the effect')
const txId = z.string().min(6).max(64).describe('the transaction: its full id, or 6+ hex digits of it (a short_id)')
const NOT_YET = 'It changes nothing now: it returns a pending proposal (its id, state and effect) that a person approves or rejects.'

/** A write asked for with the agent's reason; its answer must be a proposal, or nothing was asked. */
async function propose(
  c: Client,
  route: Where,
  params: Record<string, string>,
  why: string,
  o: { body?: unknown; query?: Record<string, string> } = {},
) {
  const r = await c.request<Proposal>(route.method.toUpperCase(), fillPath(route.path, params), {
    body: o.body,
    query: o.query,
    headers: { 'x-finctl-reason': encodeURIComponent(why) },
  })
  // An agent's key never writes at once: a 2xx but 202 would mean the service took the key for a person's.
  if (r.status !== 202) throw new AppError('conflict', `the service did not propose the write (HTTP ${r.status}): is this an agent's key?`)
  const p = r.data
  return {
    proposal_id: p.id,
    state: p.state,
    target: p.target,
    effect: p.effect,
    reason: (p.request as { reason?: string }).reason ?? null,
    decided_by_a_person_with: `finctl approvals approve ${p.id}`,
  }
}

export function registerWriteTools(server: McpServer, clientFor: ClientFor, o: WriteOptions): void {
  const tool = <T>(name: string, ms: number, work: (c: Client, args: T) => Promise<unknown>) => {
    return (args: T, extra: { signal?: AbortSignal }) =>
      bounded(ms, extra.signal, async (signal) => {
        if (!o.agent)
          throw new AppError(
            'forbidden',
            "write tools propose only with an agent's key: create one with `finctl keys create --agent` and give it in FINCTL_API_KEY",
          )
        return work(clientFor(name, signal), args)
      })
  }

  server.registerTool(
    'propose_categorize',
    {
      title: 'Propose a categorization',
      description: `Propose categorizing one transaction: any of category (free text, e.g. "Travel"), accounting_category, cash_flow_category, merchant_name, tags (replacing its tags). ${NOT_YET} The effect shows each field before and after; approving applies exactly that, or fails if the transaction changed since. ${DATA_NOTICE}`,
      inputSchema: {
        transaction_id: txId,
        category: z.string().trim().min(1).max(100).optional(),
        accounting_category: z.enum(ACCOUNTING_CATEGORIES).optional(),
        cash_flow_category: z.enum(CASH_FLOW_CATEGORIES).optional(),
        merchant_name: z.string().trim().min(1).max(200).optional(),
        tags: z.array(z.string().trim().min(1).max(50)).max(50).optional(),
        reason,
      },
      annotations: { title: 'Propose a categorization', ...WRITE },
    },
    tool('propose_categorize', TOOL_TIMEOUT_MS, async (c, a: Record<string, unknown> & { transaction_id: string; reason: string }) => {
      const { transaction_id, reason: why, ...fields } = a
      const updates = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined))
      if (Object.keys(updates).length === 0)
        throw new AppError(
          'validation_error',
          'give at least one of category, accounting_category, cash_flow_category, merchant_name, tags',
        )
      const id = await resolveTransactionId(c, transaction_id, 'transaction_id')
      return propose(c, transactionWritesPaths.update, { id }, why, { body: updates })
    }),
  )

  server.registerTool(
    'propose_rule',
    {
      title: 'Propose a categorization rule',
      description: `Propose a rule that categorizes transactions: conditions (all must hold; text ones ignore case) and actions (the fields it sets, tags it adds). With apply_to_existing (the default) approving also runs it over the existing transactions since \`since\` (default 90 days), and the effect counts and lists the rows it would change (would_change); imports categorize with it afterwards. ${NOT_YET} ${DATA_NOTICE}`,
      inputSchema: {
        conditions: z
          .object({
            description_contains: z.string().max(200).optional(),
            description_equals: z.string().max(200).optional(),
            description_regex: z.string().max(200).optional().describe('RE2 syntax'),
            merchant_contains: z.string().max(200).optional(),
            merchant_equals: z.string().max(200).optional(),
            min_amount: z.string().max(40).optional().describe('signed decimal; money out is negative'),
            max_amount: z.string().max(40).optional(),
            bank_account_id: z.string().max(64).optional(),
            currency_code: z.string().length(3).optional(),
          })
          .describe('at least one condition'),
        actions: z
          .object({
            category: z.string().max(100).optional(),
            accounting_category: z.enum(ACCOUNTING_CATEGORIES).optional(),
            cash_flow_category: z.enum(CASH_FLOW_CATEGORIES).optional(),
            merchant_name: z.string().max(200).optional(),
            tags: z.array(z.string().max(50)).max(50).optional(),
          })
          .describe('at least one action'),
        name: z.string().max(200).optional().describe('default: the conditions in words'),
        apply_to_existing: z.boolean().optional().describe('default true'),
        since: z.string().max(10).optional().describe('Nd (e.g. 90d) or YYYY-MM-DD: the existing rows it runs over'),
        only_empty: z.boolean().optional().describe('fill only fields that are empty'),
        reason,
      },
      annotations: { title: 'Propose a rule', ...WRITE },
    },
    tool(
      'propose_rule',
      TOOL_TIMEOUT_MS,
      async (
        c,
        a: {
          conditions: Record<string, unknown>
          actions: Record<string, unknown>
          name?: string
          apply_to_existing?: boolean
          since?: string
          only_empty?: boolean
          reason: string
        },
      ) => {
        const query: Record<string, string> = { apply: String(a.apply_to_existing !== false) }
        if (a.since !== undefined) query.since = a.since
        if (a.only_empty !== undefined) query.only_empty = String(a.only_empty)
        const body = { conditions: a.conditions, actions: a.actions, ...(a.name === undefined ? {} : { name: a.name }) }
        return propose(c, categorizationRulesPaths.create, {}, a.reason, { body, query })
      },
    ),
  )

  server.registerTool(
    'propose_note',
    {
      title: 'Propose a note',
      description: `Propose a note on a transaction (text beside it, up to 2,000 characters: what it is, what document it needs). ${NOT_YET} ${DATA_NOTICE}`,
      inputSchema: { transaction_id: txId, text: z.string().trim().min(1).max(2000), reason },
      annotations: { title: 'Propose a note', ...WRITE },
    },
    tool('propose_note', TOOL_TIMEOUT_MS, async (c, a: { transaction_id: string; text: string; reason: string }) => {
      const id = await resolveTransactionId(c, a.transaction_id, 'transaction_id')
      return propose(c, transactionWritesPaths.addNote, { id }, a.reason, { body: { text: a.text } })
    }),
  )

  server.registerTool(
    'propose_import',
    {
      title: 'Propose an import',
      description: `Propose importing a bank CSV into an account: give its text (csv_text) or a path under the folder this server was given (path). The file is read as \`finctl tx import --review\` reads it (columns, dates, decimal mark detected) and its rows are kept as a batch under review, never applied: the answer gives the plan (rows read, rejected, sums) and the proposal, whose effect counts the rows and sums them per currency. ${NOT_YET} ${DATA_NOTICE}`,
      inputSchema: {
        account: z.string().max(200).describe('the bank account: its id, 6+ hex digits of it, or its name'),
        csv_text: z.string().max(MAX_CSV_BYTES).optional().describe('the CSV file, as text'),
        path: z.string().max(4096).optional().describe('a CSV file under the folder this server reads files from'),
        file_name: z.string().max(200).optional().describe('the name the batch records for csv_text (default agent-import.csv)'),
        date_format: z.string().max(20).optional().describe('e.g. DD.MM.YYYY, when detection cannot decide'),
        decimal_comma: z.boolean().optional().describe('amounts are written 1.234,56'),
        reason,
      },
      annotations: { title: 'Propose an import', ...WRITE },
    },
    tool(
      'propose_import',
      IMPORT_TIMEOUT_MS,
      async (
        c,
        a: {
          account: string
          csv_text?: string
          path?: string
          file_name?: string
          date_format?: string
          decimal_comma?: boolean
          reason: string
        },
      ) => {
        if ((a.csv_text === undefined) === (a.path === undefined))
          throw new AppError('validation_error', 'give csv_text or path (one of them)')
        const accountId = await resolveAccountId(c, a.account, 'account')
        const dir = await mkdtemp(join(tmpdir(), 'finctl-mcp-'))
        try {
          const file = a.path === undefined ? await textFile(dir, a.csv_text ?? '', a.file_name) : await allowedFile(a.path, o.files)
          const { runPipeline } = await import('../jobs/import/pipeline.js')
          const mapping = { dateFormat: a.date_format, decimalComma: a.decimal_comma }
          const summary = await runPipeline(c, { path: file, accountId, mapping, review: true }, { spillDir: join(dir, 'rejects') })
          if (!summary.batch_id) throw new AppError('conflict', 'the import made no batch: nothing to propose')
          const plan = {
            batch_id: summary.batch_id,
            read: summary.read,
            pending: summary.review?.pending ?? 0,
            rejected: summary.rejected,
            already_imported: summary.already_imported,
            amount_total: summary.amount_total,
            currency: summary.currency,
            rejects: summary.rejects.slice(0, 20),
            notes: summary.notes,
          }
          if (plan.pending === 0) return { plan, proposal: null, why: 'no row is new to the account: nothing to propose' }
          return { plan, ...(await propose(c, importReviewsPaths.apply, { id: summary.batch_id }, a.reason)) }
        } finally {
          await rm(dir, { recursive: true, force: true })
        }
      },
    ),
  )
}

/** CSV text as a file of the import's own (0600), named as the agent asked, in a folder of its own. */
async function textFile(dir: string, text: string, name: string | undefined): Promise<string> {
  if (Buffer.byteLength(text) > MAX_CSV_BYTES) throw new AppError('payload_too_large', `csv_text is larger than ${MAX_CSV_BYTES} bytes`)
  const safe = basename(name ?? 'agent-import.csv').replace(/[^\w.-]+/g, '_') || 'agent-import.csv'
  const file = join(dir, safe)
  await writeFile(file, text, { mode: 0o600, flag: 'wx' })
  return file
}

/** A path the agent gave: a regular file inside the allowed folder once links are followed, and not too large. */
async function allowedFile(path: string, folder: string | undefined): Promise<string> {
  if (!folder) throw new AppError('forbidden', 'this server reads no files (start it with --files DIR): give csv_text instead')
  const root = await realpath(folder)
  const real = await realpath(path.startsWith(sep) ? path : join(root, path)).catch(() => {
    throw new AppError('not_found', `no file ${JSON.stringify(path)} under the allowed folder`)
  })
  if (!real.startsWith(root + sep))
    throw new AppError('forbidden', `${JSON.stringify(path)} is not under the folder this server reads files from`)
  const s = await stat(real)
  if (!s.isFile()) throw new AppError('validation_error', `${JSON.stringify(path)} is not a file`)
  if (s.size > MAX_CSV_BYTES) throw new AppError('payload_too_large', `the file is larger than ${MAX_CSV_BYTES} bytes`)
  return real
}
