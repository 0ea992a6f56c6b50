/** Usage records on SQLite: prepared statements, one transaction a flush. */
import type BetterSqlite3 from 'better-sqlite3'
import { usagePerKey } from '../api-usage.js'
import type { NewApiRequestRow } from '../schema.js'

/** Appends usage records and brings each key's usage_count and last_used_at in step, in one transaction. */
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
  return raw.transaction((rows: NewApiRequestRow[]) => {
    for (const row of rows) insertRequest.run({ request_id: null, path: null, ...row })
    for (const [id, { n, last }] of usagePerKey(rows)) bumpKey.run({ id, n, last })
  })
}
