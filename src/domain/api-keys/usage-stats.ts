/** A key's usage statistics (docs/api.md section 3), read in one statement from what the usage writes keep. */
import { usagePeriod } from '../../store/api-usage.js'
import { keyUsageParts, type UsagePart as Part } from '../../store/queries.js'
import type { Store } from '../../store/store.js'
import type { ApiKeyRow } from '../../store/schema.js'
import type { UsageStats } from './schemas.js'

/** The length of a period of `api_key_usage_periods` (migration 0035). */
const PERIOD_MS = 10 * 60 * 1000
const DAY_MS = 24 * 60 * 60 * 1000

/**
 * One statement, so that one snapshot answers every figure (on PostgreSQL, one round trip): the
 * totals kept per endpoint and status (api_key_usage); the last day as the whole ten-minute periods
 * it covers (api_key_usage_periods) plus the records of the period it starts in, from the index on
 * (key_id, created_at); and the last few records written (by their number, `seq`).
 */
export async function usageStats(store: Store, key: ApiKeyRow, recent: number, now: Date): Promise<UsageStats> {
  const since = new Date(now.getTime() - DAY_MS)
  // The first whole period at or after `since`: records before it are counted one by one.
  const firstWhole = new Date(Math.ceil(since.getTime() / PERIOD_MS) * PERIOD_MS).toISOString()
  const rows = await keyUsageParts(store.db, key.id, {
    since: since.toISOString(),
    firstPeriod: usagePeriod(firstWhole),
    firstWhole,
    recent,
  })
  let total = 0
  let totalMs = 0
  let last: string | null = null
  let last24 = 0
  const endpoints: Record<string, number> = {}
  const codes: Record<string, number> = {}
  const newest: Array<Part & { at: string }> = []
  for (const r of rows) {
    const part = Number(r.part)
    if (part === 1) last24 += Number(r.n ?? 0)
    else if (part === 2) newest.push(r as Part & { at: string })
    else {
      const n = Number(r.n)
      total += n
      totalMs += Number(r.ms)
      if (last === null || r.at! > last) last = r.at
      endpoints[r.endpoint!] = (endpoints[r.endpoint!] ?? 0) + n
      codes[String(r.status_code)] = (codes[String(r.status_code)] ?? 0) + n
    }
  }
  // A compound statement's rows come in no promised order: the newest first.
  newest.sort((a, b) => (a.at !== b.at ? (a.at < b.at ? 1 : -1) : Number(b.id) - Number(a.id)))
  return {
    total_requests: total,
    last_used_at: last ?? key.last_used_at,
    last_24h_requests: last24,
    avg_response_time_ms: total === 0 ? 0 : Math.round(totalMs / total),
    endpoints,
    status_codes: codes,
    recent_requests: newest.map((r) => ({
      endpoint: r.endpoint!,
      method: r.method!,
      status_code: Number(r.status_code),
      response_time_ms: Number(r.ms),
      created_at: r.at,
    })),
  }
}
