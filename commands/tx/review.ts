/**
 * `finctl tx review`: uncategorized and low-confidence transactions. On a terminal, one by one:
 * accept the suggestion, choose another category, skip or stop; every decision is a PATCH, which
 * clears the model's score and teaches the model. Elsewhere (or with --list) it prints the list.
 */
import type { Command } from 'commander'
import type { z } from 'zod'
import type { ReviewItem, Suggestion } from '../../src/domain/categorization/schemas.js'
import { ACCOUNTING_CATEGORIES, CASH_FLOW_CATEGORIES } from '../../src/kernel/vocabulary.js'
import type { UpdateTransactionRequest } from '../../src/domain/schemas.js'
import type { Client } from '../../src/client/client.js'
import { amountColumn } from '../../src/cli/columns.js'
import { showAmount } from '../../src/cli/money.js'
import { shortId } from '../../src/cli/short-ids.js'
import { note, printList } from '../../src/cli/output.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import { unitScore, wholeNumber } from '../../src/cli/flags.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { type PromptHost, promptSearch, promptSelect } from '../../src/cli/prompts.js'

type Item = z.infer<typeof ReviewItem>
type Suggested = z.infer<typeof Suggestion>

/** The host of `tx review`: it asks on a terminal. */
type ReviewHost = VerbHost & PromptHost

export interface ReviewOptions {
  limit?: string
  below?: string
  list?: boolean
}

export function registerReview(tx: Command, run: Runner, runF: RunVerb<ReviewOptions, ReviewHost> = runReview): void {
  tx.command('review')
    .description('go through uncategorized and low-confidence transactions: accept or correct each (on a terminal)')
    .option('--limit <n>', 'how many transactions to go through (default 50)')
    .option('--below <score>', 'also review rows the model categorized with a score below this (default: the threshold)')
    .option('--list', 'only list them with their suggestions; never prompt')
    .addHelpText(
      'after',
      '\nEach correction teaches the model; accepted suggestions become training data too.\n\nExamples:\n  finctl tx review\n  finctl tx review --list --output csv > to-review.csv\n  finctl tx review --below 0.95 --limit 20\n',
    )
    .action(run(runF))
}

/** The best unlinked document each transaction is a candidate of (docs/documents.md, "Matching"); none when the service cannot say. */
async function candidateDocuments(client: Client): Promise<Map<string, { id: string; file: string; score: number }>> {
  const out = new Map<string, { id: string; file: string; score: number }>()
  const all = await client.documents.suggestions({ limit: 200 }).catch(() => [])
  for (const d of all)
    for (const c of d.candidates)
      if (c.amount_matches && (out.get(c.transaction_id)?.score ?? 0) < c.score)
        out.set(c.transaction_id, { id: d.document_id, file: d.file_name, score: c.score })
  return out
}

const docText = (d: { id: string; file: string; score: number } | undefined) => (d ? `${d.file} (${d.score.toFixed(2)})` : '')

const describe = (s: Suggested | null) =>
  s ? `${s.category}${s.source === 'rule' ? ' (rule)' : s.confidence !== null ? ` (${s.confidence.toFixed(2)})` : ''}` : ''

export async function runReview(ctx: ReviewHost, o: ReviewOptions): Promise<number> {
  const limit = wholeNumber(o.limit, '--limit') ?? 50
  const below = unitScore(o.below, '--below')
  const client = await ctx.client()
  const interactive = !o.list && ctx.printer.format === 'table' && ctx.canPrompt()
  if (!interactive) {
    const page = await client.categorization.review({ limit: Math.min(limit, 200), below })
    const docs = page.data.length ? await candidateDocuments(client) : new Map()
    await printList(
      ctx.io,
      ctx.printer,
      page.data,
      [
        { header: 'id', value: (i) => i.transaction.id },
        { header: 'date', value: (i) => i.transaction.transaction_date },
        amountColumn<Item>(
          'amount',
          (i) => i.transaction.amount,
          (i) => i.transaction.currency_code,
        ),
        { header: 'description', value: (i) => i.transaction.description },
        { header: 'category', value: (i) => i.transaction.category ?? '' },
        { header: 'score', value: (i) => i.transaction.ai_confidence_score ?? '' },
        { header: 'suggestion', value: (i) => describe(i.suggestion) },
        { header: 'document', value: (i) => docText(docs.get(i.transaction.id)), drop: 1 },
      ],
      { empty: 'nothing to review: every transaction is categorized with confidence' },
    )
    if (page.pagination?.has_more) note(ctx.io, ctx.printer, `${page.pagination.total} to review in all; showing ${page.data.length}`)
    return 0
  }
  return reviewOneByOne(ctx, client, limit, below)
}

