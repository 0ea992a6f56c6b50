/** finctl rules update ID [CONDITIONS] [--set ...] [--name N] [--position P] [--disable | --enable] */
import { resolveAccountId } from '../../src/cli/short-ids.js'
import type { Command } from 'commander'
import { wholeNumber } from '../../src/cli/flags.js'
import { note } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { AppError } from '../../src/kernel/errors.js'
import { CONDITION_FLAGS, type RuleOptions, actionsOf, addConditionFlags, api, conditionsOf, printRule, ruleId } from './shared.js'

export interface UpdateOptions extends RuleOptions {
  disable?: boolean
  enable?: boolean
}

export function registerUpdate(rules: Command, run: Runner, runF: RunVerb<UpdateOptions> = runUpdate): void {
  addConditionFlags(
    rules
      .command('update')
      .argument('<id>')
      .description('change a rule: condition flags replace all its conditions, --set replaces all its actions'),
  )
    .option('--disable', 'stop running the rule on new transactions')
    .option('--enable', 'run the rule again')
    .addHelpText(
      'after',
      '\nExamples:\n  finctl rules update $RULE --position 1\n  finctl rules update $RULE --description-contains aws --currency USD --disable\n',
    )
    .action(run(runF))
}

export async function runUpdate(host: VerbHost, o: UpdateOptions, [id]: string[]): Promise<number> {
  if (o.disable && o.enable) throw new AppError('usage', 'give --disable or --enable, not both')
  const patch = {
    name: o.name,
    position: wholeNumber(o.position, '--position'),
    conditions: conditionsOf(o),
    actions: actionsOf(o.set),
    is_active: o.disable ? false : o.enable ? true : undefined,
  }
  if (Object.values(patch).every((v) => v === undefined))
    throw new AppError('usage', `nothing to change: give --name, --position, --set, --disable, --enable or conditions (${CONDITION_FLAGS})`)
  const client = await host.client()
  // --account takes a name as everywhere else; the service takes only the id.
  if (patch.conditions?.bank_account_id !== undefined)
    patch.conditions.bank_account_id = await resolveAccountId(client, patch.conditions.bank_account_id)
  const rule = await api(client).update(await ruleId(host, id), patch)
  await printRule(host, rule)
  note(host.io, host.printer, `updated rule ${rule.id}`)
  return 0
}
