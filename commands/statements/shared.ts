/** What the verbs of `finctl statements` share: the formats, a statement as a record, --limit. */
import type { Statement } from '../../src/domain/statements/schemas.js'
import { showAmount } from '../../src/cli/money.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { VerbHost } from '../../src/cli/runner.js'
import { AppError } from '../../src/kernel/errors.js'
import { STATEMENT_FORMATS } from '../../src/kernel/statement-formats.js'
import type { Client } from '../../src/client/client.js'
import { resolveListedId } from '../../src/cli/short-ids.js'

/** The full id of the statement ID names: whole, or a unique prefix or suffix of 6+ hex digits (short-ids.ts). */
export function statementId(client: Client, id: string): Promise<string> {
  return resolveListedId(
    'statement',
    id,
    async () => {
      const all: Statement[] = []
      for await (const page of client.statements.pages({ limit: 1000 })) all.push(...page.data)
      return all
    },
    (s) => `${s.id}  ${s.file_name}`,
  )
}

export const FORMATS: readonly string[] = STATEMENT_FORMATS

const money = (v: number | null, currency: string) => (v === null ? '' : showAmount(v, currency, { code: true }))

/** One statement: every field as JSON; a readable FIELD / VALUE table otherwise. */
export async function printStatement(ctx: VerbHost, s: Statement): Promise<void> {
  const fields: Array<[string, (s: Statement) => unknown]> = [
    ['id', (x) => x.id],
    ['bank account', (x) => x.bank_account_id],
    ['file', (x) => `${x.file_name} (${x.format}, ${x.file_size} bytes)`],
    ['status', (x) => x.status],
    ['period', (x) => (x.period_start ? `${x.period_start} .. ${x.period_end}` : '')],
    ['opening balance', (x) => money(x.opening_balance, x.currency_code)],
    ['closing balance', (x) => money(x.closing_balance, x.currency_code)],
    ['balance check', (x) => x.balance_check ?? ''],
    ['lines', (x) => x.line_count],
    ['created', (x) => x.transaction_count - x.matched_count],
    ['reconciled', (x) => x.matched_count],
    ['duplicates', (x) => x.duplicate_count],
    ['uploaded', (x) => x.created_at],
    ['processed', (x) => x.processed_at ?? ''],
  ]
  // The original as uploaded: where to get it, or why it is not kept (an older service says neither).
  if (s.file_kept !== undefined)
    fields.push([
      'original',
      (x) =>
        x.file_kept
          ? `kept, sha256:${x.file_sha256}: finctl statements file ${x.id} -o FILE`
          : `${x.file_note ?? 'original not kept'} (sha256:${x.file_sha256})`,
    ])
  if (s.error) fields.push(['error', (x) => x.error])
  await printRecord(ctx.io, ctx.printer, s, ctx.printer.format === 'json' || ctx.printer.format === 'ndjson' ? undefined : fields)
  if (ctx.printer.format === 'table') for (const w of s.warnings) note(ctx.io, ctx.printer, warningLine(w))
}

export function limitOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 1000)
    throw new AppError('usage', '--limit must be a whole number from 1 to 1000')
  return Number(text)
}

/** A statement's warning as printed: the balance's evidence ("balance checked on 6 of 6 rows") is a fact, not a warning. */
export function warningLine(w: string): string {
  return w.startsWith('balance checked on ') ? w : `warning: ${w}`
}
