/** finctl webhooks create | list | get | update | delete | test | deliver: where the company's events are sent (docs/events.md). */
import type { Command } from 'commander'
import type { Context } from '../src/cli/context.js'
import { EXIT } from '../src/cli/exit-codes.js'
import { note, printList, printRecord, warn, type Column } from '../src/cli/output.js'
import { confirmOrYes } from '../src/cli/prompts.js'
import type { Runner } from '../src/cli/runner.js'
import type { UpdateWebhookRequest, WebhookEndpoint } from '../src/domain/webhooks/schemas.js'
import { AppError } from '../src/kernel/errors.js'

const columns: Column<WebhookEndpoint>[] = [
  { header: 'id', value: (w) => w.id },
  { header: 'url', value: (w) => w.url },
  { header: 'events', value: (w) => w.events.join(',') },
  { header: 'status', value: (w) => w.status },
  { header: 'failed tries', value: (w) => w.failed_attempts, align: 'right' },
]

const EVENTS_HELP = 'event types separated by commas, or * for all (docs/events.md lists them)'

/** `--events a,b`: the list, or exit 2 naming the flag. */
function eventList(text: string): string[] {
  const list = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (list.length === 0) throw new AppError('usage', '--events needs at least one event type, or *')
  return list
}

export function registerWebhooks(program: Command, run: Runner): void {
  const w = program.command('webhooks').description("endpoints that receive the company's events, signed (docs/events.md)")
  w.command('create')
    .description('create an endpoint; its signing secret is shown once')
    .requiredOption('--url <url>', 'where to POST events (http or https)')
    .requiredOption('--events <types>', EVENTS_HELP)
    .option('--description <text>', 'what it is for')
    .addHelpText(
      'after',
      '\nExample:\n  finctl webhooks create --url https://erp.example.com/finctl --events transaction.created,transactions.imported\n',
    )
    .action(run(runCreate))
  w.command('list').description('list endpoints').addHelpText('after', '\nExample:\n  finctl webhooks list --json\n').action(run(runList))
  w.command('get')
    .argument('<id>', 'the endpoint id')
    .description('show an endpoint, where its queue stands and its latest tries')
    .addHelpText('after', '\nExample:\n  finctl webhooks get WEBHOOK_ID\n')
    .action(run(runGet))
  w.command('update')
    .argument('<id>', 'the endpoint id')
    .description('change an endpoint; --enable starts a disabled one again where it stopped')
    .option('--url <url>', 'a new URL')
    .option('--events <types>', EVENTS_HELP)
    .option('--description <text>', 'a new description')
    .option('--enable', 'enable it (its failures forgotten: the event it stopped at is tried at once)')
    .option('--disable', 'disable it (nothing is sent until enabled)')
    .addHelpText('after', '\nExample:\n  finctl webhooks update WEBHOOK_ID --events "*" --enable\n')
    .action(run(runUpdate))
  w.command('delete')
    .argument('<id>', 'the endpoint id')
    .description('delete an endpoint')
    .option('--yes', 'do not ask to confirm')
    .addHelpText('after', '\nExample:\n  finctl webhooks delete WEBHOOK_ID --yes\n')
    .action(run(runDelete))
  w.command('test')
    .argument('<id>', 'the endpoint id')
    .description('send a signed webhook.test event now; exit 14 when the endpoint does not answer 2xx')
    .addHelpText('after', '\nExample:\n  finctl webhooks test WEBHOOK_ID\n')
    .action(run(runTest))
  w.command('deliver')
    .description('send what is due to every endpoint, once (finctl serve does it by itself; this is for an embedded database)')
    .addHelpText('after', '\nExample:\n  finctl webhooks deliver --quiet    # from cron, on an embedded database\n')
    .action(run(runDeliver))
}

