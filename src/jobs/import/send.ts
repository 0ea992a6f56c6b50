/**
 * The import's send stage: batches through POST /transactions/batch, several in flight, or one row
 * at a time (each under an Idempotency-Key derived from its identity) against a service without the
 * batch route; 429s waited out (Pacer), requests at most --concurrency at a time (Pool). And the
 * words a rejected row's reason is given in (the command's, not the API's).
 */
import type { Client } from '../../client/client.js'
import type { Target } from '../../client/target.js'
import type { CreateTransactionRequest } from '../../domain/schemas.js'
import { AppError, errorText } from '../../kernel/errors.js'
import { BY_COMMAND } from '../../kernel/flag-words.js'
import type { Batch } from './batch.js'
import { type Pacer, Pool } from './pacing.js'

/** A row as `tx import` sends it: a create request with its identity in the file. */
export type ImportRequest = CreateTransactionRequest & { import_ref: string }

/** A row ready to send: its request, its amount in minor units of its currency, and where in the file it came from. */
export interface ReadyRow {
  request: ImportRequest
  minor: number
  currency: string
  line: number
  fields: string[]
}

/**
 * Batches in flight when --concurrency is not given. Embedded, the core commits the batches waiting
 * together (group commit), and two are as fast as four while keeping fewer batches alive; a remote
 * target keeps four, to cover the network's round trips (docs/performance.md).
 */
export function defaultConcurrency(target: Target): number {
  return target.kind === 'embedded' ? 2 : 4
}

/** Every batch through the sender, at most `pool`'s limit in flight; the last alone, once every other is answered. */
export async function sendBatches(
  batches: AsyncIterable<Batch<ReadyRow>>,
  sender: { send(rows: ReadyRow[], last: boolean): Promise<SendResult> },
  pool: Pool,
  answered: (rows: ReadyRow[], result: SendResult) => void,
): Promise<void> {
  for await (const { rows, last } of batches) {
    if (last) await pool.drain()
    await pool.add(async () => answered(rows, await sender.send(rows, last)))
  }
  await pool.drain()
}

/** --atomic: delete again the transactions this run created. */
export async function rollBack(client: Client, ids: string[]): Promise<void> {
  const pool = new Pool(8)
  for (const id of ids) await pool.add(() => client.transactions.delete(id).then(() => undefined))
  await pool.drain()
}

/** An error in one line, in the words of `tx import`. */
export function describeError(e: unknown): string {
  return inImportWords(errorText(e))
}

/** The service's field names in the words of `tx import` (kernel/flag-words.ts), as a rejected row's reason shows them. */
const IMPORT_WORDS = BY_COMMAND['tx import']

export function inImportWords(reason: string): string {
  return reason
    .replace(
      /`([a-z_]+)`|\b([a-z]+(?:_[a-z]+)+)\b/g,
      (whole, quoted?: string, plain?: string) => IMPORT_WORDS[quoted ?? plain ?? ''] ?? quoted ?? whole,
    )
    .replace(/(^|; )((?:--set )?[a-z_]+): (is|must) /g, '$1$2 $3 ')
}

export interface SendResult {
  /** Indexes (in the batch sent) of the rows created. */
  created: number[]
  duplicates: number
  /** Rows paired with a statement's transactions. */
  matched: number
  errors: Array<{ index: number; reason: string }>
}

/** Sends rows by batch or one by one, waiting out rate limits; decides the mode on first use. */
export class Sender {
  mode: 'batch' | 'single'
  private decided: boolean
  private sendRef = true
  /** Ask the service to pair rows with statement lines (`match_statement_lines`), until it says it does not know the field. */
  private matchLines = true
  /** The import's batch on the service: each batch of rows names it, so that the service counts them. */
  importBatch?: string
  /** Single creates in flight, across every batch of rows: at most --concurrency. */
  private readonly singles: Pool

