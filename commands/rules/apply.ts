/** finctl rules apply ID [--since W] [--yes]: change the existing transactions the rule matches. */
import type { Command } from 'commander'
import { note, printRecord } from '../../src/cli/output.js'
import { type PromptHost, confirmOrYes } from '../../src/cli/prompts.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { api, ruleId } from './shared.js'
import { count, quoteName } from '../../src/kernel/words.js'

export interface ApplyOptions {
  since: string
  yes?: boolean
}

export function registerApply(rules: Command, run: Runner, runF: RunVerb<ApplyOptions, VerbHost & PromptHost> = runApply): void {
  rules
    .command('apply')
    .argument('<id>')
    .description('change the existing transactions the rule matches (audited, like tx bulk-update)')
    .option('--since <when>', 'transactions dated since: 90d (days before today) or YYYY-MM-DD', '90d')
    .option('--yes', 'do not ask to confirm')
    .addHelpText('after', '\nExamples:\n  finctl rules test $RULE --since 365d && finctl rules apply $RULE --since 365d --yes\n')
    .action(run(runF))
}

export async function runApply(host: VerbHost & PromptHost, o: ApplyOptions, [given]: string[]): Promise<number> {
  const id = await ruleId(host, given)
  const rules = api(await host.client())
  let question = `Apply rule ${id} to its transactions since ${o.since}?`
  // On a terminal, say how many would change before asking (and ask nothing when none would).
  if (!o.yes && !host.globals.yes && host.canPrompt()) {
    const t = await rules.test(id, { since: o.since, limit: 1 })
    if (t.would_change === 0) {
      note(host.io, host.printer, `rule ${quoteName(t.rule.name)} would change no transaction since ${t.since}: nothing to do`)
      return 0
    }
    question = `Apply rule ${quoteName(t.rule.name)} to ${count(t.would_change, 'transaction')} dated since ${t.since}?`
  }
  await confirmOrYes(host, o.yes, question)
  const r = await rules.apply(id, { since: o.since })
  await printRecord(host.io, host.printer, host.printer.format === 'table' ? { since: r.since, matched: r.matched, updated: r.updated } : r)
  note(host.io, host.printer, `updated ${r.updated} of ${count(r.matched, 'matching transaction')} since ${r.since}`)
  return 0
}
