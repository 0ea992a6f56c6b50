import type { Actor } from '../domain/actor.js'
import type { ApiKeyRow } from '../store/schema.js'
import type { Store } from '../store/store.js'
import type { UsageRecorder } from './usage-recorder.js'
import type { DateWindow } from '../domain/transactions/plausibility.js'
import type { AddressPolicy } from '../domain/webhooks/url-check.js'
import type { Replay } from '../domain/approvals/step-types.js'

/** What every route and middleware can reach. */
export interface AppDeps {
  store: Store
  usage: UsageRecorder
  now: () => Date
  /** The dates a transaction may carry without `force` (plausibility.ts). */
  dateWindow: DateWindow
  version: string
  /** Access log of `finctl serve`; the embedded core logs nothing. */
  log?: (entry: AccessLogEntry) => void
  /** A failed login, for `finctl serve`'s log (login_failures in the database holds every one). */
  loginFailed?: (entry: { email: string; client_address?: string; status: number }) => void
  /** Statement files of more bytes are parsed on a worker thread (default jobs.ts's WORKER_THRESHOLD; `finctl serve`: 0, every file). */
  statementWorkerThreshold?: number
  /** What webhook endpoints may reach (default: the embedded core's policy; `finctl serve` gives its own). */
  webhookAddresses?: AddressPolicy
  /** The app's own routes, for an agent's request approved (replay.ts): set by createApp for its route groups. */
  replay?: Replay
}

/** One line of `finctl serve`'s access log: never a header, a query string or a body. */
export interface AccessLogEntry {
  request_id: string
  method: string
  route: string
  status: number
  duration_ms: number
  key_prefix?: string
}

export interface AppEnv {
  Variables: {
    requestId: string
    actor: Actor
    /** Set when the request authenticated with an API key. */
    apiKey?: ApiKeyRow
    /** Set once the request's writes are known durable (middleware/durable.ts). */
    answeredDurably?: boolean
  }
}
