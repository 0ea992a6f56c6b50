/**
 * `import_ref`, a row's identity in its account: the date, 132 bits of the SHA-256 digest of the
 * row's content, and its occurrence among identical rows of the file. The service keeps these refs,
 * and a file imported again (or a download overlapping it) is deduplicated against them, so the ref
 * of a given row must never change from one version of finctl to the next: the values below were
 * made by finctl as of commit 6d94d51, and any change to how they are computed fails here.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { planImport } from '../../src/import/plan.js'
import { RowMapper } from '../../src/import/map-rows.js'
import { readRecords } from '../../src/import/read-rows.js'

let dir = ''

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'finctl-import-ref-'))
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function refs(csv: string, accountId: string): Promise<string[]> {
  const path = join(dir, 'file.csv')
  writeFileSync(path, csv)
  const plan = await planImport(path, {})
  const conv = new RowMapper(plan, { accountId, currency: 'EUR' })
  const out: string[] = []
  for await (const rec of readRecords(path, plan.layout)) {
    const r = conv.map(rec)
    if (r?.ok) out.push(r.request.import_ref)
  }
  return out
}

describe('import_ref', () => {
  it('is the same for the same row as in every earlier version, with occurrences of identical rows', async () => {
    const csv = [
      'Date,Description,Amount,Reference',
      '2026-01-02,Kartenzahlung Bürobedarf,-12.50,R1',
      '2026-01-02,Monthly fee,-3.00,',
      '2026-01-02,Monthly fee,-3.00,',
      '2026-01-31,SALARY ACME Ltd,2500.00,PAY-0131',
      '2026-01-02,Monthly fee,-3.00,',
    ].join('\n')
    const got = await refs(csv, '0b8f7c1e-8a3d-4c55-9d9e-6f1a2b3c4d5e')
    expect(got).toEqual([
      '20260102.hv__xsjCtVguweCAbqeFgt.1',
      '20260102.rATYBZSxv8UFkzOaQVVNbt.1',
      '20260102.rATYBZSxv8UFkzOaQVVNbt.2',
      '20260131.TwWo_m2pUbKwc1Zol-nXFW.1',
      '20260102.rATYBZSxv8UFkzOaQVVNbt.3',
    ])
    // What the digest is of: the account, date, amount in minor units, lower-cased description and reference.
    const key = ['0b8f7c1e-8a3d-4c55-9d9e-6f1a2b3c4d5e', '2026-01-31', '250000', 'salary acme ltd', 'PAY-0131'].join('\u0000')
    expect(createHash('sha256').update(key).digest('base64url').slice(0, 22)).toBe('TwWo_m2pUbKwc1Zol-nXFW')
  })
})

describe('a converted row as it is sent', () => {
  it("holds --set fields first, in their place when a column gives them too, then the row's fields in a fixed order", async () => {
    const path = join(dir, 'order.csv')
    writeFileSync(
      path,
      'Date,Value date,Description,Amount,Payee,Category\n2024-03-05,2024-03-06,"Coffee  shop",-4.50,Café Luna,Food\n2024-03-07,,Rent,-900.00,,\n',
    )
    const plan = await planImport(path, {})
    const conv = new RowMapper(plan, {
      accountId: 'acct',
      currency: 'EUR',
      constants: { category: 'Misc', cash_flow_category: 'operating', currency_code: 'EUR' },
    })
    const sent: unknown[] = []
    for await (const rec of readRecords(path, plan.layout)) {
      const r = conv.map(rec)
      if (r?.ok) sent.push(JSON.parse(JSON.stringify(r.request)))
    }
    expect(sent.map((r) => Object.keys(r as object))).toEqual([
      [
        'category',
        'cash_flow_category',
        'currency_code',
        'bank_account_id',
        'transaction_date',
        'description',
        'original_description',
        'amount',
        'posted_date',
        'merchant_name',
        'import_ref',
      ],
      ['category', 'cash_flow_category', 'currency_code', 'bank_account_id', 'transaction_date', 'description', 'amount', 'import_ref'],
    ])
    expect(sent[0]).toMatchObject({ category: 'Food', description: 'Coffee shop', original_description: 'Coffee  shop', amount: '-4.50' })
    expect(sent[1]).toMatchObject({ category: 'Misc', amount: '-900.00' })
  })
})
