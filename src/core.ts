/**
 * The server core: a store, the usage recorder and the HTTP app over them. `finctl serve` puts it
 * on a socket; the embedded transport calls `app.fetch` directly.
 */
import { createApp, type App } from './api/app.js'
import { UsageRecorder } from './api/usage-recorder.js'
import { drainStatementJobs } from './domain/statements/inflight.js'
import { housekeeping } from './domain/housekeeping.js'
import type { AppDeps } from './api/env.js'
import { openStore, type OpenStoreOptions } from './store/open-store.js'
import type { Store } from './store/store.js'
import { VERSION } from './version.js'
import { AppError } from './kernel/errors.js'
import { rateMaxAgeDays } from './domain/rate-book.js'
import { DEFAULT_DATE_WINDOW, parseDateWindow, type DateWindow } from './domain/transactions/plausibility.js'

export interface Core {
  app: App
  store: Store
  usage: UsageRecorder
  /** Drop records past their time when the last run is an hour old (domain/housekeeping.ts); never throws. */
  housekeeping(): Promise<void>
  /** Finish the statements being processed, flush usage records, keep house now and then, close the store. */
  close(): Promise<void>
}

export interface CoreOptions extends OpenStoreOptions {
  now?: () => Date
  /** Default: FINCTL_DATE_WINDOW, else 1970-01-01..+1y. */
  dateWindow?: DateWindow
  /** Default true (`finctl serve`): each usage record is written before its request is answered (UsageRecorder). */
  usageBeforeAnswer?: boolean
  /** With usageBeforeAnswer false: write usage records this long after they are made all the same (UsageRecorder). */
  usageLaterMs?: number
  log?: AppDeps['log']
  loginFailed?: AppDeps['loginFailed']
  statementWorkerThreshold?: AppDeps['statementWorkerThreshold']
  webhookAddresses?: AppDeps['webhookAddresses']
}

export async function openCore(target: string, opts: CoreOptions = {}): Promise<Core> {
  const dateWindow = opts.dateWindow ?? dateWindowFromEnv()
  // FINCTL_RATE_MAX_AGE_DAYS, read where rates are looked up: a malformed value stops the core here (exit 2).
  rateMaxAgeDays()
  const store = await openStore(target, opts)
  const usage = new UsageRecorder(store, { beforeAnswer: opts.usageBeforeAnswer ?? true, maxBuffer: 500, laterMs: opts.usageLaterMs })
  const now = opts.now ?? (() => new Date())
  const app = createApp({
    store,
    usage,
    now,
    dateWindow,
    version: VERSION,
    log: opts.log,
    loginFailed: opts.loginFailed,
    statementWorkerThreshold: opts.statementWorkerThreshold,
    webhookAddresses: opts.webhookAddresses,
  })
  let closed = false
  const keepHouse = () =>
    housekeeping(store, now()).then(
      () => undefined,
      // A read-only or busy database: the next process, or the next hour, does it.
      () => undefined,
    )
  return {
    app,
    store,
    usage,
    housekeeping: keepHouse,
    async close() {
      if (closed) return
      closed = true
      // Long polls of the request log answer now rather than at the end of their wait.
      await usage.release()
      await drainStatementJobs(store)
      await usage.flush()
      await keepHouse()
      await store.close()
    },
  }
}

/** FINCTL_DATE_WINDOW (`1970-01-01..+1y`): the same variable sets it for `finctl serve` and the embedded core. */
function dateWindowFromEnv(): DateWindow {
  const text = process.env.FINCTL_DATE_WINDOW
  if (!text) return DEFAULT_DATE_WINDOW
  try {
    return parseDateWindow(text)
  } catch (e) {
    throw new AppError('usage', `FINCTL_DATE_WINDOW: ${(e as Error).message}`)
  }
}
