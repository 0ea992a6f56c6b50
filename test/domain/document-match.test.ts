/**
 * The matching rule (docs/documents.md, "Matching"): the amount in the same currency weighs most,
 * then the date, then the merchant's words; a document is linked by itself only to an amount match
 * scored AUTO_LINK_SCORE or more with no other candidate within AUTO_LINK_MARGIN.
 */
import { describe, expect, it } from 'vitest'
import { autoLinkOf, dateShare, type MatchableTransaction, rank, score } from '../../src/domain/documents/match.js'
import type { DocumentFields } from '../../src/domain/documents/read-fields.js'

const doc: DocumentFields = { amount_minor: 11900, currency: 'EUR', date: '2026-10-03', merchant: 'ACME Tools', source: 'cii' }
const tx = (id: string, more: Partial<MatchableTransaction> = {}): MatchableTransaction => ({
  id,
  transaction_date: '2026-10-03',
  amount_minor: -11900,
  currency_code: 'EUR',
  description: 'ACME Tools GmbH',
  merchant_name: null,
  documents: 0,
  ...more,
})

describe('document matching', () => {
  it('scores amount, date and merchant, and says why', () => {
    expect(score(doc, tx('a'))).toMatchObject({ score: 1, amount_matches: true })
    expect(score(doc, tx('a')).why).toEqual(['amount 119.00 EUR the same', 'same date', 'merchant "ACME Tools" named in the transaction'])
    // Either sign: a refund of the same amount is a candidate too.
    expect(score(doc, tx('a', { amount_minor: 11900 })).amount_matches).toBe(true)
    expect(score(doc, tx('a', { currency_code: 'USD' }))).toMatchObject({ score: 0.4, amount_matches: false })
    expect(score(doc, tx('a', { amount_minor: -11901 })).amount_matches).toBe(false)
    expect(score(doc, tx('a', { documents: 1 })).score).toBe(0.8)
  })

  it('the date: full within two days after, halving every five days, nothing past the window', () => {
    expect(dateShare(2, false)).toBe(1)
    expect(dateShare(7, false)).toBe(0.5)
    expect(dateShare(46, false)).toBe(0)
    expect(dateShare(1, true)).toBe(1)
    expect(dateShare(8, true)).toBe(0)
  })

  it('links by itself only one amount match sure enough and ahead of the next', () => {
    expect(autoLinkOf(rank(doc, [tx('a')]))).toBe('a')
    expect(autoLinkOf(rank(doc, [tx('a'), tx('b')]))).toBeNull()
    // The same amount three weeks later: far enough behind.
    expect(autoLinkOf(rank(doc, [tx('a'), tx('b', { transaction_date: '2026-10-24' })]))).toBe('a')
    // No amount match, however close otherwise: never.
    expect(autoLinkOf(rank({ ...doc, amount_minor: null }, [tx('a')]))).toBeNull()
    // An amount match alone, 30 days later and no merchant: a suggestion only.
    const weak = rank({ ...doc, merchant: null }, [tx('a', { transaction_date: '2026-11-02' })])
    expect(weak[0].score).toBeLessThan(0.8)
    expect(autoLinkOf(weak)).toBeNull()
    // The date alone makes no candidate.
    expect(rank({ ...doc, merchant: 'Other' }, [tx('a', { amount_minor: -1 })])).toEqual([])
  })
})
