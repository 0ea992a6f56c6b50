/**
 * The one error path of the HTTP app: every thrown error becomes the envelope of docs/api.md section 1.
 * Non-AppErrors are bugs: logged with their stack on the server, answered as a bare 500.
 */
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ZodError } from 'zod'
import { AppError } from '../kernel/errors.js'
import { zodError } from '../domain/validation.js'
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

/** Logged internal failures go through this hook (the server sets it to its logger). */
export let reportInternalError: (err: unknown, requestId: string) => void = (err, requestId) => {
  process.stderr.write(`internal error in request ${requestId}: ${(err as Error)?.stack ?? String(err)}\n`)
}
export function setInternalErrorReporter(fn: typeof reportInternalError): void {
  reportInternalError = fn
}

export function toAppError(err: unknown, requestId: string): AppError {
  if (err instanceof AppError) return err
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
  // SQLite cannot write (read-only file or folder, full disk): a condition of the installation, not a
  // bug; say what it is rather than print a stack trace.
  if (typeof dbCode === 'string' && /^SQLITE_(READONLY|FULL|CANTOPEN|IOERR)/.test(dbCode)) {
    const what = dbCode.startsWith('SQLITE_READONLY')
      ? 'the database is read-only: check the permissions of the database file and its folder'
      : dbCode === 'SQLITE_FULL'
        ? 'the disk holding the database is full'
        : 'the database file cannot be read or written'
    return new AppError('internal_error', `${what} (${dbCode}, request ${requestId})`)
  }
  reportInternalError(err, requestId)
  return new AppError('internal_error', `internal error (request ${requestId})`)
}

export function onError(err: unknown, c: Context<AppEnv>): Response {
  return errorResponse(c, toAppError(err, c.get('requestId') ?? ''))
}

export function validationError(error: ZodError, where: string): AppError {
  return zodError(error, where)
}
