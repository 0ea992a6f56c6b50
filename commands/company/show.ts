/** finctl company: the company's details. */
import type { Command } from 'commander'
import { printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'

export type ShowOptions = Record<string, never>

export function registerShow(program: Command, run: Runner, runF: RunVerb<ShowOptions> = runShow): void {
  program
    .command('company')
    .description("the company's details")
    .addHelpText('after', '\nExample:\n  finctl company --json\n')
    .action(run(runF))
}

export async function runShow(ctx: VerbHost): Promise<number> {
  const client = await ctx.client()
  await printRecord(ctx.io, ctx.printer, await client.company())
  return 0
}
