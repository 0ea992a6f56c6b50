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

/** A statement of a round trip: a fixed text (BEGIN, COMMIT) or a text with its parameters. */
export type Statement = string | { text: string; params: unknown[] }

/**
 * The statements in one round trip (a simple query) when every value can be written in as a literal;
 * else one by one, each text's parameters bound. A simple query's text cannot hold a NUL (PostgreSQL
 * refuses one in text anyway): bound, the value meets that refusal as any parameter does. Each
 * statement still ends, its AFTER STATEMENT triggers run, before the next begins. The results, one
 * per statement the texts hold.
 */
export async function queryAll(client: pg.ClientBase, statements: readonly Statement[]): Promise<pg.QueryResult[]> {
  const parts = statements.map((s) => (typeof s === 'string' ? { text: s, params: [] } : s))
  if (parts.every((s) => s.params.every(inlinable)))
    return results(await client.query(parts.map((s) => inline(s.text, s.params)).join('; ')))
  const out: pg.QueryResult[] = []
  for (const s of parts) out.push(...results(await (s.params.length ? client.query(s.text, s.params) : client.query(s.text))))
  return out
}

/** pg answers a query of several statements with an array of results, of one with the result. */
function results(r: pg.QueryResult | pg.QueryResult[]): pg.QueryResult[] {
  return Array.isArray(r) ? r : [r]
}

/** `before; text` or `text; after` in one round trip (queryAll); the result is `text`'s. */
export async function queryWith<R extends pg.QueryResultRow>(
  client: pg.ClientBase,
  o: { before: string; after?: never } | { after: string; before?: never },
  text: string,
  params: unknown[],
): Promise<pg.QueryResult<R>> {
  const all = await queryAll(client, o.before !== undefined ? [o.before, { text, params }] : [{ text, params }, o.after])
  return all[o.before !== undefined ? all.length - 1 : 0] as pg.QueryResult<R>
}

function inlinable(v: unknown): boolean {
  if (typeof v === 'string') return !v.includes('\u0000')
  return Array.isArray(v) ? v.every(inlinable) : true
}
