/** finctl alias set NAME EXPANSION [--clobber]: a short name for a command line. */
import type { Command } from 'commander'
import { aliasNameProblem, splitWords } from '../../src/cli/aliases.js'
import { note } from '../../src/cli/output.js'
import type { RunVerb, Runner } from '../../src/cli/runner.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import { AppError } from '../../src/kernel/errors.js'
import { didYouMean } from '../../src/kernel/near-names.js'
import type { AliasHost } from './shared.js'

export interface SetOptions {
  clobber?: boolean
}

export function registerSet(
  alias: Command,
  run: Runner,
  names: ReadonlySet<string>,
  runF: RunVerb<SetOptions, AliasHost> = (host, o, args) => runSet(host, o, args, names),
): void {
  alias
    .command('set')
    .argument('<name>', 'the alias: a word that is no command of finctl')
    .argument(
      '<expansion>',
      'the command line it runs, quoted as one word (\'tx list --account "Chase Checking"\'); $1..$9 take the words after the alias',
    )
    .description('make NAME run a command line; the words typed after NAME are added to it')
    .option('--clobber', 'replace an alias of that name')
    .addHelpText(
      'after',
      "\nExamples:\n  finctl alias set co close                       # finctl co 2026-10 runs finctl close 2026-10\n  finctl alias set chase 'tx list --account \"Chase Checking\"'\n  finctl alias set month 'reports summary --from $1 --to $1'\n",
    )
    .action(run(runF))
}

export async function runSet(host: AliasHost, o: SetOptions, [name, expansion]: string[], names: ReadonlySet<string>): Promise<number> {
  const problem = aliasNameProblem(name, names)
  if (problem) throw new AppError('usage', printableLine(problem))
  const words = splitWords(expansion)
  const first = words[0]
  if (first === undefined || !names.has(first))
    throw new AppError(
      'usage',
      `the expansion must start with a command of finctl${first === undefined ? '' : ` (not "${printableLine(first)}"${didYouMean([...names], first)})`}`,
    )
  const store = host.profiles()
  const before = store.aliases()[name]
  if (before !== undefined && before !== expansion && !o.clobber)
    throw new AppError('conflict', `alias "${name}" already runs "finctl ${printableLine(before)}": give --clobber to replace it`)
  store.setAlias(name, expansion)
  note(host.io, host.printer, `alias "${name}" now runs "finctl ${printableLine(expansion)}"`)
  return 0
}
