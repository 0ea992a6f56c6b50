/**
 * The one error path of the HTTP app: every thrown error becomes the envelope of docs/api.md section 1.
 * Non-AppErrors are bugs: logged with their stack on the server, answered as a bare 500.
 */
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ZodError } from 'zod'
import { AppError, DATABASE_CODES } from '../kernel/errors.js'
import { printableLine } from '../kernel/terminal-text.js'
import { zodError } from '../domain/validation.js'
import { periodLockedByTrigger, storeError, storeProblemOf } from '../store/store-errors.js'
import type { AppEnv } from './env.js'

export function errorBody(err: AppError, requestId: string) {
  return {
    success: false as const,
    error: {
      code: err.code,
      message: err.message,
      ...(err.details?.length ? { details: err.details } : {}),
      request_id: requestId,
    },
  }
}

export function errorResponse(c: Context<AppEnv>, err: AppError): Response {
  if (err.retryAfter !== undefined) c.header('Retry-After', String(err.retryAfter))
  return c.json(errorBody(err, c.get('requestId') ?? ''), err.status as 400)
}

/**
 * Logged internal failures go through this hook: `finctl serve` sets it to its logger (with the
 * stack). The embedded core's user reads one line, the error's own words, never a stack trace.
 */
export let reportInternalError: (err: unknown, requestId: string) => void = (err, requestId) => {
  const e = err as Error | undefined
  const words = e instanceof Error ? `${e.name}: ${e.message}` : String(err)
  // The error's words may quote outside text (a bank file's line): escaped as every other message.
  process.stderr.write(`internal error in request ${requestId}: ${printableLine(words.split('\n')[0])}\n`)
}
export function setInternalErrorReporter(fn: typeof reportInternalError): void {
  reportInternalError = fn
}

/**
 * A store error (locked, full, damaged, read-only: it names the database) as the client reads it: the
 * embedded CLI's user owns the file, so as it is; `finctl serve` logs it and answers without the file.
 */
let storeErrorWords: (err: AppError, requestId: string) => AppError = (err) => err
export function setStoreErrorWords(fn: typeof storeErrorWords): void {
  storeErrorWords = fn
}

/** `database`: the store's location, for a driver error that reaches here as it was thrown (PostgreSQL's). */
export function toAppError(err: unknown, requestId: string, database = 'of the service'): AppError {
  if (err instanceof AppError) return DATABASE_CODES.has(err.code) ? storeErrorWords(err, requestId) : err
  const problem = storeProblemOf(err)
  if (problem) return storeErrorWords(storeError(problem, database, { cause: err }), requestId)
  const locked = periodLockedByTrigger(err)
  if (locked) return locked
  if (err instanceof HTTPException) {
    if (err.status === 400 && /json/i.test(err.message)) return new AppError('invalid_json', 'the request body is not valid JSON')
    if (err.status === 413) return new AppError('payload_too_large', 'the request body is larger than 1 MiB')
    // zod-openapi's media-type gate (an empty body with a non-JSON Content-Type reaches it).
    if (err.status === 415) return new AppError('unsupported_media_type', 'send the body as JSON with Content-Type: application/json')
    if (err.status === 400) return new AppError('validation_error', err.message || 'bad request')
  }
  // PostgreSQL refuses NUL characters in text (SQLite takes them): the caller's input, not a bug.
  const dbCode = (err as { code?: unknown } | null)?.code
  if (dbCode === '22021' || dbCode === '22P05')
    return new AppError('validation_error', 'text in the request must not contain NUL (\\u0000) characters')
  // SQLite cannot open or reach its file: a condition of the installation, not a bug; say what it is
  // rather than print a stack trace.
  if (typeof dbCode === 'string' && /^SQLITE_(CANTOPEN|IOERR)/.test(dbCode))
    return new AppError('internal_error', `the database file cannot be read or written (${dbCode}, request ${requestId})`)
  reportInternalError(err, requestId)
  return new AppError('internal_error', `internal error (request ${requestId})`)
}

export function onError(err: unknown, c: Context<AppEnv>, database?: string): Response {
  return errorResponse(c, toAppError(err, c.get('requestId') ?? '', database))
}

export function validationError(error: ZodError, where: string): AppError {
  return zodError(error, where)
}
