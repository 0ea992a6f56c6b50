/** Numbered parameters of multi-row statements on PostgreSQL (the hot paths' fixed texts). */
import pg from 'pg'

/** `($from, …), (…)` for `n` rows of `w` parameters numbered from `from`. */
export function placeholders(n: number, w: number, from = 1): string {
  const rows: string[] = []
  for (let r = 0; r < n; r++) {
    const ps: string[] = []
    for (let c = 0; c < w; c++) ps.push(`$${from + r * w + c}`)
    rows.push(`(${ps.join(', ')})`)
  }
  return rows.join(', ')
}

/**
 * `text` with its parameters written in as literals, to go with other statements in one simple
 * query (one round trip: `BEGIN; …`, `…; COMMIT`). Each value becomes the quoted text pg would
 * send for it, whose type PostgreSQL infers as it does a parameter's. `text` must hold no quoted
 * `$` of its own. Arrays become ARRAY[…] (cast in the text, as `$1::text[]`).
 */
export function inline(text: string, params: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]))
}

function literal(v: unknown): string {
  if (v === null || v === undefined) return 'NULL'
  if (typeof v === 'string') return pg.escapeLiteral(v)
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`not a number a statement can hold: ${v}`)
    return `'${v}'`
  }
  if (v instanceof Uint8Array) return pg.escapeLiteral(`\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`)
  if (Array.isArray(v)) return `ARRAY[${v.map(literal).join(', ')}]`
  throw new Error(`no literal for a value of type ${typeof v}`)
}

/**
 * `before; text` or `text; after` in one round trip (a simple query) when every value can be written
 * in as a literal; else as separate queries with `text`'s parameters bound. A simple query's text
 * cannot hold a NUL (PostgreSQL refuses one in text anyway): bound, the value meets that refusal as
 * any parameter does. The result is `text`'s.
 */
export async function queryWith<R extends pg.QueryResultRow>(
  client: pg.ClientBase,
  o: { before: string; after?: never } | { after: string; before?: never },
  text: string,
  params: unknown[],
): Promise<pg.QueryResult<R>> {
  if (params.every(inlinable)) {
    const sql = o.before !== undefined ? `${o.before}; ${inline(text, params)}` : `${inline(text, params)}; ${o.after}`
    const results = (await client.query(sql)) as unknown as pg.QueryResult<R>[]
    return results[o.before !== undefined ? results.length - 1 : 0]
  }
  if (o.before !== undefined) await client.query(o.before)
  const result = await client.query<R>(text, params)
  if (o.after !== undefined) await client.query(o.after)
  return result
}

function inlinable(v: unknown): boolean {
  if (typeof v === 'string') return !v.includes('\u0000')
  return Array.isArray(v) ? v.every(inlinable) : true
}
