/** finctl tx get ID: a transaction with its account, its statement and its history. */
import type { Command } from 'commander'
import { showAmount } from '../../src/cli/money.js'
import { printList, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { resolveTransactionId } from '../../src/cli/short-ids.js'

export type GetOptions = Record<string, never>

export function registerGet(tx: Command, run: Runner, runF: RunVerb<GetOptions> = runGet): void {
  tx.command('get')
    .argument('<id>')
    .description('show a transaction with its history')
    .addHelpText('after', '\nExample:\n  finctl tx get $TX --json\n')
    .action(run(runF))
}

export async function runGet(host: VerbHost, _o: GetOptions, [id]: string[]): Promise<number> {
  const client = await host.client()
  const t = await client.transactions.get(await resolveTransactionId(client, id))
  if (host.printer.format !== 'table') {
    await printRecord(host.io, host.printer, t)
    return 0
  }
  const { history, bank_account, statement, ...rest } = t
  await printRecord(host.io, host.printer, {
    ...rest,
    amount: showAmount(t.amount, t.currency_code, { group: host.io.isStdoutTTY, code: true }),
    bank_account: `${bank_account.name} (${bank_account.id})`,
    statement: statement ? `${statement.file_name} (${statement.id})` : '',
  })
  await printList(host.io, host.printer, history, [
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
