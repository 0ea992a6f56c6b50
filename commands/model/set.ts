/** finctl model set [--threshold S] [--auto on|off] */
import type { Command } from 'commander'
import { unitScore } from '../../src/cli/flags.js'
import { printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { AppError } from '../../src/kernel/errors.js'

export interface SetOptions {
  threshold?: string
  auto?: string
}

export function registerSet(model: Command, run: Runner, runF: RunVerb<SetOptions> = runSet): void {
  model
    .command('set')
    .description('change the threshold or turn automatic categorization on or off')
    .option('--threshold <score>', 'predictions scored at or above it fill the category (0..1; default 0.9)')
    .option('--auto <on|off>', 'categorize imported and uploaded rows automatically')
    .addHelpText('after', '\nExamples:\n  finctl model set --threshold 0.95\n  finctl model set --auto off\n')
    .action(run(runF))
}

export async function runSet(ctx: VerbHost, o: SetOptions): Promise<number> {
  if (o.threshold === undefined && o.auto === undefined) throw new AppError('usage', 'nothing to change: give --threshold or --auto')
  let auto: boolean | undefined
  if (o.auto !== undefined) {
    if (!/^(on|off|true|false)$/i.test(o.auto)) throw new AppError('usage', '--auto must be on or off')
    auto = /^(on|true)$/i.test(o.auto)
  }
  const client = await ctx.client()
  const s = await client.categorization.settings({ threshold: unitScore(o.threshold, '--threshold'), auto_categorize: auto })
  await printRecord(ctx.io, ctx.printer, s)
  return 0
}
