/** The request log through the client (GET /api-v1/logs; docs/logs.md): a page after a cursor, `wait` seconds a long poll. */
import type { RequestLogEntry } from '../domain/api-keys/request-log.js'
import type { Client } from './client.js'

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
  client: Client,
  q: RequestLogRead,
  signal?: AbortSignal,
): Promise<{ data: RequestLogEntry[]; next_cursor: string; has_more: boolean }> {
  const r = await client.request<RequestLogEntry[]>('GET', '/api-v1/logs', { query: { ...q }, signal })
  return { data: r.data, next_cursor: r.pagination?.next_cursor ?? q.after ?? '0', has_more: r.pagination?.has_more ?? false }
}
