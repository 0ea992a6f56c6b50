/** finctl rules create CONDITIONS --set field=value... [--name N] [--position P] */
import { resolveAccountId } from '../../src/cli/short-ids.js'
import type { Command } from 'commander'
import { wholeNumber } from '../../src/cli/flags.js'
import { note } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { AppError } from '../../src/kernel/errors.js'
import { CONDITION_FLAGS, type RuleOptions, actionsOf, addConditionFlags, api, conditionsOf, printRule } from './shared.js'

export type CreateOptions = RuleOptions

export function registerCreate(rules: Command, run: Runner, runF: RunVerb<CreateOptions> = runCreate): void {
  addConditionFlags(rules.command('create').description('create a rule: at least one condition and one --set'))
    .addHelpText(
      'after',
      '\nFor each field, the first matching rule (lowest position) wins; tags of every matching rule are added.\n\nExamples:\n  finctl rules create --matches "^(aws|amazon web services)" --set category=Cloud --set accounting-category=operating-expenses\n  finctl rules create --merchant-contains uber --max-amount -0.01 --set category=Travel --set tags=travel,reimbursable --position 1\n',
    )
    .action(run(runF))
}

export async function runCreate(host: VerbHost, o: CreateOptions): Promise<number> {
  const conditions = conditionsOf(o)
  if (!conditions) throw new AppError('usage', `give at least one condition: ${CONDITION_FLAGS}`)
  const actions = actionsOf(o.set)
  if (!actions) throw new AppError('usage', 'give at least one --set field=value (for example --set category=Software)')
  const position = wholeNumber(o.position, '--position')
  const client = await host.client()
  // --account takes a name as everywhere else; the service takes only the id.
  if (conditions.bank_account_id !== undefined) conditions.bank_account_id = await resolveAccountId(client, conditions.bank_account_id)
  const made = await api(client).create({ name: o.name, position, conditions, actions })
  // An agent's key proposes (docs/agents.md): the proposal is printed, exit 15.
  if (made.proposal) return (await import('../approvals/shared.js')).printProposed(host, made.proposal)
  const rule = made.done
  await printRule(host, rule)
  note(host.io, host.printer, `created rule ${rule.id} at position ${rule.position}`)
  return 0
}
