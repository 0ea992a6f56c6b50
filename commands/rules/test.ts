/** finctl rules test ID [--since W] [--limit N]: which existing transactions the rule would change, changing nothing. */
import type { Command } from 'commander'
import { amountColumn, idColumn } from '../../src/cli/columns.js'
import { wholeNumber } from '../../src/cli/flags.js'
import { note, printList, printRecord, type Column } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import type { RuleTestResult } from '../../src/domain/categorization/rule-schemas.js'
import { api, ruleId, shownValue } from './shared.js'
import { count, quoteName } from '../../src/kernel/words.js'

export interface TestOptions {
  since: string
  limit?: string
}

export function registerTest(rules: Command, run: Runner, runF: RunVerb<TestOptions> = runTest): void {
  rules
    .command('test')
    .argument('<id>')
    .description('show which existing transactions the rule would change, changing nothing')
    .option('--since <when>', 'transactions dated since: 90d (days before today) or YYYY-MM-DD', '90d')
    .option('--limit <n>', 'list at most this many changes (default 50, at most 1000)')
    .addHelpText('after', '\nExamples:\n  finctl rules test $RULE\n  finctl rules test $RULE --since 2026-01-01 --limit 500 --json\n')
    .action(run(runF))
}

type Change = RuleTestResult['changes'][number]
const changeColumns: Column<Change>[] = [
  idColumn((c: Change) => c.transaction.id),
  { header: 'date', value: (c) => c.transaction.transaction_date },
  { header: 'description', value: (c) => c.transaction.description },
  amountColumn<Change>(
    'amount',
    (c) => c.transaction.amount,
    (c) => c.transaction.currency_code,
  ),
  {
    header: 'changes',
    value: (c) =>
      Object.entries(c.changes)
        .map(([f, { from, to }]) => `${f}: ${shownValue(from)} → ${shownValue(to)}`)
        .join('; '),
  },
]

export async function runTest(host: VerbHost, o: TestOptions, [id]: string[]): Promise<number> {
  const t = await api(await host.client()).test(await ruleId(host, id), { since: o.since, limit: wholeNumber(o.limit, '--limit') })
  if (host.printer.format === 'json') await printRecord(host.io, host.printer, t)
  else await printList(host.io, host.printer, t.changes, changeColumns, { empty: 'no transaction would change' })
  const shown = t.changes.length < t.would_change ? ` (listed ${t.changes.length}: --limit for more)` : ''
  note(
    host.io,
    host.printer,
    `rule ${quoteName(t.rule.name)} since ${t.since}: ${count(t.scanned, 'transaction')} scanned, ${t.matched} ${t.matched === 1 ? 'matches' : 'match'}, ${t.would_change} would change${shown}`,
  )
  return 0
}
