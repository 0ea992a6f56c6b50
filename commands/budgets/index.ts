/** finctl budgets set | list | delete | versions | current: monthly budgets per category (docs/budgets.md). */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerCurrent, registerVersions } from './versions.js'
import { registerDelete } from './delete.js'
import { registerList } from './list.js'
import { registerSet } from './set.js'

export function registerBudgets(program: Command, run: Runner): void {
  const budgets = program
    .command('budgets')
    .description('monthly budgets per category, in versions (an original and reforecasts); set against actual by `reports budget`')
  registerSet(budgets, run)
  registerList(budgets, run)
  registerDelete(budgets, run)
  registerVersions(budgets, run)
  registerCurrent(budgets, run)
}
