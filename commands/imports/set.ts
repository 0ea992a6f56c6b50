/** finctl imports set BATCH --line N --category C ...: change one pending row of a review import before it is applied. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { wholeNumber } from '../../src/cli/flags.js'
import { printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import type { SetPendingRowRequest } from '../../src/domain/imports/review-schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { ACCOUNTING_CATEGORIES, CASH_FLOW_CATEGORIES } from '../../src/kernel/vocabulary.js'
import { batchId } from './shared.js'

export interface SetOptions {
  line?: string
  description?: string
  category?: string
  accountingCategory?: string
  cashFlowCategory?: string
  merchantName?: string
  tags?: string
}

export function registerSet(im: Command, run: Runner, runF: RunVerb<SetOptions> = runSet): void {
  im.command('set')
    .argument('<batch>', 'the pending batch id (or 6+ of its hex digits)')
    .description('change one pending row of a review import (tx import --review) before it is applied')
    .option('--line <n>', 'the row: its line in the file (as imports show lists it)')
    .option('--description <text>', 'description')
    .option('--category <name>', 'category ("" to clear)')
    .option('--accounting-category <name>', `accounting category ("" to clear): ${ACCOUNTING_CATEGORIES.join(', ')}`)
    .option('--cash-flow-category <name>', `cash-flow category ("" to clear): ${CASH_FLOW_CATEGORIES.join(', ')}`)
    .option('--merchant-name <name>', 'merchant (the payee; "" to clear)')
    .option('--tags <list>', 'replace the tags (comma-separated; "" for none)')
    .addHelpText('after', '\nExample:\n  finctl imports set 1a2b3c4d --line 12 --category Travel --merchant-name "Rail Co"\n')
    .action(run(runF))
}

/** "" clears an optional field. */
const orNull = (v: string | undefined) => (v === undefined ? undefined : v === '' ? null : v)

export async function runSet(host: VerbHost, o: SetOptions, [id]: string[]): Promise<number> {
  const line = wholeNumber(o.line, '--line')
  if (line === undefined) throw new AppError('usage', '--line is required: the line of the row, as finctl imports show lists it')
  const pick = <T extends string>(v: string | undefined, flag: string, allowed: readonly T[]): T | null | undefined => {
    const x = orNull(v)
    if (x != null && !allowed.includes(x as T)) throw new AppError('usage', `${flag} must be one of ${allowed.join(', ')} (got "${x}")`)
    return x as T | null | undefined
  }
  const change: SetPendingRowRequest = {
    description: o.description,
    category: orNull(o.category),
    accounting_category: pick(o.accountingCategory, '--accounting-category', ACCOUNTING_CATEGORIES),
    cash_flow_category: pick(o.cashFlowCategory, '--cash-flow-category', CASH_FLOW_CATEGORIES),
    merchant_name: orNull(o.merchantName),
    tags:
      o.tags === undefined
        ? undefined
        : o.tags
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
  }
  for (const k of Object.keys(change) as Array<keyof SetPendingRowRequest>) if (change[k] === undefined) delete change[k]
  if (!Object.keys(change).length)
    throw new AppError(
      'usage',
      'give a field to change: --description, --category, --accounting-category, --cash-flow-category, --merchant-name or --tags',
    )
  const client = await host.client()
  const row = await client.imports.setRow(await batchId(client, id), line, change)
  await printRecord(host.io, host.printer, { line: row.line, ...row.transaction })
  return EXIT.ok
}
