/** finctl categories list: categories in use, their accounting and cash-flow categories and counts. */
import type { Command } from 'commander'
import { printList, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'

export type ListOptions = Record<string, never>

export function registerList(categories: Command, run: Runner, runF: RunVerb<ListOptions> = runList): void {
  categories
    .command('list', { isDefault: true })
    .description('categories in use, with the accounting and cash-flow categories and how many transactions each has')
    .addHelpText('after', '\nExamples:\n  finctl categories list\n  finctl categories --output csv\n')
    .action(run(runF))
}

export async function runList(ctx: VerbHost): Promise<number> {
  const client = await ctx.client()
  const data = await client.categories()
  if (ctx.printer.format === 'json' || ctx.printer.format === 'ndjson') {
    await printRecord(ctx.io, ctx.printer, data)
    return 0
  }
  await printList(
    ctx.io,
    ctx.printer,
    data.categories,
    [
      { header: 'category', value: (c) => c.name },
      { header: 'accounting category', value: (c) => c.accounting_category ?? '' },
      { header: 'cash flow', value: (c) => c.cash_flow_category ?? '' },
      { header: 'transactions', value: (c) => c.transaction_count, align: 'right' },
    ],
    { empty: `no categories in use yet; accounting categories: ${data.accounting_categories.join(', ')}` },
  )
  return 0
}
