/** finctl profile list: the profiles, the current one marked. */
import type { Command } from 'commander'
import { printList } from '../../src/cli/output.js'
import type { RunVerb, Runner } from '../../src/cli/runner.js'
import { type ProfileHost, describe } from './shared.js'

export type ListOptions = Record<string, never>

export function registerList(profile: Command, run: Runner, runF: RunVerb<ListOptions, ProfileHost> = runList): void {
  profile.command('list').description('list profiles').addHelpText('after', '\nExample:\n  finctl profile list\n').action(run(runF))
}

export async function runList(host: ProfileHost): Promise<number> {
  const store = host.profiles()
  const current = host.profileName()
  const rows = Object.entries(store.list()).map(([n, p]) => describe(n, p, n === current))
  await printList(
    host.io,
    host.printer,
    rows,
    [
      { header: 'current', value: (r) => (r.current ? '*' : '') },
      { header: 'name', value: (r) => r.name },
      { header: 'target', value: (r) => r.target },
      {
        header: 'credentials',
        value: (r) => [r.api_key ? 'api key' : '', r.access_token ? 'token' : ''].filter(Boolean).join(', ') || 'none',
      },
    ],
    { empty: 'no profiles yet: run `finctl init` or `finctl profile add NAME --base-url URL`' },
  )
  return 0
}
