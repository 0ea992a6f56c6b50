/** Usage records on SQLite: prepared statements, one transaction a flush. */
import type BetterSqlite3 from 'better-sqlite3'
import { usagePerGroup, usagePerKey, usagePerPeriod } from '../api-usage.js'
import type { NewApiRequestRow } from '../schema.js'

/** Appends usage records and brings each key's usage_count, last_used_at, kept totals and periods in step, in one transaction. */
export function prepareUsage(raw: BetterSqlite3.Database): (rows: NewApiRequestRow[]) => void {
  const insertRequest = raw.prepare(
    `INSERT INTO api_requests (key_id, company_id, method, endpoint, status_code, response_time_ms, created_at, request_id, path)
     VALUES (@key_id, @company_id, @method, @endpoint, @status_code, @response_time_ms, @created_at, @request_id, @path)`,
  )
  const bumpKey = raw.prepare(
    `UPDATE api_keys SET usage_count = usage_count + @n,
       last_used_at = CASE WHEN last_used_at IS NULL OR last_used_at < @last THEN @last ELSE last_used_at END
     WHERE id = @id`,
  )
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
    for (const row of rows) insertRequest.run({ request_id: null, path: null, ...row })
    for (const [id, { n, last }] of usagePerKey(rows)) bumpKey.run({ id, n, last })
    for (const g of usagePerGroup(rows)) addUp.run(g)
    for (const p of usagePerPeriod(rows)) addPeriod.run(p)
  })
}
