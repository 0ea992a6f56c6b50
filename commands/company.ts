/** finctl company | categories [list] */
import type { Command } from 'commander'
import type { Context } from '../src/cli/context.js'
import { printList, printRecord } from '../src/cli/output.js'
import type { Runner } from '../src/cli/runner.js'

export function registerCompany(program: Command, run: Runner): void {
  program
    .command('company')
    .description("the company's details")
    .addHelpText('after', '\nExample:\n  finctl company --json\n')
    .action(run(runCompany))
  // A noun group like the others: `finctl categories list`, and the bare `finctl categories` for the same.
  const categories = program.command('categories').description('categories in use, with the accounting and cash-flow categories')
  categories
    .command('list', { isDefault: true })
    .description('categories in use, with the accounting and cash-flow categories and how many transactions each has')
    .addHelpText('after', '\nExamples:\n  finctl categories list\n  finctl categories --output csv\n')
    .action(run(runCategories))
}

async function runCompany(ctx: Context): Promise<number> {
  const client = await ctx.client()
  await printRecord(ctx.io, ctx.printer, await client.company())
  return 0
}

async function runCategories(ctx: Context): Promise<number> {
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
