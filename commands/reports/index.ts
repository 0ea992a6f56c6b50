/** finctl reports cash-flow | summary: reports in the company's base currency. */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerCashFlow } from './cash-flow.js'
import { registerSummary } from './summary.js'

export function registerReports(program: Command, run: Runner): void {
  const reports = program.command('reports').description('cash flow and financial summary, in the base currency')
  registerCashFlow(reports, run)
  registerSummary(reports, run)
}
