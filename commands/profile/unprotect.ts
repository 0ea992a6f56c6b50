/** finctl profile unprotect NAME: writes through the profile no longer ask. */
import type { Command } from 'commander'
import type { RunVerb, Runner } from '../../src/cli/runner.js'
import { type ProfileHost, setProtected } from './shared.js'

export type UnprotectOptions = Record<string, never>

export function registerUnprotect(profile: Command, run: Runner, runF: RunVerb<UnprotectOptions, ProfileHost> = runUnprotect): void {
  profile
    .command('unprotect')
    .argument('<name>')
    .description('stop protecting a profile')
    .addHelpText('after', '\nExample:\n  finctl profile unprotect staging\n')
    .action(run(runF))
}

export async function runUnprotect(host: ProfileHost, _o: UnprotectOptions, [name]: string[]): Promise<number> {
  return setProtected(host, name, false)
}
