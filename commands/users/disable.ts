/** finctl users disable USER [--yes]: the user's logins and tokens are refused from the next request. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import { type PromptHost, confirmOrYes } from '../../src/cli/prompts.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { userId } from '../../src/cli/id-kinds.js'

export interface DisableOptions {
  yes?: boolean
}

export function registerDisable(users: Command, run: Runner, runF: RunVerb<DisableOptions, VerbHost & PromptHost> = runDisable): void {
  users
    .command('disable')
    .argument('<user>', "the user's id or email")
    .description('disable a user: their logins and access tokens are refused')
    .option('--yes', 'do not ask to confirm')
    .addHelpText('after', '\nExample:\n  finctl users disable ana@acme.test --yes\n')
    .action(run(runF))
}

export async function runDisable(host: VerbHost & PromptHost, o: DisableOptions, [user]: string[]): Promise<number> {
  await confirmOrYes(host, o.yes, `Disable ${user}? Their logins and access tokens will be refused`)
  const client = await host.client()
  const u = await client.users.disable(await userId(client, user))
  await printRecord(host.io, host.printer, u)
  note(host.io, host.printer, `disabled ${u.email} at ${u.disabled_at}`)
  return EXIT.ok
}
