/** What the verbs of `finctl approvals` and `finctl policy` share: the table's columns, the proposal's lines. */
import { type ActorName, actorNames } from '../../src/cli/actor-names.js'
import { idColumn } from '../../src/cli/columns.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { type Column, note, printRecord } from '../../src/cli/output.js'
import type { VerbHost } from '../../src/cli/runner.js'
import type { Client } from '../../src/client/client.js'
import type { Proposal } from '../../src/domain/approvals/schemas.js'
import { effectLines } from './effect.js'
import { fieldLines, type Names, resultLines } from './readable.js'
import { shortId } from '../../src/cli/short-ids.js'
import { printableLine } from '../../src/kernel/terminal-text.js'
import { AppError } from '../../src/kernel/errors.js'

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
  const name = await actorNames(client, host.printer)
  const accounts = new Map((await client.accounts.list().catch(() => ({ data: [] }))).data.map((a) => [a.id, a.name]))
  const names: Names = { actor: name, account: (id) => (accounts.has(id) ? `${accounts.get(id)} (${shortId(id)})` : id) }
  const { effect: _, request: __, result: ___, proposer_user_id, ...rest } = p
  await printRecord(host.io, host.printer, {
    ...rest,
    proposed_by: name(p.proposed_by),
    // An agent's proposal has no proposing person: proposed_by names the agent (docs/agents.md).
    proposer: proposer_user_id ? name(`user:${proposer_user_id}`) : '',
    decided_by: p.decided_by && name(p.decided_by),
  })
  const section = (title: string, lines: string[]) =>
    lines.length ? host.io.stdout.write(`\n${title}:\n${lines.map((l) => `  ${l}\n`).join('')}`) : undefined
  section('request', fieldLines(p.request, names).map(printableLine))
  section('effect (as proposed)', effectLines(p, name, names.account))
  section('result', resultLines(p, names))
}

/** An error of approve or reject naming who decided (`by user:…`): the person by email, as the table says them. */
export async function withPeopleNamed(host: VerbHost, client: Client, step: () => Promise<void>): Promise<void> {
  try {
    await step()
  } catch (err) {
    if (!(err instanceof AppError) || !/\b(user|key):[0-9a-f-]{36}/i.test(err.message)) throw err
    const name = await actorNames(client, { ...host.printer, format: 'table' })
    err.message = err.message.replace(/\b(?:user|key):[0-9a-f-]{36}/gi, (id) => name(id))
    throw err
  }
}

/** A step the policy held back: the proposal printed, the message said, exit 15 (docs/cli.md). */
export async function printProposed(host: VerbHost, p: Proposal, print = true): Promise<number> {
  if (print) await printProposal(host, await host.client(), p)
  note(host.io, host.printer, `proposal ${p.id} waits for approval (${p.kind} ${p.target}): finctl approvals show ${p.id}`)
  return EXIT.proposed
}
