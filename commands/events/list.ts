/** finctl events list [--type T] [--after SEQ] [--limit N | --all]: events in the order they were committed. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { wholeNumber } from '../../src/cli/flags.js'
import { note, printList, streamList, type Column } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import type { Event } from '../../src/domain/events.js'

export interface ListOptions {
  type?: string
  after?: string
  limit?: string
  all?: boolean
}

const eventColumns: Column<Event>[] = [
  { header: 'sequence', value: (e) => e.sequence, align: 'right' },
  { header: 'created_at', value: (e) => e.created_at },
  { header: 'type', value: (e) => e.type },
  { header: 'object', value: (e) => e.object_id ?? '' },
  { header: 'actor', value: (e) => e.actor },
  { header: 'id', value: (e) => e.id },
]

export function registerList(events: Command, run: Runner, runF: RunVerb<ListOptions> = runList): void {
  events
    .command('list')
    .description('list events in the order they were committed')
    .option('--type <types>', 'only these types, separated by commas (docs/events.md lists them)')
    .option('--after <sequence>', 'only events after this sequence (the last one you have seen)')
    .option('--limit <n>', 'events per page (1-1000, default 100)')
    .option('--all', 'every page, streamed')
    .addHelpText(
      'after',
      '\nExamples:\n  finctl events list --type transaction.created,transactions.imported\n  finctl events list --after 120 --all --json\n',
    )
    .action(run(runF))
}

export async function runList(host: VerbHost, o: ListOptions): Promise<number> {
  const client = await host.client()
  const limit = wholeNumber(o.limit, '--limit', { max: 1000 })
  const after = wholeNumber(o.after, '--after', { min: 0 })
  const query = { type: o.type, after, limit }
  if (o.all) {
    const pages = (async function* () {
      let cursor = after
      for (;;) {
        const page = await client.events.list({ ...query, after: cursor, limit: limit ?? 1000 })
        yield page.data
        if (!page.pagination.has_more) return
        cursor = page.pagination.next_after ?? cursor
      }
    })()
    await streamList(host.io, host.printer, pages, eventColumns)
    return EXIT.ok
  }
  const page = await client.events.list(query)
  await printList(host.io, host.printer, page.data, eventColumns, { empty: 'no events' })
  if (page.pagination.has_more && host.printer.format === 'table')
    note(host.io, host.printer, `more after sequence ${page.pagination.next_after}: add --after ${page.pagination.next_after} or --all`)
  return EXIT.ok
}
