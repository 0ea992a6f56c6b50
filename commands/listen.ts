/** finctl listen: the company's events as they happen, forwarded signed to a local URL (docs/events.md, "finctl listen"). */
import type { Command } from 'commander'
import type { Event } from '../src/domain/events.js'
import { writeDrained } from '../src/cli/closed-output.js'
import { json } from '../src/cli/output.js'
import { printableLine } from '../src/cli/terminal-text.js'
import { EXIT } from '../src/cli/exit-codes.js'
import { unlessInterrupted, untilInterrupted } from '../src/cli/interrupt.js'
import type { RunVerb, Runner, VerbHost } from '../src/cli/runner.js'
import { AppError } from '../src/kernel/errors.js'

/** Seconds a read waits on the service for an event (the route's long poll). */
const WAIT_SECONDS = 25

export interface ListenOptions {
  forwardTo?: string
  events?: string
  printJson?: boolean
}

export function registerListen(program: Command, run: Runner, runF: RunVerb<ListenOptions> = runListen): void {
  program
    .command('listen')
    .description(
      "stream the company's events as they happen; with --forward-to, POST each to a local URL signed with this session's secret, one line per delivery",
    )
    .option('--forward-to <url>', 'POST each event to this URL (http or https), signed: Finctl-Signature t=...,v1=...')
    .option('--events <types>', 'only these event types, comma-separated (transaction.created,transactions.imported)')
    .option('--print-json', 'print each event as one line of JSON (NDJSON); with --forward-to, the deliveries go to stderr')
    .addHelpText(
      'after',
      '\nThe signing secret (whsec_...) is printed at the start; FINCTL_LISTEN_SECRET sets it instead.\n' +
        '\nExamples:\n  finctl listen --forward-to http://localhost:4242/webhooks\n  finctl listen --events transaction.created,transactions.imported --print-json\n',
    )
    .action(run(runF))
}

export async function runListen(host: VerbHost, o: ListenOptions): Promise<number> {
  const [{ EVENT_TYPES }, { sessionSecret }, { sendEvent }] = await Promise.all([
    import('../src/domain/events.js'),
    import('../src/domain/event-stream.js'),
    import('../src/domain/webhooks/send.js'),
  ])
  const url = o.forwardTo === undefined ? undefined : forwardUrl(o.forwardTo)
  const types = o.events?.split(',').map((t) => t.trim())
  const unknown = types?.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t))
  if (types && (types.length === 0 || unknown?.length))
    throw new AppError(
      'usage',
      `--events: unknown event type ${unknown?.join(', ') || '(none given)'}; the types are ${EVENT_TYPES.join(', ')}`,
    )
  const secret = host.io.env.FINCTL_LISTEN_SECRET || sessionSecret()
  const type = types?.join(',')
  const client = await host.client()
  // The first read finds where the outbox ends now (and checks the credentials): only newer events are streamed.
  let after = (await client.events.list({ after: 'latest', type, limit: 1 })).pagination.next_after ?? 0
  const stop = untilInterrupted()
  const where = client.baseUrl === 'http://finctl.embedded' ? 'the embedded database' : client.baseUrl
  host.io.stderr.write(
    url
      ? `Ready! Forwarding the events of ${where} to ${url}\nYour webhook signing secret is ${secret} (this session's; Ctrl-C to stop)\n`
      : `Ready! Listening for the events of ${where} (Ctrl-C to stop)\n`,
  )
  const asJson = host.printer.format === 'json' || host.printer.format === 'ndjson'
  try {
    for (;;) {
      const page = await unlessInterrupted(stop, client.events.list({ after, type, wait: WAIT_SECONDS, limit: 100 }, stop.signal))
      if (!page) return EXIT.ok
      for (const event of page.data) {
        if (stop.signal.aborted) return EXIT.ok
        after = event.sequence
        if (o.printJson) await writeDrained(host.io.stdout, `${json(event)}\n`)
        if (!url) {
          if (!o.printJson) await writeDrained(host.io.stdout, asJson ? `${json(event)}\n` : `${eventLine(event)}\n`)
          continue
        }
        // One at a time, in order: the receiver sees the events in the order they were committed.
        const sent = await unlessInterrupted(stop, sendEvent(url, secret, event, new Date()))
        if (!sent) return EXIT.ok
        const out = o.printJson ? host.io.stderr : host.io.stdout
        const text = asJson
          ? json({ event_id: event.id, type: event.type, sequence: event.sequence, url, ...sent })
          : `${eventLine(event)} -> ${sent.status_code ? `[${sent.status_code}]` : `[${printableLine(sent.error ?? '')}]`} POST ${url} ${sent.duration_ms}ms`
        await writeDrained(out, `${text}\n`)
      }
      after = page.pagination.next_after ?? after
    }
  } finally {
    stop.done()
  }
}

function forwardUrl(text: string): string {
  let u: URL
  try {
    u = new URL(text)
  } catch {
    throw new AppError('usage', `--forward-to must be an http or https URL such as http://localhost:4242/webhooks, not "${text}"`)
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new AppError('usage', '--forward-to must be an http or https URL')
  if (u.username || u.password) throw new AppError('usage', '--forward-to must not hold a user name or password')
  return u.toString()
}

/** One event as people read it: time (UTC), type, id, the object's id. */
function eventLine(e: Event): string {
  return [e.created_at.replace('T', ' ').replace(/Z$/, ''), e.type, e.id, e.object_id ?? ''].join(' ').trimEnd()
}
