/**
 * `tx import --review`: the send stage stages each batch of rows on the import's batch
 * (POST /api-v1/imports/{id}/pending) instead of creating them; the service validates them as a
 * create would and keeps them pending, and the summary says what `imports apply` would create.
 */
import { open, stat } from 'node:fs/promises'
import type { Client } from '../../client/client.js'
import { FILE_PART_BYTES, MAX_KEPT_FILE } from '../../domain/imports/review-schemas.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { AppError } from '../../kernel/errors.js'
import { formatMinor } from '../../kernel/money.js'
import type { Pacer } from './pacing.js'
import { describeError, type ReadyRow, type SendResult } from './send.js'
import type { ImportSummary } from './summarize.js'

export class ReviewSender {
  readonly mode = 'batch' as const
  constructor(
    private readonly client: Client,
    private readonly pacer: Pacer,
    private readonly batchId: string,
  ) {}

  /** A staged row counts as `created` here: asReview moves it where the summary says pending. */
  async send(rows: ReadyRow[]): Promise<SendResult> {
    const res = await this.pacer.call(() =>
      this.client.imports.stage(this.batchId, { rows: rows.map((r) => ({ line: r.line, transaction: r.request })) }),
    )
    return {
      created: res.staged,
      duplicates: res.duplicates.length,
      matched: 0,
      errors: res.errors.map((e) => ({
        index: e.index,
        reason: describeError(new AppError('validation_error', e.message, { details: e.details })),
      })),
    }
  }
}

/**
 * Send the file to the review batch, in parts, so that `imports remap` can read it again; a file
 * over MAX_KEPT_FILE is not kept (a remap then says so), nor one sent to a service without the route.
 */
export async function keepFile(client: Client, pacer: Pacer, batchId: string, path: string): Promise<boolean> {
  const { size } = await stat(path)
  if (size === 0 || size > MAX_KEPT_FILE) return false
  const fh = await open(path, 'r')
  try {
    const buf = Buffer.alloc(FILE_PART_BYTES)
    for (let part = 0, at = 0; at < size; part++) {
      const { bytesRead } = await fh.read(buf, 0, FILE_PART_BYTES, at)
      if (bytesRead === 0) break
      at += bytesRead
      const content = buf.subarray(0, bytesRead).toString('base64')
      await pacer.call(() => client.imports.putFilePart(batchId, part, content))
    }
  } catch (e) {
    if (e instanceof AppError && e.code === 'not_found') return false
    throw e
  } finally {
    await fh.close()
  }
  return true
}

/** The summary of a review: what it staged is pending (nothing was created), with the batch's expiry. */
export function asReview(s: ImportSummary, expiresAt: string): void {
  const zero = (currency: string) => formatMinor(0, currencyExponent(currency))
  s.review = { state: 'pending', pending: s.created, pending_total: s.created_total, expires_at: expiresAt }
  s.created = 0
  s.created_total = zero(s.currency)
  for (const o of s.other_currencies ?? []) {
    o.pending_total = o.created_total
    o.created_total = zero(o.currency)
  }
}
