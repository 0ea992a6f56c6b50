/** finctl tx delete ID [--yes]: the question names the transaction by its date, amount and description. */
import type { Command } from 'commander'
import { showAmount } from '../../src/cli/money.js'
import { note, printRecord } from '../../src/cli/output.js'
import { type PromptHost, confirmOrYes } from '../../src/cli/prompts.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { resolveTransactionId, shortId } from '../../src/cli/short-ids.js'
import { isLocked, periodLocked } from '../../src/domain/accounts/period-lock.js'
import { AppError } from '../../src/kernel/errors.js'
import { unlinkedDocumentsLine } from '../../src/cli/unlinked-documents.js'

export interface DeleteOptions {
  yes?: boolean
}

export function registerDelete(tx: Command, run: Runner, runF: RunVerb<DeleteOptions, VerbHost & PromptHost> = runDelete): void {
  tx.command('delete')
    .argument('<id>')
    .description('delete a transaction')
    .option('--yes', 'do not ask to confirm')
    .addHelpText('after', '\nExample:\n  finctl tx delete $TX --yes\n')
    .action(run(runF))
}

export async function runDelete(host: VerbHost & PromptHost, o: DeleteOptions, [id]: string[]): Promise<number> {
  const client = await host.client()
  // What is deleted, in the question: its date, amount and description (the id alone says nothing).
  const t = await client.transactions.get(await resolveTransactionId(client, id))
  // A refusal that does not depend on the answer comes before the question (the service checks again).
  const { lock_date } = await client.company()
  if (lock_date && isLocked(lock_date, t.transaction_date))
    throw periodLocked(lock_date, t.transaction_date, `transaction ${t.id} (dated ${t.transaction_date})`)
  if (t.is_reconciled)
    throw new AppError('conflict', `transaction ${t.id} is reconciled and cannot be deleted: un-reconcile it first (--reconciled false)`)
  await confirmOrYes(
    host,
    o.yes,
    `Delete transaction ${shortId(t.id)} of ${t.transaction_date}, ${showAmount(t.amount, t.currency_code, { group: true, code: true })}, "${t.description}"?`,
  )
  const r = await client.transactions.delete(t.id)
  await printRecord(host.io, host.printer, r)
  note(host.io, host.printer, `deleted transaction ${r.id}`)
  if (r.documents.length) note(host.io, host.printer, unlinkedDocumentsLine(r.documents, 'it'))
  return 0
}
