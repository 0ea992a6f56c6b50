/** finctl logout: forget the access token of the current profile (its API key stays). */
import type { Command } from 'commander'
import type { Context } from '../../src/cli/context.js'
import { note } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'

export type LogoutOptions = Record<string, never>

/** The host of `logout`: the current profile and its secrets. */
export type LogoutHost = VerbHost & Pick<Context, 'profileName' | 'profile' | 'profiles' | 'secrets'>

export function registerLogout(program: Command, run: Runner, runF: RunVerb<LogoutOptions, LogoutHost> = runLogout): void {
  program
    .command('logout')
    .description('forget the access token of the current profile')
    .addHelpText('after', '\nExample:\n  finctl --profile prod logout\n')
    .action(run(runF))
}

export async function runLogout(host: LogoutHost): Promise<number> {
  const name = host.profileName()
  const p = host.profile()
  if (!host.secrets().where(p, 'access_token')) {
    note(host.io, host.printer, `profile "${name}" holds no access token`)
    return 0
  }
  host.secrets().forget(name, ['access_token'])
  host.profiles().update(name, { token_expires_at: undefined })
  note(host.io, host.printer, `Logged out of profile "${name}" (its API key, if any, is kept)`)
  return 0
}
