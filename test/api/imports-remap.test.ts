/**
 * `imports remap` (/api-v1/imports/{id}/file/{part}, /remap): a review batch's file kept in parts is
 * read again with another mapping; its pending rows are replaced, the refused ones named by line,
 * rows already on the account left out; a batch no longer pending, or without a file, is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { previousMonth } from '../../src/domain/accounts/period-lock.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const M = previousMonth(new Date().toISOString().slice(0, 7))

async function refused(p: Promise<unknown>, code: string): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  )
  expect(e).toBeInstanceOf(AppError)
  expect((e as AppError).code, (e as AppError).message).toBe(code)
  return e as AppError
}

const FILE = [
  'Date,Payee,Memo,Amount',
  `${M}-03,Rail Co,Travel,-12.50`,
  `${M}-04,Paper Shop,Office,-3.20`,
  `${M}-05,Client A,Sales,100.00`,
  `${M}-06,Nobody,Misc,abc`,
].join('\n')

describe.each(MATRIX)('imports remap over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Remap')
    c = h.client({ apiKey: a.key })
  })
  afterAll(async () => {
    await h?.close()
  })

  /** A review batch that kept `file` in parts of `size` bytes and ended pending with nothing staged. */
  async function pending(file: string, size = 40, mapping: object = { map: [['description', 'Payee']] }) {
    const b = await c.imports.create({
      kind: 'csv',
      bank_account_id: a.accountId,
      file_name: 'remap.csv',
      options: { review: true, mapping },
    })
    const bytes = Buffer.from(file)
    for (let i = 0; i * size < bytes.length; i++)
      await c.imports.putFilePart(b.id, i, bytes.subarray(i * size, (i + 1) * size).toString('base64'))
    await c.imports.finish(b.id, { state: 'pending', read: 0, rejected: 0 })
    return b.id
  }
  const rows = async (id: string) =>
    (await c.imports.pending(id)).data.rows.map((r) => [r.line, r.transaction.description, r.transaction.category ?? null])

  it('reads the kept file again: pending rows replaced, a remap again replaces them again, rejects named by line', async () => {
    const id = await pending(FILE)
    const r = await c.imports.remap(id, { map: ['category=Memo'] })
    expect(r.state).toBe('pending')
    expect(r.remap).toEqual({ read: 4, staged: 3, existing: 0, rejected: 1 })
    expect(r.rejects).toEqual([{ line: 5, reason: expect.stringContaining('amount') }])
    expect(r.counts.rejected).toBe(1)
    expect(await rows(id)).toEqual([
      [2, 'Rail Co', 'Travel'],
      [3, 'Paper Shop', 'Office'],
      [4, 'Client A', 'Sales'],
    ])
    // The batch records the mapping it now reads by: the description kept, the category added.
    expect((r.options.mapping as { map: string[][] }).map).toEqual([
      ['description', 'Payee'],
      ['category', 'Memo'],
    ])
    const again = await c.imports.remap(id, { map: ['description=Memo'], invert_sign: true })
    expect(again.remap).toMatchObject({ staged: 3, rejected: 1 })
    const page = (await c.imports.pending(id)).data
    expect(page.staged).toBe(3)
    expect(page.rows.map((x) => [x.line, x.transaction.description, x.transaction.amount])).toEqual([
      [2, 'Travel', '12.50'],
      [3, 'Office', '3.20'],
      [4, 'Sales', '-100.00'],
    ])
    // Nothing is a transaction until apply; apply lands the remapped rows.
    expect((await c.transactions.list({ bank_account_id: a.accountId, limit: 100 })).data).toHaveLength(0)
    const applied = await c.imports.apply(id)
    expect(applied.applied).toMatchObject({ created: 3, rejected: 0 })
    const made = (await c.transactions.list({ bank_account_id: a.accountId, limit: 100 })).data.map((t) => t.description).sort()
    expect(made).toEqual(['Office', 'Sales', 'Travel'])
    // Applied: no more remap, and the file is gone with the pending rows.
    await refused(c.imports.remap(id, { map: ['category=Memo'] }), 'conflict')
  })

  it('leaves out rows already on the account; refuses a bad field, a missing column, no file, and a batch not pending', async () => {
    const id = await pending(FILE)
    // The rows applied above are on the account: read with the same mapping, they are already there.
    const r = await c.imports.remap(id, { map: ['description=Memo'], invert_sign: true })
    expect(r.remap).toEqual({ read: 4, staged: 0, existing: 3, rejected: 1 })
    const bad = await refused(c.imports.remap(id, { map: ['colour=Memo'] }), 'validation_error')
    expect(bad.details?.[0]?.path).toBe('map.0')
    const missing = await refused(c.imports.remap(id, { map: ['category=Nope'] }), 'validation_error')
    expect(missing.message).toContain('Nope')
    await refused(c.imports.remap(id, {} as never), 'validation_error')

    const bare = await c.imports.create({ kind: 'csv', bank_account_id: a.accountId, file_name: 'bare.csv', options: { review: true } })
    await c.imports.finish(bare.id, { state: 'pending', read: 0, rejected: 0 })
    expect((await refused(c.imports.remap(bare.id, { map: ['category=Memo'] }), 'conflict')).message).toContain('keeps no file')

    await c.imports.discard(id)
    expect((await refused(c.imports.remap(id, { map: ['category=Memo'] }), 'conflict')).message).toContain('discarded')
    // A file is kept only while the review runs.
    await refused(c.imports.putFilePart(id, 0, Buffer.from('x').toString('base64')), 'conflict')
  })
})
