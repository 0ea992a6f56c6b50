/** Transactions: create, one by one and in batches (docs/service-interface.md section 4.3); under an Idempotency-Key: create-idempotent.ts. */
import { uuidv7 } from '../../kernel/ids.js'
import type { InsertedRows, Store } from '../../store/store.js'
import type { Kysely } from 'kysely'
import type { BankAccountRow, Db } from '../../store/schema.js'
import { type NewTransactionRow, refKey, type TransactionRow } from '../../store/transaction-codec.js'
import { actorId, type Actor } from '../actor.js'
import { AppError, notFound, validation } from '../../kernel/errors.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { convertMinor, parseAmount, parseRate } from '../../kernel/money.js'
import {
  CreateTransactionRequest,
  MAX_BATCH,
  type BatchCreateMinimalResponse,
  type BatchCreateResponse,
  type Transaction,
} from '../schemas.js'
import type { CreationAction } from './audit.js'
import { presentKeysParser, zodError } from '../validation.js'
import { findBankAccount } from '../accounts/bank-accounts.js'
import { companyKey, toTransaction } from '../transaction-rows.js'
import { baseCurrency } from '../accounts/companies.js'
import { learnCreated, releaseHold } from '../categorization/settings.js'
import type { Categorizer } from '../categorization/categorizer.js'
import { checkPlausible, type DateWindow } from './plausibility.js'
import { RateBook } from '../rate-book.js'
import { mayMatch, placeRows, type Placement } from './statement-lines.js'
import { checkUnlocked, lockDateOf } from '../accounts/period-lock.js'
import { checkOpened } from '../accounts/opening.js'
import { recordEvents } from '../events.js'
import { createdEvent, importedEvent } from './events.js'
import { existingByRef, type LockedItem, lockedButThere, refTaken } from './import-refs.js'

/** The model and the rules engine load with the first batch, not with the core. */
export async function prepareCategorizer(
  store: Store,
  companyId: string,
  items: readonly unknown[],
  holdFor?: string,
): Promise<Categorizer> {
  const c = await import('../categorization/categorizer.js')
  return c.prepareCategorizer(store, companyId, c.anyUncategorized(items), holdFor)
}

/** Validate a create request against its account and build the row; throws AppError. */
export async function buildTransactionRow(
  store: Store,
  actor: Actor,
  input: CreateTransactionRequest,
  now: Date,
  window: DateWindow,
  db: Kysely<Db> = store.db,
): Promise<NewTransactionRow> {
  const { account, lockDate } = await accountAndLockDate(store, actor, input.bank_account_id, db)
  const base = await baseCurrency(store, actor.companyId, db)
  const wanted = rateWanted(input, account, base)
  const rates = await RateBook.load(db, actor.companyId, wanted ? [wanted] : [])
  const when = {
    now,
    ts: now.toISOString(),
    window,
    companyKey: await companyKey(store, actor.companyId, db),
    lockDate,
  }
  return buildRow({ by: actorId(actor), via: 'create' }, input, when, account, base, rates)
}

/** The (currency, date) a create request needs a rate of from the table: none when it gives one or is in the base currency. */
function rateWanted(
  input: CreateTransactionRequest,
  account: BankAccountRow,
  base: string,
): { currency: string; date: string } | undefined {
  const currency = input.currency_code ?? account.currency_code
  return input.exchange_rate === undefined && currency !== base ? { currency, date: input.transaction_date } : undefined
}

/** The account and the company's lock date: outside a transaction, by the store's hot path (one read on PostgreSQL). */
async function accountAndLockDate(
  store: Store,
  actor: Actor,
  id: string,
  db: Kysely<Db>,
): Promise<{ account: BankAccountRow; lockDate: string | null }> {
  if (db !== store.db) return { account: await lookUpAccount(store, actor, id, db), lockDate: await lockDateOf(db, actor.companyId) }
  const found = await store.hot.findBankAccountAndLock(actor.companyId, id)
  if (!found.account) throw accountNotFound(notFound('bank account'))
  return { account: found.account, lockDate: found.lockDate }
}

function accountNotFound(e: AppError): AppError {
  return new AppError(e.code, 'bank account not found', { details: [{ path: 'bank_account_id', message: 'no such bank account' }] })
}

function lookUpAccount(store: Store, actor: Actor, id: string, db: Kysely<Db>): Promise<BankAccountRow> {
  return findBankAccount(store, actor.companyId, id, db).catch((e: AppError) => {
    throw accountNotFound(e)
  })
}

