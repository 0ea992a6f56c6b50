/** What the verbs of `finctl approvals` and `finctl policy` share: the table's columns, the proposal's lines. */
import { type ActorName, actorNames } from '../../src/cli/actor-names.js'
import { idColumn } from '../../src/cli/columns.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { type Column, note, printRecord } from '../../src/cli/output.js'
import type { VerbHost } from '../../src/cli/runner.js'
import type { Client } from '../../src/client/client.js'
import type { Proposal } from '../../src/domain/approvals/schemas.js'
import { effectLines } from './effect.js'

/** The table's columns; `name` says who proposed (an email rather than an id). */
export const proposalColumns = (name: ActorName): Column<Proposal>[] => [
  idColumn((p) => p.id),
  { header: 'kind', value: (p) => p.kind },
  { header: 'target', value: (p) => p.target },
  { header: 'state', value: (p) => p.state },
  { header: 'proposed by', value: (p) => name(p.proposed_by) },
  { header: 'proposed', value: (p) => p.created_at.slice(0, 16).replace('T', ' '), drop: 2 },
]

/**
 * A proposal as people read it: who by email, the request on a line, and its effect below the
 * record as lines (effect.ts); --json and csv print it as the API gives it, with the ids.
 */
export async function printProposal(host: VerbHost, client: Client, p: Proposal): Promise<void> {
  if (host.printer.format !== 'table') return printRecord(host.io, host.printer, p)
  const name = await actorNames(client, host.printer, [p.proposed_by, p.decided_by])
  const { effect: _, ...rest } = p
  await printRecord(host.io, host.printer, { ...rest, proposed_by: name(p.proposed_by), decided_by: p.decided_by && name(p.decided_by) })
  host.io.stdout.write(
    `\neffect (as proposed):\n${effectLines(p, name)
      .map((l) => `  ${l}\n`)
      .join('')}`,
  )
}

/** A step the policy held back: the proposal printed, the message said, exit 15 (docs/cli.md). */
export async function printProposed(host: VerbHost, p: Proposal, print = true): Promise<number> {
  if (print) await printProposal(host, await host.client(), p)
  note(host.io, host.printer, `proposal ${p.id} waits for approval (${p.kind} ${p.target}): finctl approvals show ${p.id}`)
  return EXIT.proposed
}
