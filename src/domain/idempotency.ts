/**
 * Idempotency-Key (docs/api.md section 4): the same key and body within 24 hours replays the first
 * response and creates nothing new; the same key with another body is a 409.
 *
 * The record is inserted first, in the same database transaction as the work it guards. A
 * concurrent request with the same key waits on that row (PostgreSQL: the unique index; SQLite:
 * the write lock), then finds it committed and replays it, so exactly one create happens, across
 * processes too. A request that fails (4xx) rolls its record back, so the key can be used again
 * with a corrected body.
 */
import { createHash } from 'node:crypto'
import type { Kysely, Transaction as DbTransaction } from 'kysely'
import type { Store } from '../store/store.js'
import type { Db } from '../store/schema.js'
import { AppError } from '../kernel/errors.js'

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/

export interface IdempotentResult<T> {
  status: number
  body: T
  replayed: boolean
}

/** A stable hash of a request: method, path and the body with object keys sorted. */
export function requestHash(method: string, path: string, body: unknown): string {
  let canonical: string
  try {
    canonical = canonicalJson(body)
  } catch (err) {
    // A body nested thousands of levels deep overflows the stack: the caller's input, not a bug.
    if (err instanceof RangeError) throw new AppError('validation_error', 'the request body is nested too deeply')
    throw err
  }
  return createHash('sha256').update(`${method} ${path}\n${canonical}`).digest('hex')
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

export function validIdempotencyKey(key: string): boolean {
  return KEY_PATTERN.test(key)
}

export async function runIdempotent<T>(
  store: Store,
  o: { owner: string; key: string; hash: string; now: Date },
  work: (trx: DbTransaction<Db>) => Promise<{ status: number; body: T }>,
): Promise<IdempotentResult<T>> {
  if (!validIdempotencyKey(o.key)) {
    throw new AppError('validation_error', 'Idempotency-Key must be 1 to 255 printable ASCII characters', {
      details: [{ path: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' }],
    })
  }
  const cutoff = new Date(o.now.getTime() - IDEMPOTENCY_TTL_MS).toISOString()
  return store.db.transaction().execute(async (trx) => {
    // An expired record of the same key no longer counts.
    await trx
      .deleteFrom('idempotency_keys')
      .where('owner_id', '=', o.owner)
      .where('idem_key', '=', o.key)
      .where('created_at', '<', cutoff)
      .execute()
    const inserted = await trx
      .insertInto('idempotency_keys')
      .values({
        owner_id: o.owner,
        idem_key: o.key,
        request_hash: o.hash,
        status_code: 0,
        response_body: '',
        created_at: o.now.toISOString(),
      })
      .onConflict((oc) => oc.columns(['owner_id', 'idem_key']).doNothing())
      .executeTakeFirst()
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) {
      const prior = await trx
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('owner_id', '=', o.owner)
        .where('idem_key', '=', o.key)
        .executeTakeFirstOrThrow()
      if (prior.request_hash !== o.hash) {
        throw new AppError(
          'idempotency_conflict',
          'this Idempotency-Key was already used with a different request: use a new key for a new request',
        )
      }
      return { status: prior.status_code, body: JSON.parse(prior.response_body) as T, replayed: true }
    }
    const result = await work(trx)
    await trx
      .updateTable('idempotency_keys')
      .set({ status_code: result.status, response_body: JSON.stringify(result.body) })
      .where('owner_id', '=', o.owner)
      .where('idem_key', '=', o.key)
      .execute()
    return { ...result, replayed: false }
  })
}

/** Drop records past their 24 hours (run now and then; replay checks the age anyway). */
export async function pruneIdempotency(db: Kysely<Db>, now: Date): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString())
    .execute()
}
