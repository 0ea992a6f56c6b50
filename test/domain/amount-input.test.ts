/** The amount of a create request (src/domain/schema-common.ts, AmountInput): a decimal string or a JSON number, and what a wrong one is told. */
import { describe, expect, it } from 'vitest'
import { CreateTransactionRequest } from '../../src/domain/schemas.js'
import { zodError } from '../../src/domain/validation.js'

const base = { bank_account_id: 'e4842381-4ce0-4e53-8698-176e939ed224', transaction_date: '2024-03-05', description: 'Coffee' }
const parse = (amount: unknown) => CreateTransactionRequest.safeParse({ ...base, amount })

describe('AmountInput', () => {
  it('takes a decimal string or a number as given', () => {
    expect(parse('-1234.56')).toMatchObject({ success: true, data: { amount: '-1234.56' } })
    expect(parse(-149.99)).toMatchObject({ success: true, data: { amount: -149.99 } })
    expect(parse('x')).toMatchObject({ success: true, data: { amount: 'x' } })
  })

  it('names the field and says what is wrong, whichever option of the union comes first', () => {
    const message = (amount: unknown) => {
      const r = parse(amount)
      expect(r.success).toBe(false)
      const e = zodError(r.error!, 'transaction')
      return [e.message, e.details]
    }
    const wrongKind = [
      'invalid transaction: amount has a value of the wrong kind',
      [{ path: 'amount', message: 'has a value of the wrong kind' }],
    ]
    for (const amount of [true, null, {}, [1], Number.NaN]) expect(message(amount)).toEqual(wrongKind)
    expect(message('1'.repeat(41))).toEqual([
      'invalid transaction: amount must be at most 40 characters',
      [{ path: 'amount', message: 'must be at most 40 characters' }],
    ])
  })
})