/** The row of a create request once its account and the base currency are known (synchronous: a batch builds thousands). */
function buildRow(
  creation: { by: string; via: CreationAction },
  input: CreateTransactionRequest,
  when: { now: Date; ts: string; window: DateWindow; companyKey: number; lockDate: string | null },
  account: BankAccountRow,
  base: string,
  /** The company's rates this request may need (RateBook.load, once per batch). */
  rates: RateBook,
): NewTransactionRow {
  const { now, ts } = when
  if (account.status === 'closed') {
    throw new AppError('conflict', `bank account "${account.name}" is closed: reopen it before adding transactions`)
  }
  checkUnlocked(when.lockDate, input.transaction_date, `a transaction dated ${input.transaction_date}`)
  checkOpened(account, input.transaction_date)
  const currency = input.currency_code ?? account.currency_code
  const amount = parseAmount(input.amount, currencyExponent(currency))
  if (!amount.ok) throw validation('amount', `${amount.message} (${currency})`)
  checkPlausible(
    {
      transaction_date: input.transaction_date,
      posted_date: input.posted_date,
      amountMinor: amount.minor,
      force: input.force,
      bankRecord: input.import_ref !== undefined,
    },
    when.window,
    now,
  )

  // A rate given wins; else the company's rate of the transaction's date, or the latest earlier one within reach.
  let rate = '1'
  let rateDate: string | null = null
  if (input.exchange_rate !== undefined) {
    const r = parseRate(input.exchange_rate)
    if (!r) throw validation('exchange_rate', 'must be a positive decimal number')
    rate = r
  } else if (currency !== base) {
    const found = rates.require(currency, input.transaction_date, base)
    rate = found.rate
    rateDate = found.date
  }
  if (currency === base && rate !== '1') throw validation('exchange_rate', `must be 1 for the base currency ${base}`)
  let baseAmount: number
  if (rate === '1' && currency === base) baseAmount = amount.minor
  else {
    try {
      baseAmount = convertMinor(amount.minor, currencyExponent(currency), rate, currencyExponent(base))
    } catch {
      throw validation('amount', `is too large once converted to the base currency ${base}`)
    }
  }

  return {
    id: uuidv7(now.getTime()),
    company_key: when.companyKey,
    account_key: account.key,
    bank_account_id: account.id,
    bank_statement_id: null,
    transaction_date: input.transaction_date,
    posted_date: input.posted_date ?? input.transaction_date,
    description: input.description,
    original_description: input.original_description ?? input.description,
    amount: amount.minor,
    currency_code: currency,
    exchange_rate: rate,
    exchange_rate_date: rateDate,
    base_amount: baseAmount,
    category: input.category ?? null,
    accounting_category: input.accounting_category ?? null,
    cash_flow_category: input.cash_flow_category ?? null,
    merchant_name: input.merchant_name ?? null,
    status: 'pending',
    is_reconciled: 0,
    ai_confidence_score: null,
    // Tags are a set, as an update, a bulk update and a rule keep them.
    tags: input.tags?.length ? JSON.stringify([...new Set(input.tags)]) : '[]',
    created_at: ts,
    updated_at: ts,
    import_ref: input.import_ref ?? null,
    created_by: creation.by,
    created_via: creation.via,
  }
}

export async function createTransaction(
  store: Store,
  actor: Actor,
  input: CreateTransactionRequest,
  now: Date,
  window: DateWindow,
): Promise<Transaction> {
  const row = await buildTransactionRow(store, actor, input, now, window)
  const t = toTransaction(row as TransactionRow)
  // Answered by the API, which waits for the insert's COMMIT (api/middleware/durable.ts).
  const inserted = await store.hot.insertTransactions([row], {
    event: (ins) => (ins.at(0) ? createdEvent(actor, t, now) : undefined),
    acknowledgedLater: true,
  })
  if (!inserted.at(0)) throw await refTaken(store, store.db, row)
  if (row.category != null) await learnCreated(store, actor.companyId, [row as TransactionRow], now)
  return t
}

/**
 * `Prefer: bulk-load=N` (and `bulk-load-end` on a load's last batch): the batch is one of a load of N
 * rows. The store's bulk load takes it (Store.hot.bulkLoad); nothing a client sees depends on it.
 */
export interface BulkHint {
  rows?: number
  /** The load's last batch: the load ends before the answer. */
  end?: boolean
}

export interface BatchOptions {
  now: Date
  window: DateWindow
  /** `Prefer: return=minimal`: each created row as its index and id instead of the whole transaction. */
  minimal?: boolean
  bulk?: BulkHint
  /** Rows already on a statement are paired with its transactions instead of created (statement-lines.ts). */
  matchStatementLines?: boolean
  /** The import batch the rows are part of (X-Import-Batch): named in their creation's chain entries. */
  importBatch?: string
  /** The items are create requests as parsed already (a review's pending rows of this shape): not parsed again. */
  parsed?: boolean
}

