/** finctl keys revoke ID [--yes]: revoke an API key. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import { type PromptHost, confirmOrYes } from '../../src/cli/prompts.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { keyId } from './shared.js'

export interface RevokeOptions {
  yes?: boolean
}

export function registerRevoke(keys: Command, run: Runner, runF: RunVerb<RevokeOptions, VerbHost & PromptHost> = runRevoke): void {
  keys
    .command('revoke')
    .argument('<id>')
    .description('revoke an API key')
    .option('--yes', 'do not ask to confirm')
    .addHelpText('after', '\nExample:\n  finctl keys revoke $KEY_ID --yes\n')
    .action(run(runF))
}

export async function runRevoke(host: VerbHost & PromptHost, o: RevokeOptions, [id]: string[]): Promise<number> {
  await confirmOrYes(host, o.yes, `Revoke API key ${id}? Requests made with it will fail`)
  const client = await host.client()
  const key = await client.keys.revoke(await keyId(client, id))
  await printRecord(host.io, host.printer, key)
  note(host.io, host.printer, `revoked key ${key.key_prefix}… at ${key.revoked_at}`)
  return EXIT.ok
}
