/** finctl rules list | get | create | update | delete | test | apply */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerApply } from './apply.js'
import { registerCreate } from './create.js'
import { registerDelete } from './delete.js'
import { registerGet } from './get.js'
import { registerList } from './list.js'
import { registerTest } from './test.js'
import { registerUpdate } from './update.js'

export function registerRules(program: Command, run: Runner): void {
  const rules = program
    .command('rules')
    .description('categorization rules: conditions on new and existing transactions that set their category and tags')
  registerList(rules, run)
  registerGet(rules, run)
  registerCreate(rules, run)
  registerUpdate(rules, run)
  registerDelete(rules, run)
  registerTest(rules, run)
  registerApply(rules, run)
}
