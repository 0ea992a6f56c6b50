/** finctl events list | get ID | resend ID: the company's outbox of events (docs/events.md). */
import type { Command } from 'commander'
import type { Context } from '../src/cli/context.js'
import { EXIT } from '../src/cli/exit-codes.js'
import { wholeNumber } from '../src/cli/flags.js'
import { note, printList, printRecord, streamList, type Column } from '../src/cli/output.js'
import type { Runner } from '../src/cli/runner.js'
import type { Event } from '../src/domain/events.js'
import type { SendResult } from '../src/domain/webhooks/schemas.js'

const eventColumns: Column<Event>[] = [
  { header: 'sequence', value: (e) => e.sequence, align: 'right' },
  { header: 'created_at', value: (e) => e.created_at },
  { header: 'type', value: (e) => e.type },
  { header: 'object', value: (e) => e.object_id ?? '' },
  { header: 'actor', value: (e) => e.actor },
  { header: 'id', value: (e) => e.id },
]

const sendColumns: Column<SendResult>[] = [
  { header: 'endpoint', value: (r) => r.endpoint_id },
  { header: 'url', value: (r) => r.url },
  { header: 'ok', value: (r) => (r.ok ? 'yes' : 'no') },
  { header: 'status', value: (r) => r.status_code ?? '' },
  { header: 'error', value: (r) => r.error ?? '' },
  { header: 'ms', value: (r) => r.duration_ms, align: 'right' },
]

export function registerEvents(program: Command, run: Runner): void {
  const events = program
    .command('events')
    .description("the company's events (transaction.created, transactions.imported, ...), oldest first: what webhooks deliver")
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
    .action(run(runList))
  events
    .command('get')
    .argument('<id>', 'the event id')
    .description('show one event with its payload')
    .addHelpText('after', '\nExample:\n  finctl events get 0193a0c4-7f2e-7c1a-9b1e-3f5d2a6c8e01 --json\n')
    .action(run(runGet))
  events
    .command('resend')
    .argument('<id>', 'the event id')
    .description('send an event again now to the enabled webhook endpoints of its type; exit 14 when one does not answer 2xx')
    .option('--endpoint <id>', 'only to this endpoint (enabled or not)')
    .addHelpText('after', '\nExample:\n  finctl events resend EVENT_ID --endpoint WEBHOOK_ID\n')
    .action(run(runResend))
}

async function runList(ctx: Context, o: { type?: string; after?: string; limit?: string; all?: boolean }): Promise<number> {
  const client = await ctx.client()
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
    await streamList(ctx.io, ctx.printer, pages, eventColumns)
    return EXIT.ok
  }
  const page = await client.events.list(query)
  await printList(ctx.io, ctx.printer, page.data, eventColumns, { empty: 'no events' })
  if (page.pagination.has_more && ctx.printer.format === 'table')
    note(ctx.io, ctx.printer, `more after sequence ${page.pagination.next_after}: add --after ${page.pagination.next_after} or --all`)
  return EXIT.ok
}

async function runGet(ctx: Context, _o: object, [id]: string[]): Promise<number> {
  const e = await (await ctx.client()).events.get(id)
  await printRecord(ctx.io, ctx.printer, e)
  return EXIT.ok
}

async function runResend(ctx: Context, o: { endpoint?: string }, [id]: string[]): Promise<number> {
  const results = await (await ctx.client()).events.resend(id, o.endpoint)
  await printList(ctx.io, ctx.printer, results, sendColumns)
  const failed = results.filter((r) => !r.ok)
  for (const f of failed) note(ctx.io, ctx.printer, `${f.url} did not take event ${id}: ${f.error}`)
  return failed.length ? EXIT.webhookFailed : EXIT.ok
}
