/** finctl accounts delete ID [--yes]: delete a bank account that holds no transactions. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import { type PromptHost, confirmOrYes } from '../../src/cli/prompts.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { resolveAccountId, shortId } from '../../src/cli/short-ids.js'
import { AppError } from '../../src/kernel/errors.js'

export interface DeleteOptions {
  yes?: boolean
}

export function registerDelete(accounts: Command, run: Runner, runF: RunVerb<DeleteOptions, VerbHost & PromptHost> = runDelete): void {
  accounts
    .command('delete')
    .argument('<id>')
    .description('delete a bank account that holds no transactions')
    .option('--yes', 'do not ask to confirm')
    .addHelpText('after', '\nExample:\n  finctl accounts delete $ACCOUNT --yes\n')
    .action(run(runF))
}

export async function runDelete(host: VerbHost & PromptHost, o: DeleteOptions, [id]: string[]): Promise<number> {
  const client = await host.client()
  const account = await client.accounts.get(await resolveAccountId(client, id, 'ID'))
  // A refusal that does not depend on the answer comes before the question (the service checks again).
  const held = (await client.accounts.transactions(account.id, { limit: 1 })).data[0]
  if (held)
    throw new AppError(
      'conflict',
      `bank account "${account.name}" holds transactions and cannot be deleted: close it instead (finctl accounts update ${shortId(account.id)} --status closed)`,
    )
  await confirmOrYes(host, o.yes, `Delete bank account "${account.name}" (${shortId(account.id)})?`)
  const r = await client.accounts.delete(account.id)
  await printRecord(host.io, host.printer, r)
  note(host.io, host.printer, `deleted bank account ${r.id}`)
  return EXIT.ok
}
