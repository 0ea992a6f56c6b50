/** Transactions created under an Idempotency-Key: the same key and body replay the first answer (keys are per credential). */
import type { Kysely } from 'kysely'
import type { Db } from '../../store/schema.js'
import { InsertedRows, type Store } from '../../store/store.js'
import type { NewTransactionRow, TransactionRow } from '../../store/transaction-codec.js'
import { actorId, type Actor } from '../actor.js'
import { learnCreated } from '../categorization/settings.js'
import { recordEvents } from '../events.js'
import { requestHash, runIdempotent, type IdempotentResult } from '../idempotency.js'
import type { BatchCreateResponse, CreateTransactionRequest, Transaction } from '../schemas.js'
import { toTransaction } from '../transaction-rows.js'
import { buildTransactionRow, createTransactionBatch, prepareCategorizer, settleBatch } from './create.js'
import { createdEvent, importedEvent } from './events.js'
import { refTaken } from './import-refs.js'
import type { DateWindow } from './plausibility.js'
import { placeRows, type Placement } from './statement-lines.js'

/** Create under an Idempotency-Key: the same key and body replay the first answer (keys are per credential). */
export async function createTransactionIdempotent(
  store: Store,
  actor: Actor,
  input: CreateTransactionRequest,
  idempotencyKey: string,
  now: Date,
  window: DateWindow,
): Promise<IdempotentResult<Transaction>> {
  const hash = requestHash('POST', '/api-v1/transactions', input)
  let created: NewTransactionRow | undefined
  await store.tx.actorKey(actorId(actor))
  const r = await runIdempotent(store, { owner: actorId(actor), key: idempotencyKey, hash, now }, async (trx) => {
    const row = await buildTransactionRow(store, actor, input, now, window, trx)
    const t = toTransaction(row)
    const ids = await store.tx.insert(trx, [row])
    if (!ids.has(row.id)) throw await refTaken(store, trx, row)
    await store.writes.chainCreations(trx, [row], ids)
    await recordEvents(store, trx, [createdEvent(actor, t, now)])
    created = row
    return { status: 201, body: t }
  })
  if (created?.category != null) await learnCreated(store, actor.companyId, [created as TransactionRow], now)
  return r
}

/** Insert rows inside `trx` and chain their creation (creations.ts). */
async function insertChained(store: Store, trx: Kysely<Db>, rows: NewTransactionRow[]): Promise<Placement> {
  const ids = await store.tx.insert(trx, rows)
  await store.writes.chainCreations(trx, rows, ids)
  return { inserted: InsertedRows.ofIds(rows, ids), matched: new Map() }
}

/** Batch create under an Idempotency-Key. */
export async function createTransactionBatchIdempotent(
  store: Store,
  actor: Actor,
  items: unknown[],
  idempotencyKey: string,
  now: Date,
  window: DateWindow,
  matchStatementLines = false,
): Promise<IdempotentResult<BatchCreateResponse>> {
  // The request is its items, and the flag when it is set (so a key's earlier batches keep their hash).
  const hash = requestHash(
    'POST',
    '/api-v1/transactions/batch',
    matchStatementLines ? { transactions: items, match_statement_lines: true } : items,
  )
  const categorizer = await prepareCategorizer(store, actor.companyId, items)
  let stored: NewTransactionRow[] = []
  await store.tx.actorKey(actorId(actor))
  const r = await runIdempotent(store, { owner: actorId(actor), key: idempotencyKey, hash, now }, async (trx) => {
    const built = await createTransactionBatch(store, actor, items, now, window, trx, categorizer)
    const placed: Placement = matchStatementLines
      ? await placeRows(store, trx, actor, built.rows, now)
      : await insertChained(store, trx, built.rows)
    stored = built.rows.filter((_, i) => placed.inserted.at(i))
    const counts = { errors: built.errors.length, ...(matchStatementLines ? { matched: placed.matched.size } : {}) }
    const event = importedEvent(actor, built.rows.length, placed.inserted, counts, now)
    if (event) await recordEvents(store, trx, [event])
    return {
      status: 201,
      body: await settleBatch(store, trx, built, placed, toTransaction, matchStatementLines ? placed.matched : undefined),
    }
  })
  await learnCreated(store, actor.companyId, stored as TransactionRow[], now)
  return r
}
