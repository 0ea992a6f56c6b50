/** Usage records on SQLite: prepared statements, one transaction a flush. */
import type BetterSqlite3 from 'better-sqlite3'
import { numbered, usagePerGroup, usagePerKey, usagePerPeriod } from '../api-usage.js'
import type { NewApiRequestRow } from '../schema.js'

/** Appends usage records, numbered per key, and brings each key's usage_count, last_used_at, kept totals and periods in step, in one transaction. */
export function prepareUsage(raw: BetterSqlite3.Database): (rows: NewApiRequestRow[]) => void {
  const insertRequest = raw.prepare(
    `INSERT INTO api_requests (key_id, company_id, method, endpoint, status_code, response_time_ms, created_at, request_id, path, seq, via)
     VALUES (@key_id, @company_id, @method, @endpoint, @status_code, @response_time_ms, @created_at, @request_id, @path, @seq, @via)`,
  )
  const bumpKey = raw.prepare(
    `UPDATE api_keys SET usage_count = usage_count + @n,
       last_used_at = CASE WHEN last_used_at IS NULL OR last_used_at < @last THEN @last ELSE last_used_at END
     WHERE id = @id RETURNING usage_count`,
  )
  // A login's records (no api_keys row) are numbered after their highest.
  const topSeq = raw.prepare('SELECT max(seq) AS seq FROM api_requests WHERE key_id = ?')
  const addUp = raw.prepare(
    `INSERT INTO api_key_usage (key_id, endpoint, status_code, requests, response_ms, last_at)
     VALUES (@key_id, @endpoint, @status_code, @requests, @response_ms, @last_at)
     ON CONFLICT (key_id, endpoint, status_code) DO UPDATE SET requests = requests + excluded.requests,
       response_ms = response_ms + excluded.response_ms, last_at = max(last_at, excluded.last_at)`,
  )
  const addPeriod = raw.prepare(
    `INSERT INTO api_key_usage_periods (key_id, period, requests) VALUES (@key_id, @period, @requests)
     ON CONFLICT (key_id, period) DO UPDATE SET requests = requests + excluded.requests`,
  )
  return raw.transaction((rows: NewApiRequestRow[]) => {
    // Each key's count first: the records are numbered after it (seq, migration 0043).
    const before = new Map<string, number>()
    for (const [id, { n, last }] of usagePerKey(rows)) {
      const bumped = bumpKey.get({ id, n, last }) as { usage_count: number } | undefined
      before.set(id, bumped ? bumped.usage_count - n : ((topSeq.get(id) as { seq: number | null }).seq ?? 0))
    }
    for (const row of numbered(rows, before)) insertRequest.run({ request_id: null, path: null, via: null, ...row })
    for (const g of usagePerGroup(rows)) addUp.run(g)
    for (const p of usagePerPeriod(rows)) addPeriod.run(p)
  })
}
