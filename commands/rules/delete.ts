/** finctl rules delete ID [--yes] */
import type { Command } from 'commander'
import { note, printRecord } from '../../src/cli/output.js'
import { type PromptHost, confirmOrYes } from '../../src/cli/prompts.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { api, ruleId } from './shared.js'

export interface DeleteOptions {
  yes?: boolean
}

export function registerDelete(rules: Command, run: Runner, runF: RunVerb<DeleteOptions, VerbHost & PromptHost> = runDelete): void {
  rules
    .command('delete')
    .argument('<id>')
    .description('delete a rule')
    .option('--yes', 'do not ask to confirm')
    .addHelpText('after', '\nExample:\n  finctl rules delete $RULE --yes\n')
    .action(run(runF))
}

export async function runDelete(host: VerbHost & PromptHost, o: DeleteOptions, [id]: string[]): Promise<number> {
  await confirmOrYes(host, o.yes, `Delete rule ${id}?`)
  const r = await api(await host.client()).delete(await ruleId(host, id))
  await printRecord(host.io, host.printer, r)
  note(host.io, host.printer, `deleted rule ${r.id}`)
  return 0
}
