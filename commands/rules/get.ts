/** finctl rules get ID: one rule. */
import type { Command } from 'commander'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { api, printRule, ruleId } from './shared.js'

export type GetOptions = Record<string, never>

export function registerGet(rules: Command, run: Runner, runF: RunVerb<GetOptions> = runGet): void {
  rules
    .command('get')
    .argument('<id>')
    .description('show a rule')
    .addHelpText('after', '\nExample:\n  finctl rules get $RULE --json\n')
    .action(run(runF))
}

export async function runGet(host: VerbHost, _o: GetOptions, [id]: string[]): Promise<number> {
  await printRule(host, await api(await host.client()).get(await ruleId(host, id)))
  return 0
}
