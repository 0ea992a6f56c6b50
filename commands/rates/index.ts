/** finctl rates import FILE | list | set | delete: the company's dated exchange rates to its base currency. */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerDelete } from './delete.js'
import { registerImport } from './import.js'
import { registerList } from './list.js'
import { registerSet } from './set.js'

export function registerRates(program: Command, run: Runner): void {
  const rates = program
    .command('rates')
    .description("dated exchange rates to the company's base currency: transactions in other currencies convert at the rate of their date")
  registerImport(rates, run)
  registerList(rates, run)
  registerSet(rates, run)
  registerDelete(rates, run)
}
