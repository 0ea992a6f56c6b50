/** finctl alias delete NAME. */
import type { Command } from 'commander'
import { note } from '../../src/cli/output.js'
import type { RunVerb, Runner } from '../../src/cli/runner.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import { AppError } from '../../src/kernel/errors.js'
import { didYouMean } from '../../src/kernel/near-names.js'
import type { AliasHost } from './shared.js'

export type DeleteOptions = Record<string, never>

export function registerDelete(alias: Command, run: Runner, runF: RunVerb<DeleteOptions, AliasHost> = runDelete): void {
  alias
    .command('delete')
    .argument('<name>')
    .description('delete an alias')
    .addHelpText('after', '\nExample:\n  finctl alias delete co\n')
    .action(run(runF))
}

export async function runDelete(host: AliasHost, _o: DeleteOptions, [name]: string[]): Promise<number> {
  const store = host.profiles()
  if (!store.deleteAlias(name))
    throw new AppError(
      'not_found',
      `no alias named "${printableLine(name)}"${didYouMean(Object.keys(store.aliases()), name)}: see \`finctl alias list\``,
    )
  note(host.io, host.printer, `deleted alias "${name}"`)
  return 0
}