/**
 * Build, validate and store a batch; rows whose import_ref exists already are reported as
 * duplicates. With `matchStatementLines`, the pairing runs in one write transaction; when no account
 * of the batch has a statement transaction to pair with, the rows take the usual fast path.
 */
export async function storeTransactionBatch(
  store: Store,
  actor: Actor,
  items: unknown[],
  o: BatchOptions,
): Promise<BatchCreateResponse | BatchCreateMinimalResponse> {
  const { now, window, bulk, matchStatementLines = false, importBatch: batch } = o
  const load = bulk ? store.hot.bulkLoad({ rows: bulk.rows ?? 0 }) : undefined
  // A bulk import's model is not retrained inside it (docs/decisions.md, "No retraining inside a bulk import").
  const holdFor = bulk ? `bulk:${batch ?? ''}` : undefined
  const categorizer = await prepareCategorizer(store, actor.companyId, items, holdFor)
  const built = await createTransactionBatch(store, actor, items, now, window, store.db, categorizer, o.parsed)
  let placed: Placement
  if (matchStatementLines && built.rows.length && (await mayMatch(store, built.rows))) {
    await store.tx.prepareActors(built.rows)
    placed = await store.writeTransaction(async (trx) => {
      const p = await placeRows(store, trx, actor, built.rows, now, batch)
      const event = importedEvent(actor, built.rows.length, p.inserted, { errors: built.errors.length, matched: p.matched.size }, now)
      if (event) await recordEvents(store, trx, [event])
      return p
    })
  } else {
    const existing = new Map<string, string>()
    const event = (ins: InsertedRows) => importedEvent(actor, built.rows.length, ins, { errors: built.errors.length }, now)
    const inserted = load
      ? await load.insert(built.rows, { existing, event, batch })
      : await store.hot.insertTransactions(built.rows, { existing, event, batch })
    placed = { inserted, matched: new Map(), existing }
  }
  // The load's last batch: the load ends before the answer, so that the import ends with it.
  if (bulk?.end) await load?.end()
  await learnCreated(store, actor.companyId, built.rows.filter((_, i) => placed.inserted.at(i)) as TransactionRow[], now, holdFor)
  if (bulk?.end && holdFor) releaseHold(store, actor.companyId, holdFor)
  const matched = matchStatementLines ? placed.matched : undefined
  return o.minimal
    ? settleBatch(store, store.db, built, placed, (r, index) => ({ index, id: r.id }), matched)
    : settleBatch(store, store.db, built, placed, toTransaction, matched)
}

/**
 * A batch's answer: each created row as `created(row, index)` (the whole Transaction, or with
 * `Prefer: return=minimal` its index and id), errors by index, and the rows whose import_ref was
 * there already, with the id of the transaction that has it.
 */
export async function settleBatch<C>(
  store: Store,
  db: Kysely<Db>,
  built: BuiltBatch,
  placed: Pick<Placement, 'inserted' | 'existing'>,
  created: (row: NewTransactionRow, index: number) => C,
  /** Asked to match statement lines: row (in built.rows) -> the statement transaction it was paired with. */
  matched?: Map<number, string>,
): Promise<{
  created: C[]
  errors: BatchCreateResponse['errors']
  duplicates: BatchCreateResponse['duplicates']
  matched?: BatchCreateResponse['matched']
}> {
  const out: C[] = []
  const skipped: Array<{ r: NewTransactionRow; index: number }> = []
  const paired: NonNullable<BatchCreateResponse['matched']> = []
  built.rows.forEach((r, i) => {
    const id = matched?.get(i)
    if (id) paired.push({ index: built.indexes[i], id })
    else if (placed.inserted.at(i)) out.push(created(r, built.indexes[i]))
    else skipped.push({ r, index: built.indexes[i] })
  })
  // The transactions holding the skipped rows' refs: those the insert named, the others looked up.
  const known = placed.existing ?? new Map<string, string>()
  const unknown = skipped.filter((s) => !known.has(refKey(s.r.account_key, s.r.import_ref)))
  const existing = unknown.length
    ? new Map([
        ...known,
        ...(await existingByRef(
          store,
          db,
          unknown.map((s) => s.r),
        )),
      ])
    : known
  return {
    created: out,
    errors: built.errors,
    duplicates: [
      ...skipped.map(({ r, index }) => ({
        index,
        id: existing.get(refKey(r.account_key, r.import_ref)) ?? '',
        import_ref: r.import_ref ?? '',
      })),
      ...built.there,
    ].sort((a, b) => a.index - b.index),
    ...(matched ? { matched: paired } : {}),
  }
}

