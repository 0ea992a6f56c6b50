/**
 * The one error type of finctl. A stable `code` (docs/api.md section 1) decides the HTTP status on the
 * server and the exit code in the CLI; `message` is safe to show to users; `internal` never leaves
 * the process.
 */
export type ErrorCode =
  | 'validation_error'
  | 'invalid_json'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'idempotency_conflict'
  // a write to a transaction dated on or before the company's lock date (a closed month)
  | 'period_locked'
  // `close` of a month that `close status` does not find ready
  | 'not_ready'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'internal_error'
  // the database cannot take the request: locked past the wait, full, damaged, read-only (store-errors.ts)
  | 'database_busy'
  | 'database_full'
  | 'database_damaged'
  | 'database_read_only'
  // client-side only: the target could not be reached
  | 'unreachable'
  // client-side only: bad command-line usage
  | 'usage'
  // client-side only: a --jq filter failed on the data, or ran past its time or memory
  | 'filter_failed'

export interface ErrorDetail {
  path: string
  message: string
}

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  validation_error: 400,
  invalid_json: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  idempotency_conflict: 409,
  period_locked: 409,
  not_ready: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  database_busy: 503,
  database_full: 507,
  database_damaged: 503,
  database_read_only: 503,
  unreachable: 0,
  usage: 0,
  filter_failed: 0,
}

export class AppError extends Error {
  readonly code: ErrorCode
  readonly details?: ErrorDetail[]
  readonly internal?: string
  /** Seconds to wait before retrying (rate limits). */
  readonly retryAfter?: number
  /** Set when the error was rebuilt from a response. */
  readonly requestId?: string
  readonly status: number

  constructor(
    code: ErrorCode,
    message: string,
    opts: { details?: ErrorDetail[]; internal?: string; cause?: unknown; retryAfter?: number; requestId?: string; status?: number } = {},
  ) {
    super(message, { cause: opts.cause })
    this.name = 'AppError'
    this.code = code
    this.details = opts.details
    this.internal = opts.internal
    this.retryAfter = opts.retryAfter
    this.requestId = opts.requestId
    this.status = opts.status ?? STATUS_BY_CODE[code]
  }
}

export const validation = (path: string, message: string): AppError =>
  new AppError('validation_error', `${path}: ${message}`, { details: [{ path, message }] })

export const notFound = (what: string): AppError => new AppError('not_found', `${what} not found`)

/** The codes of a database that cannot take a request (the store says which, naming the file). */
export const DATABASE_CODES: ReadonlySet<ErrorCode> = new Set(['database_busy', 'database_full', 'database_damaged', 'database_read_only'])

/**
 * The embedded target's database cannot be opened (missing folder, not a database). A store error
 * (damaged, read-only, locked, full: it names the file already) stays as it is.
 */
export const databaseUnreachable = (target: string, err: unknown): AppError =>
  err instanceof AppError && DATABASE_CODES.has(err.code)
    ? err
    : new AppError('unreachable', `cannot open the database of ${target}: ${(err as Error)?.message ?? String(err)}`)

export const isAppError = (e: unknown): e is AppError => e instanceof AppError

/** An error in one line: its message, then the details its message does not already say. */
export function errorText(e: unknown): string {
  if (!(e instanceof AppError)) return (e as Error)?.message ?? String(e)
  const details = (e.details ?? []).map((d) => `${d.path}: ${d.message}`).filter((d) => !e.message.includes(d))
  return [e.message, ...details].join('; ')
}
