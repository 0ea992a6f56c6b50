/**
 * `finctl serve`: the core on a socket, with JSON logs (pino) on stderr. On SIGTERM/SIGINT it stops
 * accepting connections, lets requests in flight finish, flushes usage records and closes the store.
 */
import { randomUUID } from 'node:crypto'
import type { Server } from 'node:http'
import { serve } from '@hono/node-server'
import pino from 'pino'
import { errorBody, setInternalErrorReporter, setStoreErrorWords } from './api/errors.js'
import { serviceWords } from './store/store-errors.js'
import { AppError } from './kernel/errors.js'
import { redactPasswords } from './kernel/redact.js'
import { jsonText } from './kernel/terminal-text.js'
import { openCore, type Core } from './core.js'
import { WebhookDeliverer } from './domain/webhooks/loop.js'
import { webhookPolicy } from './domain/webhooks/url-check.js'

const HOUSEKEEPING_CHECK_MS = 10 * 60_000

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'

export interface ServeOptions {
  host: string
  port: number
  database: string
  poolSize?: number
  /** How long requests in flight may take to finish after a stop signal. */
  drainTimeoutMs: number
  logLevel: LogLevel
  /** Webhooks may reach loopback and private addresses (also FINCTL_WEBHOOK_ALLOW_PRIVATE=1): docs/events.md. */
  webhooksAllowPrivate?: boolean
  /** The MCP server at /mcp (docs/agents.md), and the folder its import tool may read files from. */
  mcp?: { files?: string }
}

export interface RunningServer {
  url: string
  core: Core
  logger: pino.Logger
  stop(): Promise<void>
}

/**
 * The service's JSON log (stderr by default). A request's path, a name or an error may quote outside
 * text: C1 and bidi controls and U+2028/2029, which JSON.stringify leaves raw, are written as `\u`
 * escapes too (jsonText), so a log followed on a terminal shows them, and each line still parses to
 * the exact text.
 */
export function serviceLogger(
  level: LogLevel,
  destination: pino.DestinationStream = pino.destination({ fd: 2, sync: false }),
): pino.Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      hooks: { streamWrite: jsonText },
    },
    destination,
  )
}

export async function startServer(o: ServeOptions): Promise<RunningServer> {
  const logger = serviceLogger(o.logLevel)
  setInternalErrorReporter((err, requestId) => {
    const e = err as Error | undefined
    const text = (t: string | undefined) => (t === undefined ? undefined : redactPasswords(t))
    logger.error({ request_id: requestId, err: { message: text(e?.message), stack: text(e?.stack) } }, 'internal error')
  })
  // The database's file is the operator's to see: in the log, not in the answer.
  setStoreErrorWords((err, requestId) => {
    logger.error({ request_id: requestId, code: err.code, detail: err.internal ?? err.message }, 'database')
    return serviceWords(err)
  })
  // One company's endpoint must not reach the service's own network unless the operator allows it.
  const webhookAddresses = webhookPolicy({ service: true, allowPrivate: o.webhooksAllowPrivate })
  const core = await openCore(o.database, {
    poolSize: o.poolSize,
    log: logger.isLevelEnabled('info') ? (entry) => logger.info(entry, 'request') : undefined,
    loginFailed: (entry) => logger.warn(entry, 'login failed'),
    // Every statement file is parsed on a worker: none holds the loop that answers everyone else.
    statementWorkerThreshold: 0,
    webhookAddresses,
  })
  // Every route group is built before the first request, not by it.
  await core.app.loadAll()
  // Housekeeping runs at most once an hour per database (whichever process comes first): look every ten minutes.
  void core.housekeeping()
  const housekeeper = setInterval(() => void core.housekeeping(), HOUSEKEEPING_CHECK_MS)
  housekeeper.unref()
  // Webhooks: this process sends what is due, sharing the endpoints with any other serve (docs/events.md).
  const deliverer = new WebhookDeliverer(core.store, {
    policy: webhookAddresses,
    report: (err) => logger.error({ err: { message: redactPasswords((err as Error)?.message ?? String(err)) } }, 'webhook delivery'),
  })
  deliverer.start()
  const fetch = o.mcp ? await withMcp(core, o.mcp) : core.app.fetch
  const { server, port } = await new Promise<{ server: Server; port: number }>((resolve, reject) => {
    const s = serve({ fetch, hostname: o.host, port: o.port }, (info) => resolve({ server: s as Server, port: info.port }))
    ;(s as Server).once('error', reject)
  }).catch(async (err: NodeJS.ErrnoException) => {
    clearInterval(housekeeper)
    await deliverer.stop()
    await core.close()
    throw listenError(err, o.host, o.port)
  })
  server.keepAliveTimeout = 10_000
  server.headersTimeout = 30_000
  server.requestTimeout = 120_000
  // Requests Node's HTTP parser refuses (request line and headers over 16 KiB, malformed HTTP) never
  // reach the app: answer them with the error envelope and X-Request-Id too, not a bare status line.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return void socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n')
    const id = `req_${randomUUID().replace(/-/g, '').slice(0, 20)}`
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW'
    const e = tooLarge
      ? new AppError('payload_too_large', 'the request line and headers are larger than 16 KiB')
      : new AppError('validation_error', 'malformed HTTP request')
    const body = JSON.stringify(errorBody(e, id))
    const status = tooLarge ? '413 Content Too Large' : '400 Bad Request'
    socket.end(
      `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
    )
  })
  const host = o.host.includes(':') ? `[${o.host}]` : o.host
  let stopping: Promise<void> | undefined
  return {
    url: `http://${host}:${port}`,
    core,
    logger,
    stop() {
      stopping ??= (async () => {
        // Long polls of the request log answer now, so that the drain does not wait for them.
        void core.usage.release()
        await new Promise<void>((resolve) => {
          server.close(() => resolve())
          // Keep-alive connections become idle as their last request finishes: close them as they
          // do, rather than waiting for their keep-alive timeout; after the deadline, close the rest.
          const started = Date.now()
          const timer = setInterval(() => {
            server.closeIdleConnections()
            if (Date.now() - started > o.drainTimeoutMs) server.closeAllConnections()
          }, 25)
          server.once('close', () => clearInterval(timer))
          server.closeIdleConnections()
        })
        clearInterval(housekeeper)
        await deliverer.stop()
        await core.close()
        logger.flush()
      })()
      return stopping
    },
  }
}

/** The app, and the MCP server at /mcp whose tools call the app in this process with the caller's key. */
async function withMcp(core: Core, o: { files?: string }): Promise<Core['app']['fetch']> {
  const { MCP_PATH, mcpHttpHandler } = await import('./mcp/http.js')
  const mcp = mcpHttpHandler({ fetch: async (url, init) => core.app.fetch(new Request(url, init)), files: o.files })
  return (req, env) => (new URL(req.url).pathname === MCP_PATH ? mcp(req) : core.app.fetch(req, env))
}

/** A socket that cannot be opened, in the words of `finctl serve`'s flags (exit 2: another --port or --host). */
function listenError(err: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `port ${port} on ${host}`
  if (err.code === 'EADDRINUSE') return new AppError('usage', `${where} is in use by another program: stop it or give --port N`)
  if (err.code === 'EACCES')
    return new AppError('usage', `${where} needs privileges this user does not have: give --port N of 1024 or more`)
  if (err.code === 'EADDRNOTAVAIL')
    return new AppError('usage', `--host ${host} is no address of this machine: give --host 127.0.0.1 or 0.0.0.0`)
  return err
}
