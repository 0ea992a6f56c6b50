/** finctl model retrain: retrain from the labelled transactions now. */
import type { Command } from 'commander'
import { note } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { printStatus } from './shared.js'

export type RetrainOptions = Record<string, never>

export function registerRetrain(model: Command, run: Runner, runF: RunVerb<RetrainOptions> = runRetrain): void {
  model
    .command('retrain')
    .description('retrain from the labelled transactions now and refit the calibration')
    .addHelpText('after', '\nExample:\n  finctl model retrain\n')
    .action(run(runF))
}

export async function runRetrain(ctx: VerbHost): Promise<number> {
  const client = await ctx.client()
  const s = await client.categorization.retrain()
  await printStatus(ctx, s)
  note(ctx.io, ctx.printer, `retrained on ${s.trained_on} labelled transactions (${s.labels} categories)`)
  return 0
}