async function runCreate(ctx: Context, o: { url: string; events: string; description?: string }): Promise<number> {
  const client = await ctx.client()
  const created = await client.webhooks.create({
    url: o.url,
    events: eventList(o.events) as WebhookEndpoint['events'],
    description: o.description,
  })
  const { secret, ...record } = created
  if (ctx.printer.format === 'table') {
    await printRecord(ctx.io, ctx.printer, { ...record, events: record.events.join(',') })
    ctx.io.stdout.write(`${secret}\n`)
  } else await printRecord(ctx.io, ctx.printer, created)
  warn(ctx.io, 'this is the only time the signing secret is shown: store it with your receiver now', ctx.printer.color)
  return EXIT.ok
}

async function runList(ctx: Context): Promise<number> {
  const list = await (await ctx.client()).webhooks.list()
  await printList(ctx.io, ctx.printer, list, columns, { empty: 'no webhook endpoints: create one with `finctl webhooks create`' })
  return EXIT.ok
}

async function runGet(ctx: Context, _o: object, [id]: string[]): Promise<number> {
  const d = await (await ctx.client()).webhooks.get(id)
  if (ctx.printer.format !== 'table') {
    await printRecord(ctx.io, ctx.printer, d)
    return EXIT.ok
  }
  const { recent_attempts, ...record } = d
  await printRecord(ctx.io, ctx.printer, { ...record, events: record.events.join(',') })
  for (const t of recent_attempts)
    note(
      ctx.io,
      ctx.printer,
      `${t.created_at}  event ${t.event_id}  try ${t.resend ? 'resend' : t.attempt}: ${t.ok ? 'ok' : 'failed'} ${t.status_code ?? ''} ${t.error ?? ''} (${t.duration_ms} ms)`.trimEnd(),
    )
  return EXIT.ok
}

async function runUpdate(
  ctx: Context,
  o: { url?: string; events?: string; description?: string; enable?: boolean; disable?: boolean },
  [id]: string[],
): Promise<number> {
  if (o.enable && o.disable) throw new AppError('usage', 'give --enable or --disable, not both')
  const body: UpdateWebhookRequest = {
    ...(o.url !== undefined ? { url: o.url } : {}),
    ...(o.events !== undefined ? { events: eventList(o.events) as WebhookEndpoint['events'] } : {}),
    ...(o.description !== undefined ? { description: o.description } : {}),
    ...(o.enable ? { status: 'enabled' as const } : o.disable ? { status: 'disabled' as const } : {}),
  }
  if (Object.keys(body).length === 0)
    throw new AppError('usage', 'nothing to change: give --url, --events, --description, --enable or --disable')
  const w = await (await ctx.client()).webhooks.update(id, body)
  await printRecord(ctx.io, ctx.printer, ctx.printer.format === 'table' ? { ...w, events: w.events.join(',') } : w)
  return EXIT.ok
}

async function runDelete(ctx: Context, o: { yes?: boolean }, [id]: string[]): Promise<number> {
  await confirmOrYes(ctx, o.yes, `Delete webhook endpoint ${id}? Nothing more is sent to it.`)
  const r = await (await ctx.client()).webhooks.delete(id)
  await printRecord(ctx.io, ctx.printer, r)
  note(ctx.io, ctx.printer, `deleted webhook endpoint ${id}`)
  return EXIT.ok
}

async function runTest(ctx: Context, _o: object, [id]: string[]): Promise<number> {
  const r = await (await ctx.client()).webhooks.test(id)
  await printRecord(ctx.io, ctx.printer, r)
  if (r.ok) return EXIT.ok
  note(ctx.io, ctx.printer, `${r.url} did not take the test event: ${r.error}`)
  return EXIT.webhookFailed
}

async function runDeliver(ctx: Context): Promise<number> {
  const r = await (await ctx.client()).webhooks.deliver()
  await printRecord(ctx.io, ctx.printer, r)
  note(ctx.io, ctx.printer, `delivered ${r.delivered} event(s), ${r.failed} failed (retried later)`)
  return EXIT.ok
}
