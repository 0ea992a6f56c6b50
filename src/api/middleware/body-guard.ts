/**
 * Checks a request body before any route sees it: at most 1 MiB (413), JSON content type (415)
 * and well-formed JSON (400 invalid_json). Routes that take files declare their own limit later.
 */
import type { IncomingMessage } from 'node:http'
import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { AppError } from '../../kernel/errors.js'
import type { AppEnv } from '../env.js'
import { documentsPaths, exchangeRatesPaths, statementsPaths } from '../paths.js'
import { matchedRoute } from '../route-template.js'

export const MAX_JSON_BODY = 1024 * 1024
/** A batch of 5,000 transactions is larger than 1 MiB of JSON. */
export const MAX_BATCH_BODY = 16 * 1024 * 1024
const LARGE_BODY_ROUTES = new Set([
  'POST /api-v1/transactions/batch',
  // A review import's rows are staged in batches as large.
  'POST /api-v1/imports/{id}/pending',
])
/**
 * A statement upload (a 20 MiB file, as multipart or as base64 in JSON) is neither read as text
 * nor checked as JSON here: its route reads and checks it. Only the size is limited here.
 */
export const STATEMENT_UPLOAD_PATH = statementsPaths.upload.path
/** A rates file (the ECB's history is about 2 MiB) comes the same way. */
export const RATES_IMPORT_PATH = exchangeRatesPaths.import.path
/** A document (at most 20 MiB, as multipart or base64 in JSON) comes the same way (docs/documents.md). */
export const DOCUMENT_UPLOAD_PATH = documentsPaths.add.path
export const MAX_STATEMENT_BODY = 28 * 1024 * 1024

const FILE_ROUTES = new Set([STATEMENT_UPLOAD_PATH, RATES_IMPORT_PATH, DOCUMENT_UPLOAD_PATH].map((path) => `POST ${path}`))

const limiter = (maxSize: number, label: string) =>
  bodyLimit({
    maxSize,
    onError: (c) => {
      // The rest of the body is not read: the connection cannot carry another request.
      c.header('Connection', 'close')
      throw new AppError('payload_too_large', `the request body is larger than ${label}`)
    },
  })
const limitJson = limiter(MAX_JSON_BODY, '1 MiB')
const limitBatch = limiter(MAX_BATCH_BODY, '16 MiB')
const limitStatement = limiter(MAX_STATEMENT_BODY, '28 MiB (a statement file may be up to 20 MiB)')

/**
 * On `finctl serve`, read the body straight from Node's request (a web Request stream for it would
 * cost every request its building) and hand it to Hono's body cache, where validators find it.
 */
async function readIncoming(incoming: IncomingMessage, max: number, label: string): Promise<string> {
  return (await readIncomingBytes(incoming, max, label)).toString('utf8')
}

async function readIncomingBytes(incoming: IncomingMessage, max: number, label: string): Promise<Buffer> {
  // A body over the limit is still read (and dropped) up to a bound, so that the client, which is
  // still sending, receives the 413 instead of a reset connection; beyond the bound, close at once.
  const discard = Math.max(2 * max, 32 * 1024 * 1024)
  const declared = Number(incoming.headers['content-length'] ?? '0')
  if (declared > discard) throw tooLarge(label)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > discard) throw tooLarge(label)
    if (size <= max) chunks.push(chunk)
  }
  if (size > max) throw tooLarge(label)
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
}

function tooLarge(label: string): AppError {
  return new AppError('payload_too_large', `the request body is larger than ${label}`)
}

/** Where the body comes from: Node's request on `finctl serve`, text beside the request in-process. */
type BodySource = { incoming?: IncomingMessage; embeddedBody?: string }

export const bodyGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const method = c.req.method
  if (method !== 'POST' && method !== 'PATCH' && method !== 'PUT') return next()
  // Which route, not which URL: the matched route's operation decides the limit.
  const route = matchedRoute(c)
  const large = route !== null && LARGE_BODY_ROUTES.has(route)
  const source = c.env as BodySource | undefined
  const incoming = source?.incoming
  const embedded = source?.embeddedBody
  // Hono keeps promises in its body cache (its type says otherwise).
  const cache = c.req.bodyCache as Record<string, Promise<unknown>>
  if (route !== null && FILE_ROUTES.has(route)) {
    const label = '28 MiB (a statement file may be up to 20 MiB)'
    let body: Buffer
    if (embedded !== undefined) {
      body = Buffer.from(embedded, 'utf8')
      if (body.length > MAX_STATEMENT_BODY) throw tooLarge(label)
    } else if (incoming) {
      try {
        body = await readIncomingBytes(incoming, MAX_STATEMENT_BODY, label)
      } catch (err) {
        c.header('Connection', 'close')
        throw err
      }
    } else {
      return limitStatement(c, next)
    }
    // The route reads it as JSON or as multipart/form-data from Hono's body cache.
    cache.arrayBuffer = Promise.resolve(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength))
    return next()
  }
  const max = large ? MAX_BATCH_BODY : MAX_JSON_BODY
  const label = large ? '16 MiB' : '1 MiB'
  if (incoming || embedded !== undefined) {
    let text: string
    if (embedded !== undefined) {
      // Characters first: a string of n characters holds at most 3n bytes of UTF-8.
      if (embedded.length * 3 > max && Buffer.byteLength(embedded, 'utf8') > max) throw tooLarge(label)
      text = embedded
    } else {
      try {
        text = await readIncoming(incoming!, max, label)
      } catch (err) {
        // The rest of the body is not read: the connection cannot carry another request.
        c.header('Connection', 'close')
        throw err
      }
    }
    const parsed = checkJson(c.req.header('content-type'), text)
    cache.text = Promise.resolve(text)
    if (parsed !== undefined) {
      const json = Promise.resolve(parsed)
      cache.json = json
      // Hono 4.13's `c.req.json()` parses the cached text again instead of reading `bodyCache.json`,
      // and its validators call it, so every batch was parsed twice: they get the value parsed here.
      ;(c.req as { json: () => Promise<unknown> }).json = () => json
    }
    return next()
  }
  const limit = large ? limitBatch : limitJson
  return limit(c, async () => {
    checkJson(c.req.header('content-type'), await c.req.text())
    await next()
  })
}

/** A non-empty body must be JSON, declared as JSON; returns the parsed value (undefined for no body). */
function checkJson(contentType: string | undefined, text: string): unknown {
  if (text.length === 0) return undefined
  if (!/^application\/(.+\+)?json\b/i.test(contentType ?? '')) {
    throw new AppError('unsupported_media_type', 'send the body as JSON with Content-Type: application/json')
  }
  try {
    return JSON.parse(text)
  } catch {
    throw new AppError('invalid_json', 'the request body is not valid JSON')
  }
}
