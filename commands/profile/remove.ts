/** finctl profile remove NAME: a profile and its credentials (in the file or the OS keyring). */
import type { Command } from 'commander'
import { SECRETS } from '../../src/cli/credentials.js'
import { note } from '../../src/cli/output.js'
import type { RunVerb, Runner } from '../../src/cli/runner.js'
import { type ProfileHost, noProfile } from './shared.js'

export type RemoveOptions = Record<string, never>

export function registerRemove(profile: Command, run: Runner, runF: RunVerb<RemoveOptions, ProfileHost> = runRemove): void {
  profile
    .command('remove')
    .argument('<name>')
    .description('remove a profile and its credentials')
    .addHelpText('after', '\nExample:\n  finctl profile remove staging\n')
    .action(run(runF))
}

export async function runRemove(host: ProfileHost, _o: RemoveOptions, [name]: string[]): Promise<number> {
  if (host.profiles().get(name)) host.secrets().forget(name, SECRETS, { removeProfile: true })
  if (!host.profiles().remove(name)) throw noProfile(host, name)
  note(host.io, host.printer, `removed profile "${name}"`)
  return 0
}
