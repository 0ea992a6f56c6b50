/** finctl profile show [NAME]: a profile, its secrets masked. */
import type { Command } from 'commander'
import { printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner } from '../../src/cli/runner.js'
import { type ProfileHost, describe, noProfile } from './shared.js'

export type ShowOptions = Record<string, never>

export function registerShow(profile: Command, run: Runner, runF: RunVerb<ShowOptions, ProfileHost> = runShow): void {
  profile
    .command('show')
    .argument('[name]', 'profile (default: the current one)')
    .description('show a profile (secrets masked)')
    .addHelpText('after', '\nExample:\n  finctl profile show prod\n')
    .action(run(runF))
}

export async function runShow(host: ProfileHost, _o: ShowOptions, [name]: string[]): Promise<number> {
  const n = name ?? host.profileName()
  const p = host.profiles().get(n)
  if (!p) throw noProfile(host, n)
  await printRecord(host.io, host.printer, describe(n, p, n === host.profileName()))
  return 0
}
