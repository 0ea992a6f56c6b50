/**
 * The delete entry's diff (every field against nothing, without comparing JSON texts) is the diff
 * the comparison gives, and an entry's hash (one-shot) is SHA-256 over the previous hash, a newline
 * and the canonical fields, as verify and every chain written before compute it.
 */
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AUDITED_TRANSACTION_FIELDS } from '../../src/kernel/transaction-fields.js'
import type { Transaction } from '../../src/domain/schemas.js'
import { diff } from '../../src/domain/transactions/audit.js'
import { entryHash } from '../../src/store/audit-chain.js'

const value = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.array(fc.string()),
)

describe('a delete entry and its hash', () => {
  it('diff(row, null) is the comparison against a row of nulls, field by field', () => {
    const nulls = Object.fromEntries(AUDITED_TRANSACTION_FIELDS.map((f) => [f, null])) as unknown as Transaction
    fc.assert(
      fc.property(fc.tuple(...AUDITED_TRANSACTION_FIELDS.map(() => value)), (vals) => {
        const row = Object.fromEntries(AUDITED_TRANSACTION_FIELDS.map((f, i) => [f, vals[i]])) as unknown as Transaction
        const fast = diff(row, null)
        expect(JSON.stringify(fast)).toBe(JSON.stringify(diff(row, nulls)))
      }),
    )
  })

  it('entryHash is SHA-256 of prev, a newline and the fields as a JSON array, any text', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }), { minLength: 7, maxLength: 7 }), (f) => {
        const e = { company_id: f[0], transaction_id: f[1], actor: f[2], action: f[3], changes: f[4], created_at: f[5] }
        const want = createHash('sha256')
          .update(f[6])
          .update('\n')
          .update(JSON.stringify([e.company_id, e.transaction_id, e.actor, e.action, e.changes, e.created_at]))
          .digest('hex')
        expect(entryHash(f[6], e)).toBe(want)
      }),
    )
  })
})
