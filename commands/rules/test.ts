/** finctl rules test (ID | --all) [--since W] [--only-empty] [--limit N]: which existing transactions would change, changing nothing. */
import type { Command } from 'commander'
import { wholeNumber } from '../../src/cli/flags.js'
import { note, printList, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { addRunFlags, api, changeColumns, ruleOrAll, type RunFlags, whatRan, windowWords } from './shared.js'
import { count } from '../../src/kernel/words.js'

export interface TestOptions extends RunFlags {
  limit?: string
}

export function registerTest(rules: Command, run: Runner, runF: RunVerb<TestOptions> = runTest): void {
  addRunFlags(rules.command('test').argument('[id]'))
    .description('show which existing transactions the rule (or --all rules) would change, changing nothing')
    .option('--limit <n>', 'list at most this many changes (default 50, at most 1000)')
    .addHelpText(
      'after',
      '\nExamples:\n  finctl rules test $RULE\n  finctl rules test $RULE --since 2026-01-01 --limit 500 --json\n  finctl rules test --all --only-empty\n',
    )
    .action(run(runF))
}

export async function runTest(host: VerbHost, o: TestOptions, [given]: string[]): Promise<number> {
  const which = await ruleOrAll(host, given, o.all)
  const limit = wholeNumber(o.limit, '--limit')
  const t = await api(await host.client()).test(which, { since: o.since, limit, only_empty: o.onlyEmpty ? 'true' : undefined })
  if (host.printer.format === 'json') await printRecord(host.io, host.printer, t)
  else await printList(host.io, host.printer, t.changes, changeColumns(t.changes), { empty: 'no transaction would change' })
  const shown = t.changes.length < t.would_change ? ` (listed ${t.changes.length}: --limit for more)` : ''
  note(
    host.io,
    host.printer,
    `${whatRan(t)} ${windowWords(t.since, o.since)}: ${count(t.scanned, 'transaction')} scanned, ${t.matched} ${t.matched === 1 ? 'matches' : 'match'}, ${t.would_change} would change${shown}`,
  )
  return 0
}
