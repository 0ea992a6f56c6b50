/**
 * Review imports through the API for the review tests: rows to stage, dated last month, and a batch
 * staged with them and left pending (its refused rows named as the CLI names them).
 */
import type { Client } from '../../src/client/client.js'
import { previousMonth } from '../../src/domain/accounts/period-lock.js'

/** Last month: one the tests may close. */
export const M = previousMonth(new Date().toISOString().slice(0, 7))
/** Day `d` of last month. */
export const day = (d: number) => `${M}-${String(d).padStart(2, '0')}`

export type StagedRow = ReturnType<ReturnType<typeof stagedRows>>

/** Row `n` of an account's review, each test file its own descriptions and refs (`name`) and cents. */
export const stagedRows =
  (name: string, cents: string) =>
  (account: string, n: number, extra: Record<string, unknown> = {}) => ({
    line: n + 1,
    transaction: {
      bank_account_id: account,
      transaction_date: day((n % 9) + 1),
      description: `${name} ${n}`,
      amount: `-${n}.${cents}`,
      import_ref: `${name}.${account.slice(0, 8)}.${n}`,
      ...extra,
    },
  })

/** A review batch of `rows` on `account`, staged and ended pending. */
export async function pendingReview(cl: Client, account: string, rows: StagedRow[], fileName: string) {
  const b = await cl.imports.create({ kind: 'csv', bank_account_id: account, file_name: fileName, options: { review: true } })
  const staged = await cl.imports.stage(b.id, { rows })
  const done = await cl.imports.finish(b.id, {
    state: 'pending',
    read: rows.length,
    rejected: staged.errors.length,
    rejects: staged.errors.map((e) => ({ line: rows[e.index].line, reason: e.message })),
  })
  return { id: b.id, staged, done }
}
