/**
 * CREATE_REQUEST_SHAPE (src/domain/schemas.ts): an apply lands a review's rows stored under the same
 * shape without parsing them again, so a change of what CreateTransactionRequest accepts, or of how it
 * parses a value, must raise it. This pins the schema as JSON Schema and the checks that JSON Schema
 * does not show (the dates', the currencies' and the trimming of text), each by its source; when it
 * fails, raise CREATE_REQUEST_SHAPE and put the new fingerprint here.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { CREATE_REQUEST_SHAPE, CreateTransactionRequest } from '../../src/domain/schemas.js'
import { text } from '../../src/domain/schema-common.js'
import { isCurrency } from '../../src/kernel/currencies.js'
import { isIsoDate } from '../../src/kernel/vocabulary.js'

const PINNED: Record<number, string> = {
  1: '51da2175265c8f9c88ba5134b72206da5dad758ae446d1923858926737452333',
}

describe('CREATE_REQUEST_SHAPE', () => {
  it('is raised with any change of what CreateTransactionRequest accepts or how it parses', () => {
    const fingerprint = createHash('sha256')
      .update(JSON.stringify(z.toJSONSchema(CreateTransactionRequest, { io: 'input' })))
      .update(String(isIsoDate))
      .update(String(isCurrency))
      .update(String(text))
      .digest('hex')
    expect(fingerprint, 'CreateTransactionRequest changed: raise CREATE_REQUEST_SHAPE and pin its fingerprint').toBe(
      PINNED[CREATE_REQUEST_SHAPE],
    )
  })

  it('a parsed request parses to itself: what a review stores is what an apply of the same shape lands', () => {
    const raw = {
      bank_account_id: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
      transaction_date: '2026-01-02',
      description: '  padded  ',
      amount: '-1.50',
      tags: [' a ', 'b'],
      merchant_name: ' Shop ',
    }
    const once = CreateTransactionRequest.parse(raw)
    expect(once).toMatchObject({ description: 'padded', tags: ['a', 'b'], merchant_name: 'Shop' })
    expect(CreateTransactionRequest.parse(JSON.parse(JSON.stringify(once)))).toEqual(once)
  })
})
