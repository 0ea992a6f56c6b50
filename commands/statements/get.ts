/** finctl statements get ID: a statement and its processing status. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { printStatement, statementId } from './shared.js'

export type GetOptions = Record<string, never>

export function registerGet(st: Command, run: Runner, runF: RunVerb<GetOptions> = runGet): void {
  st.command('get')
    .argument('<id>')
    .description('show a statement and its processing status')
    .addHelpText('after', '\nExample:\n  finctl statements get $STATEMENT --json\n')
    .action(run(runF))
}

export async function runGet(ctx: VerbHost, _o: GetOptions, [id]: string[]): Promise<number> {
  const client = await ctx.client()
  await printStatement(ctx, await client.statements.get(await statementId(client, id)))
  return EXIT.ok
}
