/** finctl model status (show): settings, training size and calibration. */
import type { Command } from 'commander'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { printStatus } from './shared.js'

export type StatusOptions = Record<string, never>

export function registerStatus(model: Command, run: Runner, runF: RunVerb<StatusOptions> = runStatus): void {
  model
    .command('status')
    .alias('show')
    .description('settings, training size and calibration')
    .addHelpText('after', '\nExample:\n  finctl model status --json\n')
    .action(run(runF))
}

export async function runStatus(ctx: VerbHost): Promise<number> {
  const client = await ctx.client()
  await printStatus(ctx, await client.categorization.model())
  return 0
}
