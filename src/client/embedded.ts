/** The embedded transport: the server core in this process, on a SQLite file (or a PostgreSQL URL). No socket. */
import { openCore, type Core, type CoreOptions } from '../core.js'
import type { FetchLike } from './client.js'

export const EMBEDDED_BASE_URL = 'http://finctl.embedded'

export interface EmbeddedTransport {
  fetch: FetchLike
  core: Core
  close(): Promise<void>
}

export async function openEmbedded(database: string, opts: CoreOptions = {}): Promise<EmbeddedTransport> {
  // One CLI command makes few requests: usage records are written at close, not on a timer.
  const core = await openCore(database, { usageIntervalMs: 0, ...opts })
  return {
    core,
    fetch: (url, init) => Promise.resolve(core.app.fetch(new Request(url, init))),
    close: () => core.close(),
  }
}
