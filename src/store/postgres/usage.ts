/**
 * Usage records on PostgreSQL in one transaction of two round trips: BEGIN, the lock and every key's
 * count; then the records, totals and periods with the COMMIT. Each round trip costs finctl a socket
 * write and a parse (docs/performance.md, "Where a POST's time goes").
 */
import type pg from 'pg'
import { placeholders, queryWith } from './params.js'
import { inPooledTransaction } from './pooled-transaction.js'
import { numbered, usagePerGroup, usagePerKey, usagePerPeriod } from '../api-usage.js'
import type { NewApiRequestRow } from '../schema.js'

/** The advisory lock that serializes writers of api_requests (any constant of our own). */
const REQUEST_LOG_LOCK = 510_022

// One writer at a time, so that ids are committed in their order and a reader that follows the
// ids (the request log's cursor, domain/api-keys/request-log.ts) never passes one still uncommitted.
const BEGIN_LOCKED = `BEGIN; SELECT pg_advisory_xact_lock(${REQUEST_LOG_LOCK})`

/**
 * Each key's count first: the records are numbered after it (seq, migration 0043). A login's records
 * (no api_keys row) are numbered after their highest.
 */
const BUMP = `
  WITH k AS (SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[]) AS k(id, n, last)),
  bumped AS (
    UPDATE api_keys a SET usage_count = a.usage_count + k.n,
      last_used_at = CASE WHEN a.last_used_at IS NULL OR a.last_used_at < k.last THEN k.last ELSE a.last_used_at END
    FROM k WHERE a.id = k.id RETURNING a.id, a.usage_count - k.n AS before)
  SELECT k.id, coalesce((SELECT b.before FROM bumped b WHERE b.id = k.id), (SELECT max(seq) FROM api_requests r WHERE r.key_id = k.id), 0) AS seq
  FROM k`

const RECORD_COLUMNS = 'key_id, company_id, method, endpoint, status_code, response_time_ms, created_at, request_id, path, seq, via'
const CHUNK = 1000

export async function insertApiRequests(pool: pg.Pool, rows: NewApiRequestRow[]): Promise<void> {
  if (rows.length === 0) return
  const perKey = usagePerKey(rows)
  await inPooledTransaction(pool, async (client) => {
    const keys = [...perKey.keys()]
    const bump = [keys, keys.map((k) => perKey.get(k)!.n), keys.map((k) => perKey.get(k)!.last)]
    // BEGIN, the lock and the counts in one round trip.
    const counted = await queryWith<{ id: string; seq: string | number }>(client, { before: BEGIN_LOCKED }, BUMP, bump)
    const numberedRows = numbered(rows, new Map(counted.rows.map((r) => [r.id, Number(r.seq)])))
    for (let i = 0; i < numberedRows.length; i += CHUNK) {
      const part = numberedRows.slice(i, i + CHUNK)
      const params: unknown[] = []
      for (const r of part)
        params.push(
          r.key_id,
          r.company_id,
          r.method,
          r.endpoint,
          r.status_code,
          r.response_time_ms,
          r.created_at,
          r.request_id ?? null,
          r.path ?? null,
          r.seq,
          r.via ?? null,
        )
      let text = `INSERT INTO api_requests (${RECORD_COLUMNS}) VALUES ${placeholders(part.length, 11, 1)}`
      if (i + CHUNK >= numberedRows.length) {
        // With the last records, the totals and the periods (three tables, so no order among them matters).
        const totals = usagePerGroup(rows)
        const at = params.length + 1
        for (const g of totals) params.push(g.key_id, g.endpoint, g.status_code, g.requests, g.response_ms, g.last_at)
        const periods = usagePerPeriod(rows)
        const pat = params.length + 1
        for (const p of periods) params.push(p.key_id, p.period, p.requests)
        text =
          `WITH totals AS (INSERT INTO api_key_usage (key_id, endpoint, status_code, requests, response_ms, last_at) VALUES ${placeholders(totals.length, 6, at)} ` +
          'ON CONFLICT (key_id, endpoint, status_code) DO UPDATE SET requests = api_key_usage.requests + excluded.requests, ' +
          'response_ms = api_key_usage.response_ms + excluded.response_ms, last_at = GREATEST(api_key_usage.last_at, excluded.last_at)), ' +
          `periods AS (INSERT INTO api_key_usage_periods (key_id, period, requests) VALUES ${placeholders(periods.length, 3, pat)} ` +
          'ON CONFLICT (key_id, period) DO UPDATE SET requests = api_key_usage_periods.requests + excluded.requests) ' +
          text
      }
      // The last with the COMMIT, in one round trip.
      if (i + CHUNK >= numberedRows.length) await queryWith(client, { after: 'COMMIT' }, text, params)
      else await client.query(text, params)
    }
  })
}
