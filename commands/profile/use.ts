/** finctl profile use NAME: make a profile the current one. */
import type { Command } from 'commander'
import { note } from '../../src/cli/output.js'
import type { RunVerb, Runner } from '../../src/cli/runner.js'
import { type ProfileHost, noProfile } from './shared.js'

export type UseOptions = Record<string, never>

export function registerUse(profile: Command, run: Runner, runF: RunVerb<UseOptions, ProfileHost> = runUse): void {
  profile
    .command('use')
    .argument('<name>')
    .description('make a profile the current one')
    .addHelpText('after', '\nExample:\n  finctl profile use prod\n')
    .action(run(runF))
}

export async function runUse(host: ProfileHost, _o: UseOptions, [name]: string[]): Promise<number> {
  if (!host.profiles().get(name)) throw noProfile(host, name)
  host.profiles().setCurrent(name)
  note(host.io, host.printer, `now using profile "${name}"`)
  return 0
}
