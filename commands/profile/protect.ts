/** finctl profile protect NAME: each write through the profile asks to type its name (or needs --yes). */
import type { Command } from 'commander'
import type { RunVerb, Runner } from '../../src/cli/runner.js'
import { type ProfileHost, setProtected } from './shared.js'

export type ProtectOptions = Record<string, never>

export function registerProtect(profile: Command, run: Runner, runF: RunVerb<ProtectOptions, ProfileHost> = runProtect): void {
  profile
    .command('protect')
    .argument('<name>')
    .description('protect a profile: each command that writes through it asks to type its name (or needs --yes)')
    .addHelpText('after', '\nExample:\n  finctl profile protect prod\n')
    .action(run(runF))
}

export async function runProtect(host: ProfileHost, _o: ProtectOptions, [name]: string[]): Promise<number> {
  return setProtected(host, name, true)
}
