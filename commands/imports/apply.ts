/** finctl imports apply BATCH: a pending batch (tx import --review) lands its rows as the import would have, once. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import { AppError } from '../../src/kernel/errors.js'
import { batchId } from './shared.js'

export type ApplyOptions = Record<string, never>

export function registerApply(im: Command, run: Runner, runF: RunVerb<ApplyOptions> = runApply): void {
  im.command('apply')
    .argument('<batch>', 'the pending batch id (or 6+ of its hex digits)')
    .description(
      'create the rows of a pending batch (tx import --review), or upload its statement (statements upload --review), exactly once',
    )
    .addHelpText(
      'after',
      '\nExample:\n  finctl imports apply 1a2b3c4d\n' +
        '\nApplying again creates nothing. Rows in a month closed since the review are rejected and named by line.\n' +
        'A pending batch expires 7 days after the review: import the file again with --review then.\n' +
        'Exit codes: 0 applied (or applied before); 8 some rows rejected now; 6 discarded, expired or not a review.\n',
    )
    .action(run(runF))
}

export async function runApply(host: VerbHost, _o: ApplyOptions, [id]: string[]): Promise<number> {
  const client = await host.client()
  const before = await client.imports.get(await batchId(client, id))
  const asked = await client.imports.requestApply(before.id)
  // An agent's key proposes (docs/agents.md): the proposal is printed, exit 15.
  if (asked.proposal) return (await import('../approvals/shared.js')).printProposed(host, asked.proposal)
  let r = asked.done
  // A statement upload's batch: the statement is processed in the background, its counts are the batch's once done.
  if (r.kind === 'statement' && r.statement_id && before.state === 'pending') {
    const st = await client.statements.wait(r.statement_id)
    const now = await client.imports.get(r.id)
    const matched = st.matched_count
    r = { ...now, applied: { created: st.transaction_count - matched, existing: st.duplicate_count, reconciled: matched, rejected: 0 } }
    if (st.status === 'failed') {
      await printRecord(host.io, host.printer, r)
      throw new AppError('validation_error', `statement ${st.id} failed: ${st.error ?? 'no reason given'}`)
    }
  }
  if (host.printer.format !== 'table') {
    await printRecord(host.io, host.printer, r)
    return r.applied.rejected > 0 ? EXIT.partial : EXIT.ok
  }
  await printRecord(host.io, host.printer, {
    id: r.id,
    file_name: r.file_name,
    state: r.state,
    created: r.applied.created,
    'already there': r.applied.existing,
    reconciled: r.applied.reconciled,
    rejected: r.applied.rejected,
  })
  const known = new Set(before.rejects.map((x) => `${x.line}\u0000${x.reason}`))
  for (const x of r.rejects.filter((x) => !known.has(`${x.line}\u0000${x.reason}`)))
    note(host.io, host.printer, `line ${x.line} rejected: ${printableLine(x.reason)}`)
  if (before.state === 'completed') note(host.io, host.printer, 'applied before: nothing was created now')
  return r.applied.rejected > 0 ? EXIT.partial : EXIT.ok
}
