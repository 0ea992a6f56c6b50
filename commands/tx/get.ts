/** finctl tx get ID: a transaction with its account, its statement and its history. */
import type { Command } from 'commander'
import { showAmount } from '../../src/cli/money.js'
import { printList, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { resolveTransactionId, shortId } from '../../src/cli/short-ids.js'

export type GetOptions = Record<string, never>

export function registerGet(tx: Command, run: Runner, runF: RunVerb<GetOptions> = runGet): void {
  tx.command('get')
    .argument('<id>')
    .description('show a transaction with its history')
    .addHelpText('after', '\nExample:\n  finctl tx get $TX --json\n')
    .action(run(runF))
}

export async function runGet(host: VerbHost, _o: GetOptions, [id]: string[]): Promise<number> {
  const client = await host.client()
  const t = await client.transactions.get(await resolveTransactionId(client, id))
  if (host.printer.format !== 'table') {
    await printRecord(host.io, host.printer, t)
    return 0
  }
  const { history, bank_account, statement, documents = [], ...rest } = t
  const tty = host.io.isStdoutTTY
  await printRecord(host.io, host.printer, {
    ...rest,
    amount: showAmount(t.amount, t.currency_code, { group: host.io.isStdoutTTY, code: true }),
    // On a terminal names with a short id, as tables show ids; tab-separated rows keep the full one.
    bank_account: `${bank_account.name} (${tty ? shortId(bank_account.id) : bank_account.id})`,
    statement: statement ? `${statement.file_name} (${tty ? shortId(statement.id) : statement.id})` : '',
    documents: documents.map((d) => `${d.file_name} (${d.kind}, ${tty ? shortId(d.id) : d.id})`).join(', '),
  })
  // Keys by their names: all of them with the owner's login, else the calling key's alone; users
  // by a short id. Tab-separated rows keep the actor exact, as they keep full ids.
  const names = new Map<string, string>()
  if (tty && history.some((e) => e.actor.startsWith('key:'))) {
    const [all, me] = await Promise.all([client.keys.list('all').catch(() => []), client.keys.me().catch(() => undefined)])
    for (const k of me ? [...all, me] : all) names.set(k.id, k.name)
  }
  const who = (actor: string): string => {
    const [kind, id = ''] = actor.split(':')
    const name = kind === 'key' ? names.get(id) : undefined
    if (name !== undefined) return `key "${name}" (${shortId(id)})`
    return kind === 'key' || kind === 'user' ? `${kind} ${shortId(id)}` : actor
  }
  await printList(host.io, host.printer, history, [
    // A timestamp stays whole; the changes take the widest share and wrap.
    { header: 'when', value: (e) => e.at, whole: true },
    { header: 'who', value: (e) => (tty ? who(e.actor) : e.actor) },
    { header: 'action', value: (e) => e.action },
    {
      header: 'changes',
      wide: true,
      value: (e) =>
        Object.entries(e.changes)
          .map(([f, c]) => `${f}: ${JSON.stringify(c.before)} -> ${JSON.stringify(c.after)}`)
          .join('; '),
    },
  ])
  return 0
}
