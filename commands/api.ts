/**
 * finctl api METHOD PATH: one raw request with the profile's credentials, like `gh api`. It goes
 * through the same Client (and so the same transport, retries, --verbose and write guard) as
 * every other command; the answer's body is printed as the service sent it.
 */
import { readFile } from 'node:fs/promises'
import type { Command } from 'commander'
import type { AuthMode, Client } from '../src/client/client.js'
import { AppError } from '../src/kernel/errors.js'
import { expectReader, writeDrained } from '../src/cli/closed-output.js'
import { EXIT } from '../src/cli/exit-codes.js'
import { json, printJson, say } from '../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../src/cli/runner.js'
import { printableLine, printableText } from '../src/cli/terminal-text.js'

export const API_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const

export interface ApiOptions {
  data?: string
  header?: string[]
  include?: boolean
  paginate?: boolean
}

export function registerApi(program: Command, run: Runner, runF: RunVerb<ApiOptions> = runApi): void {
  program
    .command('api')
    .argument('<method>', `HTTP method: ${API_METHODS.join(', ')}`)
    .argument('<path>', 'path on the service, with its query: /api-v1/transactions?limit=10')
    .description("send one request with the profile's credentials and print the answer's JSON body")
    .option('-d, --data <json>', 'request body: inline JSON, @FILE, or @- for stdin')
    .option('-H, --header <name:value>', 'extra request header (repeatable)', (v: string, all: string[] = []) => [...all, v])
    .option('-i, --include', 'print the status line and the response headers on stderr')
    .option('--paginate', 'GET every page (following pagination.next_cursor) and print one JSON array of all items')
    .addHelpText(
      'after',
      [
        '',
        'Key administration paths (/api-keys...) use the login token (JWT), other paths the API key.',
        'The exit code follows the status: 401 -> 3, 403 -> 4, 404 -> 5, 400/409/413/415/422 -> 6, 429 -> 7,',
        'other errors -> 1, no connection -> 10.',
        '',
        'Examples:',
        '  finctl api GET /api-v1/company',
        '  finctl api GET "/api-v1/transactions?status=pending" --paginate --output ndjson',
        '  finctl api POST /api-v1/bank-accounts --data \'{"name":"Petty cash","account_type":"cash","currency_code":"USD"}\'',
        '  finctl api PATCH /api-v1/transactions/$ID --data @patch.json',
        '  finctl api GET /api-keys --include',
        '',
      ].join('\n'),
    )
    .action(run(runF))
}

/** Which credential a path needs, as the typed client chooses it. */
export function authFor(path: string): AuthMode {
  const p = path.split('?')[0]
  if (p === '/healthz' || p.startsWith('/auth/') || p === '/openapi.json') return 'none'
  if (p === '/api-keys/me' || p.startsWith('/api-keys/me/')) return 'data'
  if (p === '/api-keys' || p.startsWith('/api-keys/')) return 'admin'
  return 'data'
}

/** The exit code of an HTTP status, by the exit-code table of docs/cli.md (Output and behaviour). */
export function exitCodeForStatus(status: number): number {
  if (status < 400) return EXIT.ok
  if (status === 401) return EXIT.unauthenticated
  if (status === 403) return EXIT.forbidden
  if (status === 404) return EXIT.notFound
  if ([400, 409, 413, 415, 422].includes(status)) return EXIT.invalid
  if (status === 429) return EXIT.rateLimited
  return EXIT.failure
}

async function readData(ctx: VerbHost, data: string): Promise<string> {
  let text: string
  if (data === '@-') {
    text = ''
    for await (const chunk of ctx.io.stdin) text += chunk.toString()
  } else if (data.startsWith('@')) {
    const file = data.slice(1)
    text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      throw new AppError('usage', `--data ${data}: cannot read ${file}: ${err.code ?? err.message}`)
    })
  } else text = data
  try {
    JSON.parse(text)
  } catch (err) {
    throw new AppError('usage', `--data is not valid JSON: ${(err as Error).message}`)
  }
  return text
}

function parseHeaders(list: string[] = []): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const h of list) {
    const i = h.indexOf(':')
    if (i <= 0) throw new AppError('usage', `--header "${h}": write it as name:value`)
    headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim()
  }
  return headers
}

/** Reason phrases (node:http's table), loaded by `finctl api` only: no other command pays for loading node:http. */
let STATUS_CODES: Record<number, string | undefined> = {}

