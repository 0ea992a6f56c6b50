/** What both dialects' usage writes share: the requests of a flush counted per key. */
import type { NewApiRequestRow } from './schema.js'

/** Each key's count of requests in `rows` and the time of its latest. */
export function usagePerKey(rows: readonly NewApiRequestRow[]): Map<string, { n: number; last: string }> {
  const perKey = new Map<string, { n: number; last: string }>()
  for (const row of rows) {
    const k = perKey.get(row.key_id)
    if (!k) perKey.set(row.key_id, { n: 1, last: row.created_at })
    else {
      k.n++
      if (row.created_at > k.last) k.last = row.created_at
    }
  }
  return perKey
}

export interface UsageGroup {
  key_id: string
  endpoint: string
  status_code: number
  requests: number
  response_ms: number
  last_at: string
}

/** The requests in `rows` per key, endpoint and status: what `api_key_usage` adds up. */
export function usagePerGroup(rows: readonly NewApiRequestRow[]): UsageGroup[] {
  const groups = new Map<string, UsageGroup>()
  for (const row of rows) {
    const id = `${row.key_id}\u0000${row.endpoint}\u0000${row.status_code}`
    const g = groups.get(id)
    if (!g)
      groups.set(id, {
        key_id: row.key_id,
        endpoint: row.endpoint,
        status_code: row.status_code,
        requests: 1,
        response_ms: row.response_time_ms,
        last_at: row.created_at,
      })
    else {
      g.requests++
      g.response_ms += row.response_time_ms
      if (row.created_at > g.last_at) g.last_at = row.created_at
    }
  }
  return [...groups.values()]
}
