/** The one exit-code table of docs/cli.md (Output and behaviour). */
import type { ErrorCode } from '../kernel/errors.js'

export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  unauthenticated: 3,
  forbidden: 4,
  notFound: 5,
  invalid: 6,
  rateLimited: 7,
  partial: 8,
  /** Set by bin/finctl.cjs before anything else loads: this Node.js line is not supported. */
  unsupportedNode: 9,
  unreachable: 10,
  /** The database cannot take the command: locked past the wait, full, damaged, read-only (docs/concurrency.md). */
  database: 11,
  /**
   * `close status`: the month is not ready to close; `close`: refused for that reason (docs/closing.md);
   * `forecast --fail-below`: the lowest balance is below the amount (docs/forecast.md).
   */
  notReady: 12,

  /** `finctl verify`: the audit trail's hash chain is broken (an entry changed, removed or inserted; docs/audit.md). */
  auditBroken: 13,
  /** `webhooks test`, `events resend`: an endpoint did not answer 2xx (docs/events.md). */
  webhookFailed: 14,
  /** Under an approval policy the step became a proposal that waits for approval (docs/people.md): nothing changed yet. */
  proposed: 15,
  interrupted: 130,
  /** A --jq filter stopped by SIGTERM (Ctrl-C's SIGINT is `interrupted`). */
  terminated: 143,
} as const

export function exitCodeFor(code: ErrorCode): number {
  switch (code) {
    case 'usage':
      return EXIT.usage
    case 'unauthorized':
      return EXIT.unauthenticated
    case 'forbidden':
      return EXIT.forbidden
    case 'not_found':
      return EXIT.notFound
    case 'validation_error':
    case 'invalid_json':
    case 'conflict':
    case 'idempotency_conflict':
    case 'period_locked':
    case 'payload_too_large':
    case 'unsupported_media_type':
      return EXIT.invalid
    case 'not_ready':
      return EXIT.notReady
    case 'rate_limited':
      return EXIT.rateLimited
    case 'unreachable':
      return EXIT.unreachable
    case 'database_busy':
    case 'database_full':
    case 'database_damaged':
    case 'database_read_only':
      return EXIT.database
    default:
      return EXIT.failure
  }
}
