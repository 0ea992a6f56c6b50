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
