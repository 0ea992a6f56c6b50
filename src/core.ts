/**
 * The server core: a store, the usage recorder and the HTTP app over them. `finctl serve` puts it
 * on a socket; the embedded transport calls `app.fetch` directly.
 */
import { createApp, type App } from './api/app.js'
import { UsageRecorder } from './api/usage-recorder.js'
import { drainStatementJobs } from './domain/statement-inflight.js'
import type { AppDeps } from './api/env.js'
import { openStore, type OpenStoreOptions } from './store/open-store.js'
import type { Store } from './store/store.js'
import { VERSION } from './version.js'

export interface Core {
  app: App
  store: Store
  usage: UsageRecorder
  /** Finish the statements being processed, flush usage records and close the store. */
  close(): Promise<void>
}

export interface CoreOptions extends OpenStoreOptions {
  now?: () => Date
  usageIntervalMs?: number
  log?: AppDeps['log']
}

export async function openCore(target: string, opts: CoreOptions = {}): Promise<Core> {
  const store = await openStore(target, opts)
  const usage = new UsageRecorder(store, { intervalMs: opts.usageIntervalMs ?? 100, maxBuffer: 500 })
  const app = createApp({ store, usage, now: opts.now ?? (() => new Date()), version: VERSION, log: opts.log })
  let closed = false
  return {
    app,
    store,
    usage,
    async close() {
      if (closed) return
      closed = true
      await drainStatementJobs(store)
      await usage.flush()
      await store.close()
    },
  }
}
