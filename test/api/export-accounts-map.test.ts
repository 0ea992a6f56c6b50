/**
 * The company's accounts map and a period's groups through both transports on both stores (GET, PUT,
 * DELETE /api-v1/exports/accounts-map; GET /api-v1/exports/groups): the map is kept as given and
 * read back with its SHA-256; `write` or `close` sets it, `read` only reads; a bank account it names
 * must be the company's; another company never sees it. The groups count each period's non-void
 * transactions by bank account and categories with exact base sums of each sign.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { AccountsMapFile } from '../../src/domain/exports/accounts-map-schema.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

async function rejects(p: Promise<unknown>, code: string): Promise<AppError> {
  const e = await p.then(
    () => new Error('expected an error'),
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(AppError)
  expect((e as AppError).code, (e as AppError).message).toBe(code)
  return e as AppError
}

describe.each(MATRIX)('the exports accounts map over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let owner: Client
  let reader: Client
  let closer: Client

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Chart Co')
    owner = h.client({ token: a.token })
    reader = h.client({ apiKey: (await owner.keys.create({ name: 'reader', scopes: ['read'] })).key })
    closer = h.client({ apiKey: (await owner.keys.create({ name: 'closer', scopes: ['read', 'close'] })).key })
  })
  afterAll(async () => {
    await h?.close()
  })

  it('none at first; set with close (an accountant) or write, read back as given with its SHA-256; read cannot set it', async () => {
    expect(await reader.exportMap.get()).toEqual({ map: null, sha256: null, updated_by: null, updated_at: null })
    const map: AccountsMapFile = {
      chart: 'skr03',
      datev: { adviser: 1001, client: 1 },
      bank_accounts: { [a.accountId]: 1200 },
      accounting_categories: { revenue: { number: '8400', name: 'Erlöse' } },
    }
    const set = await closer.exportMap.set(map)
    expect(set.map).toEqual(map)
    expect(set.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(await reader.exportMap.get()).toMatchObject({ map, sha256: set.sha256 })
    await rejects(reader.exportMap.set(map), 'forbidden')
    const again = await h.client({ apiKey: a.key }).exportMap.set({ ...map, chart: 'skr04' })
    expect(again.map?.chart).toBe('skr04')
  })

  it('refused with the field named: a bank account not the company’s, a number that is no number, an unknown key', async () => {
    const e = await rejects(owner.exportMap.set({ bank_accounts: { 'No such bank': 1200 } }), 'validation_error')
    expect(e.message).toContain('No such bank')
    await rejects(owner.exportMap.set({ categories: { Office: { number: '12a' } } } as unknown as AccountsMapFile), 'validation_error')
    await rejects(owner.exportMap.set({ charts: 'skr03' } as unknown as AccountsMapFile), 'validation_error')
    expect((await owner.exportMap.get()).map?.chart).toBe('skr04')
  })

  it('another company does not see it; clearing removes it', async () => {
    const b = await h.tenant('Other Co')
    expect((await h.client({ apiKey: b.key }).exportMap.get()).map).toBeNull()
    expect(await closer.exportMap.clear()).toEqual({ deleted: true })
    expect(await closer.exportMap.clear()).toEqual({ deleted: false })
    expect((await reader.exportMap.get()).map).toBeNull()
  })

  it('the groups: non-void transactions by account and categories, with exact sums of each sign', async () => {
    const c = h.client({ apiKey: a.key })
    const create = (amount: string, category?: string, accounting?: string) =>
      c.transactions.create({
        bank_account_id: a.accountId,
        transaction_date: '2026-10-05',
        description: `t ${amount}`,
        amount,
        ...(category ? { category } : {}),
        ...(accounting ? { accounting_category: accounting } : {}),
      } as Parameters<Client['transactions']['create']>[0])
    await create('-0.10', 'Office', 'operating_expenses')
    await create('-0.20', 'Office', 'operating_expenses')
    await create('5.00', 'Office', 'operating_expenses')
    await create('-3.00')
    const voided = await create('-100.00', 'Office', 'operating_expenses')
    await c.transactions.update(voided.id, { status: 'void' })
    const g = await c.exports.groups({ from: '2026-10-01', to: '2026-10-31' })
    expect(g.groups).toEqual([
      {
        bank_account_id: a.accountId,
        category: null,
        accounting_category: null,
        cash_flow_category: null,
        count: 1,
        base_in: 0,
        base_out: -3,
      },
      {
        bank_account_id: a.accountId,
        category: 'Office',
        accounting_category: 'operating_expenses',
        cash_flow_category: null,
        count: 3,
        base_in: 5,
        base_out: -0.3,
      },
    ])
    await rejects(
      c.exports.groups({ from: '2026-10-01', to: '2026-10-31', bank_account_id: '00000000-0000-7000-8000-000000000000' }),
      'not_found',
    )
  })
})