  constructor(
    private readonly client: Client,
    o: { concurrency?: number; mode?: 'auto' | 'batch' | 'single' },
    private readonly pacer: Pacer,
    /** Rows the file holds, announced with every batch (`Prefer: bulk-load`). */
    private readonly bulkRows: number,
    private readonly onCreated: (ids: string[]) => void,
  ) {
    this.singles = new Pool(Math.max(1, o.concurrency ?? 4))
    this.mode = o.mode === 'single' ? 'single' : 'batch'
    this.decided = o.mode === 'single' || o.mode === 'batch'
  }

  /** Send rows; `last`: the import's last batch, sent once every other is answered (`Prefer: bulk-load-end`). */
  async send(rows: ImportRequest[], last = false): Promise<SendResult> {
    if (this.mode === 'batch') {
      try {
        const res = await this.pacer.call(() =>
          this.client.transactions.batchMinimal(rows, {
            bulkRows: this.bulkRows,
            bulkEnd: last,
            matchStatementLines: this.matchLines,
            importBatch: this.importBatch,
          }),
        )
        this.decided = true
        this.onCreated(res.created.map((t) => t.id))
        const dup = new Set(res.duplicates.map((d) => d.index))
        const bad = new Set(res.errors.map((e) => e.index))
        const paired = new Set((res.matched ?? []).map((m) => m.index))
        return {
          created: rows.map((_, i) => i).filter((i) => !dup.has(i) && !bad.has(i) && !paired.has(i)),
          duplicates: dup.size,
          matched: paired.size,
          errors: res.errors.map((e) => ({
            index: e.index,
            reason: describeError(new AppError('validation_error', e.message, { details: e.details })),
          })),
        }
      } catch (e) {
        // A service of before match_statement_lines refuses the field: send as it knows.
        if (
          this.matchLines &&
          e instanceof AppError &&
          e.status === 400 &&
          (e.details ?? []).some((d) => d.path === 'match_statement_lines')
        ) {
          this.matchLines = false
          return this.send(rows, last)
        }
        const noBatchRoute = e instanceof AppError && (e.status === 404 || e.status === 405) && !this.decided
        if (!noBatchRoute) throw e
        this.mode = 'single'
        this.decided = true
      }
    }
    const result: SendResult = { created: [], duplicates: 0, matched: 0, errors: [] }
    const own: Array<Promise<void>> = []
    for (let index = 0; index < rows.length; index++)
      own.push((await this.singles.run(() => this.sendOne(rows[index], index, result))).done)
    await Promise.all(own)
    result.created.sort((a, b) => a - b)
    return result
  }

  private async sendOne(row: ImportRequest, index: number, result: SendResult): Promise<void> {
    const key = `finctl-import:${row.bank_account_id}:${row.import_ref}`
    for (;;) {
      const sentRef = this.sendRef
      const body: CreateTransactionRequest = sentRef ? row : { ...row, import_ref: undefined }
      try {
        const res = await this.pacer.call(() => this.client.transactions.createAnswer(body, { idempotencyKey: key }))
        // A replayed answer (the same row sent before, within the key's lifetime) created nothing now.
        if (res.headers.get('idempotent-replayed') === 'true') {
          result.duplicates++
          return
        }
        this.onCreated([res.data.id])
        result.created.push(index)
        return
      } catch (e) {
        if (!(e instanceof AppError)) throw e
        // A service that does not know import_ref: the Idempotency-Key alone keeps it exactly once.
        if (sentRef && e.status === 400 && (e.details ?? []).some((d) => d.path === 'import_ref')) {
          this.sendRef = false
          continue
        }
        if (e.status === 409 && sentRef && e.code === 'conflict') {
          result.duplicates++
          return
        }
        if (e.status === 400 || e.status === 404 || e.status === 409 || e.status === 422) {
          result.errors.push({ index, reason: describeError(e) })
          return
        }
        throw e
      }
    }
  }
}
