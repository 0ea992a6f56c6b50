/** finctl logs tail [--status S] [--method M] [--path P] [--key K]: the requests made with the company's keys, live (docs/logs.md). */
import type { Command } from 'commander'
import type { ChalkInstance } from 'chalk'
import type { Client } from '../../src/client/client.js'
import { readRequestLog } from '../../src/client/request-log.js'
import type { RequestLogEntry } from '../../src/domain/api-keys/request-log.js'
import type { Context } from '../../src/cli/context.js'
import { writeDrained } from '../../src/cli/closed-output.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { pause, unlessInterrupted, untilInterrupted } from '../../src/cli/interrupt.js'
import { json, note } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { printableLine, printableText } from '../../src/cli/terminal-text.js'
import { AppError } from '../../src/kernel/errors.js'
import { keyId } from '../keys/shared.js'

/** Seconds a read waits on the service for a request (the route's long poll). */
const WAIT_SECONDS = 25
/** The least time between the starts of two reads while requests keep coming: each read is a request of the key too. */
const MIN_READ_GAP_MS = 300

export interface TailOptions {
  status?: string
  method?: string
  path?: string
  key?: string
}

export function registerTail(logs: Command, run: Runner, runF: RunVerb<TailOptions, TailHost> = runTail): void {
  logs
    .command('tail')
    .description("print the requests made with the company's keys as they happen, one line each (NDJSON with --json), until Ctrl-C")
    .option('--status <status>', 'only answers of this status (404) or class (4xx, 5xx)')
    .option('--method <method>', 'only requests of this method (GET, POST, PATCH, DELETE)')
    .option('--path <prefix>', 'only requests whose path starts with this (/api-v1/transactions)')
    .option('--key <id>', "only requests made with this key: its id or its key prefix (fds_...); a login's: user:ID")
    .addHelpText(
      'after',
      '\nExamples:\n  finctl logs tail\n  finctl logs tail --status 4xx --method POST\n  finctl logs tail --path /api-v1/transactions --json\n',
    )
    .action(run(runF))
}

/** The host of `logs tail`: it paints the status of each line. */
export type TailHost = VerbHost & Pick<Context, 'chalk'>

export async function runTail(host: TailHost, o: TailOptions): Promise<number> {
  const format = host.printer.format
  if (format === 'csv') throw new AppError('usage', 'logs tail prints lines, or NDJSON with --json: --output csv is not one of them')
  if (o.status !== undefined && !/^([1-5]xx|[1-5]\d\d)$/i.test(o.status))
    throw new AppError('usage', `--status must be a status (404) or a class (4xx, 5xx), not "${o.status}"`)
  if (o.method !== undefined && !/^[A-Za-z]{1,10}$/.test(o.method))
    throw new AppError('usage', `--method must be an HTTP method (GET, POST, PATCH, DELETE), not "${o.method}"`)
  if (o.path !== undefined && !o.path.startsWith('/')) throw new AppError('usage', `--path must start with / (/api-v1/transactions)`)
  // A key's id as tables show it (6+ hex digits from either end) is looked up among the keys.
  const shortKey = o.key !== undefined && /^[0-9a-fA-F-]{6,35}$/.test(o.key)
  if (o.key !== undefined && !shortKey && !/^(fds_[0-9A-Za-z]{8}|(user:)?[0-9a-fA-F-]{36})$/.test(o.key))
    throw new AppError(
      'usage',
      `--key must be a key's id (or 6+ of its hex digits) or its key prefix (fds_ and 8 characters, as \`finctl keys list\` shows), or user:ID for a login's requests, not "${o.key}"`,
    )
  const client = await host.client()
  const key = shortKey ? await keyId(client, o.key!, '--key') : o.key
  const filters = { status: o.status?.toLowerCase(), method: o.method, path: o.path, key }
  // The first read (no records: where the log ends now) checks the filters and the credentials.
  let cursor = (await readRequestLog(client, { ...filters, limit: 0 })).next_cursor
  const stop = untilInterrupted()
  note(host.io, host.printer, `tailing the requests of the company's keys at ${describe(client)} (Ctrl-C to stop)`)
  const shape = host.printer.shape
  const shaped = shape ? await import('../../src/cli/json-shape.js') : undefined
  try {
    for (;;) {
      const started = Date.now()
      const page = await unlessInterrupted(stop, readRequestLog(client, { ...filters, after: cursor, wait: WAIT_SECONDS }, stop.signal))
      if (!page) return EXIT.ok
      cursor = page.next_cursor
      let text = ''
      for (const r of page.data) {
        if (format === 'table') text += `${line(r, host.chalk)}\n`
        else if (shape?.jq === undefined && shape?.template === undefined)
          text += `${json(shape?.fields && shaped ? shaped.pickFields(r, shape.fields) : r)}\n`
        // --jq and --template apply to each record: exact into a pipe, escaped on a terminal (as printJson);
        // Ctrl-C during a filter ends the tail as always.
        else if (shaped) {
          const out = await shaped.shapedText(r, shape, false).catch((e: unknown) => {
            if (stop.signal.aborted) return undefined
            throw e
          })
          if (out === undefined) return EXIT.ok
          const lineOut = out.replace(/\n?$/, '\n')
          text += host.io.isStdoutTTY ? printableText(lineOut) : lineOut
        }
      }
      await writeDrained(host.io.stdout, text)
      if (page.data.length > 0 && !page.has_more) await pause(stop, MIN_READ_GAP_MS - (Date.now() - started))
      if (stop.signal.aborted) return EXIT.ok
    }
  } finally {
    stop.done()
  }
}

function describe(client: Client): string {
  return client.baseUrl === 'http://finctl.embedded' ? 'the embedded database' : client.baseUrl
}

/** One request as people read it: time (UTC), status, method, path, time taken, key prefix, request id, the MCP tool that made it. */
export function line(r: RequestLogEntry, chalk: ChalkInstance): string {
  const status = String(r.status)
  const paint = r.status >= 500 ? chalk.red : r.status >= 400 ? chalk.yellow : chalk.green
  const time = r.created_at.replace('T', ' ').replace(/Z$/, '')
  // The method and path are what a client sent (`GET /%1b[2J` arrives decoded): escaped.
  return [
    time,
    paint(`[${status}]`),
    printableLine(r.method).padEnd(6),
    printableLine(r.path),
    `${r.response_time_ms}ms`,
    r.key_prefix ?? r.key_id,
    r.request_id ?? '',
    r.via ?? '',
  ]
    .join(' ')
    .trimEnd()
}