async function reviewOneByOne(ctx: ReviewHost, client: Client, limit: number, below: number | undefined): Promise<number> {
  const err = ctx.io.stderr
  const known = (await client.categories()).categories
  const counts = { accepted: 0, corrected: 0, skipped: 0 }
  const docs = await candidateDocuments(client)
  // The model's words load with a review, not with every `tx` command (the group registers this verb).
  const { featureWords } = await import('../../src/domain/categorization/features.js')
  let cursor: string | undefined
  let seen = 0
  let total = 0
  outer: while (seen < limit) {
    const page = await client.categorization.review({ limit: Math.min(limit - seen, 50), below, cursor })
    total = Math.max(total, page.pagination?.total ?? 0)
    if (page.data.length === 0) break
    for (const item of page.data) {
      seen++
      // Ask again for the suggestion: the corrections made so far may have changed it.
      const suggestion = seen === 1 ? item.suggestion : await client.categorization.suggestion(item.transaction.id)
      show(ctx, item, suggestion, seen, total, featureWords, docs.get(item.transaction.id))
      const choice = await promptSelect(ctx, 'Category', [
        // The score is on the line above, explained; the choice names the category alone.
        ...(suggestion
          ? [{ name: `Accept ${suggestion.category}${suggestion.source === 'rule' ? ' (rule)' : ''}`, value: 'accept' as const }]
          : []),
        { name: 'Choose a category…', value: 'choose' as const },
        { name: 'Skip', value: 'skip' as const },
        { name: 'Stop reviewing', value: 'stop' as const },
      ])
      if (choice === 'stop') break outer
      if (choice === 'skip') {
        counts.skipped++
        continue
      }
      const update: UpdateTransactionRequest =
        choice === 'accept' && suggestion
          ? {
              category: suggestion.category,
              accounting_category: (suggestion.accounting_category ?? undefined) as UpdateTransactionRequest['accounting_category'],
              cash_flow_category: (suggestion.cash_flow_category ?? undefined) as UpdateTransactionRequest['cash_flow_category'],
            }
          : await chooseCategory(ctx, known, suggestion)
      await client.transactions.update(item.transaction.id, update)
      counts[choice === 'accept' ? 'accepted' : 'corrected']++
      if (!known.some((k) => k.name === update.category)) {
        known.push({
          name: update.category as string,
          accounting_category: update.accounting_category ?? null,
          cash_flow_category: update.cash_flow_category ?? null,
          transaction_count: 1,
        })
      }
    }
    cursor = page.pagination?.next_cursor ?? undefined
    if (!page.pagination?.has_more || !cursor) break
  }
  err.write(
    `reviewed ${counts.accepted + counts.corrected + counts.skipped}: ${counts.accepted} accepted, ${counts.corrected} corrected, ${counts.skipped} skipped\n`,
  )
  return 0
}

function show(
  ctx: ReviewHost,
  item: Item,
  s: Suggested | null,
  n: number,
  total: number,
  featureWords: (token: string) => string,
  doc?: { id: string; file: string; score: number },
): void {
  const t = item.transaction
  const lines = [
    '',
    `[${n}${total ? ` of ${total}` : ''}] ${t.transaction_date}  ${showAmount(t.amount, t.currency_code, { group: true, code: true })}  ${t.description}`,
    ...(t.merchant_name ? [`  merchant: ${t.merchant_name}`] : []),
    // One score is shown, the suggestion's as of now: the row's own is from when the model set it.
    ...(t.category ? [`  now: ${t.category}${t.ai_confidence_score !== null ? ' (set by the model, not sure enough)' : ''}`] : []),
  ]
  if (s?.source === 'rule')
    lines.push(`  a rule says: ${s.category} (${s.rule_ids.length === 1 ? 'rule' : 'rules'} ${s.rule_ids.map(shortId).join(', ')})`)
  if (s?.source === 'model') {
    const why = s.explanation.map((e) => featureWords(e.token)).join(', ')
    const score = s.confidence === null ? '' : `, score ${s.confidence.toFixed(2)} (${scoreWords(s.confidence)})`
    lines.push(`  the model suggests: ${s.category}${score}`, ...(why ? [`  because of: ${why}`] : []))
  }
  if (doc) lines.push(`  a document may prove it: ${docText(doc)}, finctl docs link ${doc.id} --tx ${t.id}`)
  // Each line quotes a description, a merchant or a category: one line each, controls escaped.
  ctx.io.stderr.write(`${lines.map(printableLine).join('\n')}\n`)
}

/** What a calibrated score means (docs/categorization.md): "right at least 39 times in 100". */
const scoreWords = (score: number) => `suggestions scored so are right at least ${Math.round(score * 100)} times in 100`

type Known = { name: string; accounting_category: string | null; cash_flow_category: string | null }

/** The longest category the service takes (domain/schemas.ts). */
const MAX_CATEGORY = 100

async function chooseCategory(ctx: ReviewHost, known: Known[], s: Suggested | null): Promise<UpdateTransactionRequest> {
  // A name that is no category yet is offered as a new one: choosing it creates it, by setting it on the row.
  const chosen = await promptSearch(
    ctx,
    'Category (type to filter, or a new name)',
    known.map((k) => ({ name: k.name, value: k.name })),
    s?.category,
    { label: (text) => `Create category "${text}"`, max: MAX_CATEGORY },
  )
  const category = typeof chosen === 'string' ? chosen : chosen.created
  const usual = known.find((k) => k.name === category)
  const accounting = await promptSearch(
    ctx,
    'Accounting category',
    ACCOUNTING_CATEGORIES.map((a) => ({ name: a, value: a })),
    (usual?.accounting_category ?? (s?.category === category ? s.accounting_category : undefined) ?? undefined) as
      | (typeof ACCOUNTING_CATEGORIES)[number]
      | undefined,
  )
  const cashFlow = await promptSearch(
    ctx,
    'Cash-flow category',
    CASH_FLOW_CATEGORIES.map((c) => ({ name: c, value: c })),
    (usual?.cash_flow_category ??
      (s?.category === category ? s.cash_flow_category : undefined) ??
      'operations') as (typeof CASH_FLOW_CATEGORIES)[number],
  )
  return { category, accounting_category: accounting, cash_flow_category: cashFlow }
}
