/** finctl reports cash-flow | summary: reports in the company's base currency. */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerBudget } from './budget.js'
import { registerCashFlow } from './cash-flow.js'
import { registerSummary } from './summary.js'

export function registerReports(program: Command, run: Runner): void {
  const reports = program.command('reports').description('cash flow, financial summary and budget against actual, in the base currency')
  registerCashFlow(reports, run)
  registerSummary(reports, run)
  registerBudget(reports, run)
}