/** A batch item's validation: CreateTransactionRequest on the keys the item has (same answers, fewer objects a row). */
const parseCreateRequest = presentKeysParser(CreateTransactionRequest)

interface BuiltBatch {
  /** The valid items' rows, each one's index in the request, and its request as parsed (text trimmed). */
  rows: NewTransactionRow[]
  indexes: number[]
  inputs: CreateTransactionRequest[]
  errors: BatchCreateResponse['errors']
  /** Items of a closed period whose import_ref the account holds already: there, not refused (docs/importing-csv.md). */
  there: BatchCreateResponse['duplicates']
}

/**
 * Batch create: every valid item is committed together (one database transaction); invalid
 * items are reported by index with their field details, and nothing of theirs is written.
 */
export async function createTransactionBatch(
  store: Store,
  actor: Actor,
  items: unknown[],
  now: Date,
  window: DateWindow,
  db: Kysely<Db> = store.db,
  /** Fills empty category fields from rules and the model (batch creates: imports, seeds). */
  categorizer?: Categorizer,
  /**
   * The items are CreateTransactionRequest's output already (a review's rows stored as parsed, under
   * CREATE_REQUEST_SHAPE): the schema's parse is skipped, every check of the row against its account,
   * lock date, rates and date window still runs.
   */
  parsed = false,
): Promise<BuiltBatch> {
  if (items.length > MAX_BATCH)
    throw new AppError('payload_too_large', `a batch holds at most ${MAX_BATCH} transactions (got ${items.length}): split it`)
  const rows: NewTransactionRow[] = []
  const indexes: number[] = []
  const inputs: CreateTransactionRequest[] = []
  const errors: BatchCreateResponse['errors'] = []
  // Each account named is looked up once; every other row builds without waiting on anything.
  const accounts = new Map<string, BankAccountRow | AppError>()
  const base = await baseCurrency(store, actor.companyId, db)
  const when = {
    now,
    ts: now.toISOString(),
    window,
    companyKey: await companyKey(store, actor.companyId, db),
    lockDate: await lockDateOf(db, actor.companyId),
  }
  const creation = { by: actorId(actor), via: 'batch_create' as const }
  const fail = (index: number, err: unknown) => {
    if (!(err instanceof AppError)) throw err
    errors.push({ index, code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) })
  }
  // A row of a closed period is refused only when it is new: one already on the account changes nothing.
  const locked: LockedItem[] = []
  // First the items and their accounts, and which rates they need; then the rates, in one query per
  // currency over the batch's dates; then the rows.
  const valid: Array<{ index: number; input: CreateTransactionRequest; account: BankAccountRow }> = []
  const wanted: Array<{ currency: string; date: string }> = []
  for (let index = 0; index < items.length; index++) {
    let input: CreateTransactionRequest
    if (parsed) input = items[index] as CreateTransactionRequest
    else {
      const p = parseCreateRequest(items[index])
      if (!p.success) {
        const e = zodError(p.error, `transactions[${index}]`)
        errors.push({ index, code: e.code, message: e.message, details: e.details })
        continue
      }
      input = p.data
    }
    try {
      const id = input.bank_account_id
      let account = accounts.get(id)
      if (account === undefined) {
        const found: BankAccountRow | AppError = await lookUpAccount(store, actor, id, db).catch((e: unknown) => {
          if (e instanceof AppError) return e
          throw e
        })
        accounts.set(id, found)
        account = found
      }
      if (account instanceof AppError) throw account
      valid.push({ index, input, account })
      // No array a row: most rows of a batch need no rate.
      const want = rateWanted(input, account, base)
      if (want) wanted.push(want)
    } catch (err) {
      fail(index, err)
    }
  }
  const rates = wanted.length ? await RateBook.load(db, actor.companyId, wanted) : RateBook.empty()
  for (const { index, input, account } of valid) {
    try {
      rows.push(buildRow(creation, input, when, account, base, rates))
      indexes.push(index)
      inputs.push(input)
    } catch (err) {
      if (err instanceof AppError && err.code === 'period_locked' && input.import_ref)
        locked.push({ index, error: err, account_key: account.key, import_ref: input.import_ref })
      else fail(index, err)
    }
  }
  const there = await lockedButThere(store, db, locked, fail)
  errors.sort((a, b) => a.index - b.index)
  categorizer?.apply(rows)
  return { errors, rows, indexes, inputs, there }
}
