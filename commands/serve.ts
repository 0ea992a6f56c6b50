/** finctl serve: the server core on a socket. */
import type { Command } from 'commander'
import { AppError } from '../src/kernel/errors.js'
import type { Context } from '../src/cli/context.js'
import { defaultDatabase } from '../src/cli/profiles.js'
import { restartWithServerHeap } from '../src/cli/server-heap.js'
import type { RunVerb, Runner, VerbHost } from '../src/cli/runner.js'

export interface ServeOptions {
  host: string
  port: string
  database?: string
  poolSize: string
  logLevel: string
  webhooksAllowPrivate?: boolean
  mcp?: boolean
  mcpFiles?: string
}

/** The host of `serve`: the profile's database is its default. */
export type ServeHost = VerbHost & Pick<Context, 'profile'>

export function registerServe(program: Command, run: Runner, runF: RunVerb<ServeOptions, ServeHost> = runServe): void {
  program
    .command('serve')
    .description('serve the finctl API over HTTP')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port (0 picks a free one)', '8080')
    .option('--database <path|url>', 'SQLite file or postgres:// URL (env FINCTL_DATABASE)')
    .option('--pool-size <n>', 'PostgreSQL connections per process', '10')
    .option('--log-level <level>', 'debug, info (one JSON line per request), warn, error or silent', 'info')
    .option(
      '--webhooks-allow-private',
      'let webhook endpoints reach loopback and private addresses (env FINCTL_WEBHOOK_ALLOW_PRIVATE=1): development, one company',
    )
    .option('--mcp', 'also serve the MCP tools for AI agents at /mcp (Streamable HTTP; an API key as the bearer): docs/agents.md')
    .option('--mcp-files <dir>', 'with --mcp: the folder propose_import may read CSV files from')
    .addHelpText(
      'after',
      '\nExamples:\n  finctl serve --port 8080\n  finctl serve --database postgres://finctl@db/finctl --host 0.0.0.0\n  finctl serve --mcp\n',
    )
    .action(run(runF))
}

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const

export async function runServe(ctx: ServeHost, o: ServeOptions): Promise<number> {
  if (!(LOG_LEVELS as readonly string[]).includes(o.logLevel))
    throw new AppError('usage', `--log-level must be one of ${LOG_LEVELS.join(', ')}`)
  const port = Number(o.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new AppError('usage', '--port must be a number from 0 to 65535')
  const poolSize = Number(o.poolSize)
  if (!Number.isInteger(poolSize) || poolSize < 1) throw new AppError('usage', '--pool-size must be a whole number of at least 1')
  if (o.mcpFiles !== undefined && !o.mcp) throw new AppError('usage', '--mcp-files goes with --mcp')
  const database = o.database ?? ctx.io.env.FINCTL_DATABASE ?? ctx.profile()?.database ?? defaultDatabase(ctx.io.env)
  restartWithServerHeap(database)
  const { startServer } = await import('../src/server.js')
  const server = await startServer({
    host: o.host,
    port,
    database,
    poolSize,
    drainTimeoutMs: 30_000,
    logLevel: o.logLevel as (typeof LOG_LEVELS)[number],
    webhooksAllowPrivate: o.webhooksAllowPrivate === true,
    mcp: o.mcp ? { files: o.mcpFiles } : undefined,
  })
  // Plain lines first (people and scripts wait for "listening on"), JSON logs after.
  ctx.io.stderr.write(`finctl ${server.core.store.dialect} store at ${server.core.store.location}\nlistening on ${server.url}\n`)
  if (o.mcp) ctx.io.stderr.write(`MCP tools at ${server.url}/mcp (an API key as the bearer)\n`)
  server.logger.info({ url: server.url, store: server.core.store.dialect }, 'listening')
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      server.logger.info({ signal }, 'stopping: finishing requests in flight')
      server.stop().then(resolve, resolve)
    }
    process.once('SIGTERM', () => stop('SIGTERM'))
    process.once('SIGINT', () => stop('SIGINT'))
  })
  server.logger.info('stopped')
  server.logger.flush()
  return 0
}
