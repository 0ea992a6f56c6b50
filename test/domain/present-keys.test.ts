/**
 * presentKeysParser (src/domain/validation.ts): a batch row is validated with CreateTransactionRequest
 * picked to the keys it has. Its answer must be the whole schema's, to the key: success, the parsed
 * value (with its key order) and every issue (code, path, message) and the API error made of them.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { CreateTransactionRequest } from '../../src/domain/schemas.js'
import { presentKeysParser, zodError } from '../../src/domain/validation.js'

const parse = presentKeysParser(CreateTransactionRequest)

/** What a parse answers, as a client and the handler see it. */
function answer(r: ReturnType<typeof CreateTransactionRequest.safeParse>) {
  if (r.success) return { ok: true, keys: Object.keys(r.data), data: r.data }
  const e = zodError(r.error, 'transactions[0]')
  return { ok: false, issues: r.error.issues.map((i) => [i.code, i.path, i.message]), message: e.message, details: e.details }
}

const good: Record<string, unknown[]> = {
  bank_account_id: ['e4842381-4ce0-4e53-8698-176e939ed224'],
  transaction_date: ['2024-03-05'],
  description: ['Coffee', '  padded  '],
  amount: ['-12.50', 7, '1.005'],
  currency_code: ['USD', 'JPY'],
  posted_date: ['2024-03-06'],
  original_description: ['COFFEE  SHOP'],
  exchange_rate: ['1.1', 0.9],
  category: ['Food'],
  accounting_category: ['revenue', 'expense'],
  cash_flow_category: ['operating'],
  merchant_name: ['Luna'],
  tags: [['a', 'b'], []],
  import_ref: ['20240305.abc.1'],
  force: [true, false],
}
const bad: unknown[] = [
  null,
  undefined,
  '',
  ' ',
  'x'.repeat(1001),
  'not-a-date',
  '2024-02-30',
  42,
  -1.5,
  true,
  [],
  [1],
  {},
  'ZZZ',
  'a b',
  NaN,
]

const value = (key: string) =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...(good[key] ?? ['x'])) }, { weight: 1, arbitrary: fc.constantFrom(...bad) })
const keys = Object.keys(CreateTransactionRequest.shape)
const item = fc
  .tuple(fc.subarray([...keys, 'id', 'status', 'extra'], { minLength: 0 }), fc.boolean(), fc.integer({ min: 0, max: 1_000_000 }))
  .chain(([chosen, shuffle, seed]) => {
    const order = shuffle ? [...chosen].sort((a, b) => ((a.charCodeAt(0) * seed) % 7) - ((b.charCodeAt(0) * seed) % 7)) : chosen
    return fc.tuple(...order.map((k) => value(k))).map((vals) => Object.fromEntries(order.map((k, i) => [k, vals[i]])))
  })

describe('presentKeysParser', () => {
  it('answers as CreateTransactionRequest.safeParse does, for any keys, values and order', () => {
    fc.assert(
      fc.property(item, (input) => {
        expect(answer(parse(input))).toEqual(answer(CreateTransactionRequest.safeParse(input)))
      }),
      { numRuns: 4000 },
    )
  })

  it('answers as the whole schema for what is no object, and for an item a batch row usually is', () => {
    for (const input of [null, undefined, 7, 'text', [], [{}]])
      expect(answer(parse(input))).toEqual(answer(CreateTransactionRequest.safeParse(input)))
    const row = {
      bank_account_id: 'e4842381-4ce0-4e53-8698-176e939ed224',
      transaction_date: '2024-03-05',
      description: 'Coffee',
      amount: '-4.50',
      currency_code: 'USD',
      import_ref: '20240305.abc.1',
    }
    const r = parse(row)
    expect(r).toEqual({ success: true, data: row })
    expect(answer(parse({ ...row, id: 'x' }))).toMatchObject({ ok: false, details: [{ path: 'id', message: 'is read-only' }] })
  })

  it('keeps defaults a key has when absent', () => {
    const withDefault = z.object({ a: z.string(), b: z.string().default('B'), c: z.number().optional() }).strict()
    const p = presentKeysParser(withDefault)
    for (const input of [{ a: 'x' }, { a: 'x', c: 1 }, { a: 'x', b: 'y' }, { c: 'no' }, { a: 'x', d: 1 }]) {
      expect(p(input)).toEqual(withDefault.safeParse(input))
    }
    expect(p({ a: 'x' })).toEqual({ success: true, data: { a: 'x', b: 'B' } })
  })
})