export async function runApi(ctx: VerbHost, o: ApiOptions, [methodArg, path]: string[]): Promise<number> {
  ;({ STATUS_CODES } = await import('node:http'))
  const method = methodArg.toUpperCase()
  if (!(API_METHODS as readonly string[]).includes(method))
    throw new AppError('usage', `unknown method "${methodArg}": use one of ${API_METHODS.join(', ')}`)
  if (!path.startsWith('/')) throw new AppError('usage', `the path must start with /: /${path}`)
  if (o.data !== undefined && (method === 'GET' || method === 'HEAD'))
    throw new AppError('usage', `--data cannot be sent with ${method}: use POST, PUT or PATCH`)
  if (o.paginate && method !== 'GET') throw new AppError('usage', '--paginate works with GET only')
  const body = o.data === undefined ? undefined : await readData(ctx, o.data)
  const headers = parseHeaders(o.header)
  const client = await ctx.client()
  const auth = authFor(path)
  if (o.paginate) return paginate(ctx, client, path, auth, headers, o)

  const res = await client.send(method, path, { auth, headers, body })
  if (o.include) writeHead(ctx, res)
  const text = await res.text()
  // --json FIELDS, --jq, --template: over the body, as gh api's --jq (an error answer is left as it is).
  const shaped = ctx.printer.shape && res.ok ? parsedJson(text) : undefined
  if (shaped !== undefined) await printJson(ctx.io, ctx.printer, shaped)
  else if (text) ctx.io.stdout.write(shown(ctx, text))
  return finish(ctx, res.status, text)
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * On a terminal, JSON is indented and any other body has its control characters escaped; elsewhere
 * the body is passed on byte for byte (plus a final newline).
 */
function shown(ctx: VerbHost, text: string): string {
  if (ctx.io.isStdoutTTY) {
    try {
      return `${json(JSON.parse(text), 2)}\n`
    } catch {
      return printableText(text.endsWith('\n') ? text : `${text}\n`)
    }
  }
  return text.endsWith('\n') ? text : `${text}\n`
}

function writeHead(ctx: VerbHost, res: Response): void {
  const lines = [`HTTP ${res.status} ${res.statusText || STATUS_CODES[res.status] || ''}`.trimEnd()]
  res.headers.forEach((value, name) => {
    lines.push(`${name}: ${value}`)
  })
  ctx.io.stderr.write(`${lines.map(printableLine).join('\n')}\n\n`)
}

/** The exit code of the status; an error answer also gets its one `error:` line on stderr. */
function finish(ctx: VerbHost, status: number, text: string): number {
  const code = exitCodeForStatus(status)
  if (code !== EXIT.ok) {
    let message = STATUS_CODES[status] ?? 'error'
    try {
      const m = (JSON.parse(text) as { error?: { message?: string } }).error?.message
      if (m) message = m
    } catch {
      // not an envelope
    }
    say(ctx.io, `error: HTTP ${status}: ${message}`)
  }
  return code
}

async function paginate(
  ctx: VerbHost,
  client: Client,
  path: string,
  auth: AuthMode,
  headers: Record<string, string>,
  o: ApiOptions,
): Promise<number> {
  const ndjson = ctx.printer.format === 'ndjson'
  // A shape (--jq, --template, --json FIELDS) reads every item at once: they are held, then printed.
  const held: unknown[] | undefined = ctx.printer.shape ? [] : undefined
  let cursor: string | undefined
  let count = 0
  for (;;) {
    const res = await client.send('GET', path, { auth, headers, query: { cursor } })
    if (o.include) writeHead(ctx, res)
    const text = await res.text()
    if (!res.ok) {
      if (count === 0 || held) {
        if (text) ctx.io.stdout.write(shown(ctx, text))
      } else if (!ndjson) ctx.io.stdout.write('\n]\n')
      return finish(ctx, res.status, text)
    }
    let env: { data?: unknown; pagination?: { next_cursor?: string | null; has_more?: boolean } }
    try {
      env = JSON.parse(text)
    } catch {
      throw new AppError('internal_error', `--paginate: the answer of ${path} is not JSON`)
    }
    if (!Array.isArray(env.data)) throw new AppError('usage', `--paginate: ${path} does not answer with a list (its data is not an array)`)
    let chunk = ''
    if (held) held.push(...env.data)
    else
      for (const item of env.data) {
        chunk += ndjson ? `${json(item)}\n` : `${count === 0 ? '[\n  ' : ',\n  '}${json(item)}`
        count++
      }
    // A slow reader holds the next page back; one that has gone (`| head -1`) stops the fetch.
    await writeDrained(ctx.io.stdout, chunk)
    cursor = env.pagination?.next_cursor ?? undefined
    if (!env.pagination?.has_more || !cursor) break
    await expectReader(ctx.io.stdout)
  }
  if (held) await printJson(ctx.io, ctx.printer, held)
  else if (!ndjson) ctx.io.stdout.write(count === 0 ? '[]\n' : '\n]\n')
  return EXIT.ok
}
