/** What both dialects' usage writes share: the requests of a flush counted per key. */
import type { Insertable } from 'kysely'
import type { ApiRequestsTable, NewApiRequestRow } from './schema.js'

/** A usage record as written: numbered. */
export type ApiRequestInsert = Omit<Insertable<ApiRequestsTable>, 'id'>

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

/**
 * `rows` numbered per key (`seq`, migration 0043) in their order, after `before`: each key's last
 * number so far (an API key's usage_count before this write; for a login, its records' highest).
 */
export function numbered(rows: readonly NewApiRequestRow[], before: ReadonlyMap<string, number>): ApiRequestInsert[] {
  const last = new Map(before)
  return rows.map((row) => {
    const seq = (last.get(row.key_id) ?? 0) + 1
    last.set(row.key_id, seq)
    return { ...row, seq }
  })
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

/** The ten-minute period a record falls in (`api_key_usage_periods`, migration 0034): the first 15 characters of its ISO time. */
export function usagePeriod(createdAt: string): string {
  return createdAt.slice(0, 15)
}

/** The requests in `rows` per key and ten-minute period: what `api_key_usage_periods` adds up. */
export function usagePerPeriod(rows: readonly NewApiRequestRow[]): Array<{ key_id: string; period: string; requests: number }> {
  const periods = new Map<string, { key_id: string; period: string; requests: number }>()
  for (const row of rows) {
    const period = usagePeriod(row.created_at)
    const id = `${row.key_id}\u0000${period}`
    const p = periods.get(id)
    if (p) p.requests++
    else periods.set(id, { key_id: row.key_id, period, requests: 1 })
  }
  return [...periods.values()]
}
