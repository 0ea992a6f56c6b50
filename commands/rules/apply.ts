/** finctl rules apply (ID | --all) [--since W] [--only-empty] [--dry-run] [--yes]: change the existing transactions the rules match. */
import type { Command } from 'commander'
import { note, printList, printRecord, renderTable } from '../../src/cli/output.js'
import { type PromptHost, confirmOrYes } from '../../src/cli/prompts.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import type { RuleTestResult } from '../../src/domain/categorization/rule-schemas.js'
import { count } from '../../src/kernel/words.js'
import { addRunFlags, api, changeColumns, ruleOrAll, type RunFlags, whatRan, windowWords } from './shared.js'

export interface ApplyOptions extends RunFlags {
  dryRun?: boolean
  yes?: boolean
}

/** Rows listed in the confirmation, then "and M more". */
const PREVIEW_ROWS = 10
/** Rows a dry run lists. */
const DRY_RUN_ROWS = 50

export function registerApply(rules: Command, run: Runner, runF: RunVerb<ApplyOptions, VerbHost & PromptHost> = runApply): void {
  addRunFlags(rules.command('apply').argument('[id]'))
    .description('change the existing transactions the rule (or --all rules) matches (audited, like tx bulk-update)')
    .option('--dry-run', 'list the transactions that would change, and change nothing')
    .option('--yes', 'do not ask to confirm')
    .addHelpText(
      'after',
      '\nA rule replaces the fields it sets, a category set by hand too; --only-empty fills only empty ones.\nOn a terminal it lists the rows that would change before asking. Under a bulk approval policy, a run\nchanging more rows than its threshold is a proposal (exit 15: finctl approvals show ID).\n\nExamples:\n  finctl rules apply $RULE --dry-run\n  finctl rules apply --all --only-empty --since 365d\n  finctl rules test $RULE --since 365d && finctl rules apply $RULE --since 365d --yes\n',
    )
    .action(run(runF))
}

export async function runApply(host: VerbHost & PromptHost, o: ApplyOptions, [given]: string[]): Promise<number> {
  const which = await ruleOrAll(host, given, o.all)
  const rules = api(await host.client())
  const run = { since: o.since, ...(o.onlyEmpty ? { only_empty: true } : {}) }
  const query = { since: o.since, only_empty: o.onlyEmpty ? ('true' as const) : undefined }
  if (o.dryRun) {
    const t = await rules.test(which, { ...query, limit: DRY_RUN_ROWS })
    if (host.printer.format === 'json') await printRecord(host.io, host.printer, t)
    else await printList(host.io, host.printer, t.changes, changeColumns(t.changes), { empty: 'no transaction would change' })
    note(host.io, host.printer, `dry run: ${summary(t, o.since)}${more(t)}; nothing was changed`)
    return 0
  }
  let question =
    which === 'all'
      ? `Apply the active rules to the transactions they match since ${o.since}?`
      : `Apply rule ${which} to the transactions it matches since ${o.since}?`
  // On a terminal, list what would change before asking (and ask nothing when nothing would).
  if (!o.yes && !host.globals.yes && host.canPrompt()) {
    const t = await rules.test(which, { ...query, limit: PREVIEW_ROWS })
    if (t.would_change === 0) {
      note(host.io, host.printer, `${summary(t, o.since)}: nothing to do`)
      return 0
    }
    // The rows go to stderr with the question: stdout keeps the result alone.
    await renderTable(
      { ...host.io, stdout: host.io.stderr, isStdoutTTY: host.io.isStderrTTY },
      host.printer,
      t.changes,
      changeColumns(t.changes),
    )
    const lines = [
      ...(t.changes.length < t.would_change ? [`and ${t.would_change - t.changes.length} more`] : []),
      `dated ${windowWords(t.since, o.since)}`,
      ...(t.would_replace > 0 && !t.only_empty
        ? [
            `${t.would_replace === t.would_change ? (t.would_change === 1 ? 'it has' : 'each has') : `${t.would_replace} of them ${t.would_replace === 1 ? 'has' : 'have'}`} a value that would be replaced: --only-empty keeps it`,
          ]
        : []),
    ]
    host.io.stderr.write(`${lines.join('\n')}\n`)
    question = `Apply ${whatRan(t)} to ${t.would_change === 1 ? 'this transaction' : `these ${t.would_change} transactions`}?`
  }
  await confirmOrYes(host, o.yes, question)
  const sent = await rules.apply(which, run)
  if (sent.proposal) {
    // Over a bulk approval policy's threshold the run waits: its proposal said, exit 15.
    const { printProposed } = await import('../approvals/shared.js')
    return printProposed(host, sent.proposal)
  }
  const r = sent.done
  await printRecord(host.io, host.printer, host.printer.format === 'table' ? { since: r.since, matched: r.matched, updated: r.updated } : r)
  note(host.io, host.printer, `updated ${r.updated} of ${count(r.matched, 'matching transaction')} ${windowWords(r.since, o.since)}`)
  return 0
}

/** "rule 'aws' would change 3 of 5 matching transactions since 2026-08-28 (--since 90d: the last 90 days)". */
function summary(t: RuleTestResult, given: string): string {
  if (t.would_change === 0)
    return `${whatRan(t)} would change no transaction ${windowWords(t.since, given)}${t.matched ? ` (${t.matched} ${t.matched === 1 ? 'matches' : 'match'}: nothing differs${t.only_empty ? ' in their empty fields' : ''})` : ''}`
  return `${whatRan(t)} would change ${t.would_change} of ${count(t.matched, 'matching transaction')} ${windowWords(t.since, given)}`
}

const more = (t: RuleTestResult) =>
  t.changes.length < t.would_change ? ` (listed ${t.changes.length}: and ${t.would_change - t.changes.length} more)` : ''
