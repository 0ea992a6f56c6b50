/** The request log through the client (GET /logs; docs/logs.md): a page after a cursor, `wait` seconds a long poll. */
import { logsPaths } from '../api/paths.js'
import type { logsApi } from '../api/routes/logs.js'
import type { RequestLogEntry } from '../domain/api-keys/request-log.js'
import { routeCalls, type Sender } from './route-call.js'

export interface RequestLogRead {
  after?: string
  limit?: number
  wait?: number
  status?: string
  method?: string
  path?: string
  key?: string
}

export async function readRequestLog(
  client: Sender,
  q: RequestLogRead,
  signal?: AbortSignal,
): Promise<{ data: RequestLogEntry[]; next_cursor: string; has_more: boolean }> {
  const r = await routeCalls<typeof logsApi>(client, logsPaths)('list', { query: { ...q }, signal })
  return { data: r.data, next_cursor: r.pagination?.next_cursor ?? q.after ?? '0', has_more: r.pagination?.has_more ?? false }
}
