/** The remote transport: HTTP to a base_url through undici, with keep-alive connections. */
import { Agent, fetch as undiciFetch } from 'undici'
import type { FetchLike } from './client.js'

export interface RemoteTransport {
  fetch: FetchLike
  close(): Promise<void>
}

export function openRemote(opts: { connections?: number; timeoutMs?: number } = {}): RemoteTransport {
  const agent = new Agent({
    keepAliveTimeout: 10_000,
    connections: opts.connections ?? 16,
    headersTimeout: opts.timeoutMs ?? 60_000,
    bodyTimeout: opts.timeoutMs ?? 60_000,
  })
  return {
    fetch: (url, init) => undiciFetch(url, { ...(init as object), dispatcher: agent }) as unknown as Promise<Response>,
    close: () => agent.close(),
  }
}
