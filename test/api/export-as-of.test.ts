/**
 * Exports as the data stood at a moment (`--as-of`; GET /api-v1/exports/as-of, and `as_of` on the
 * groups and opening balances) through both transports on both stores: a journal, a CSV and a SIE
 * file written at a moment are written again, byte for byte, with `as_of` that moment after rows
 * were edited, voided, deleted and added and an account's opening balance changed; without it they
 * differ.
 */
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { ExportFormat } from '../../src/domain/exports/formats/format.js'
import { runExport } from '../../src/jobs/export/run.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const NOW = new Date('2026-11-05T09:30:00Z')
const PERIOD = { from: '2026-10-01', to: '2026-10-31' }

async function exported(c: Client, format: ExportFormat, asOf?: string): Promise<string> {
  const chunks: Buffer[] = []
  const sink = new Writable({
    write(chunk: Buffer, _e, done) {
      chunks.push(Buffer.from(chunk))
      done()
    },
  })
  await runExport(c, { format, ...PERIOD, writtenAt: NOW, asOf, pageSize: 2 }, sink)
  return Buffer.concat(chunks).toString('latin1')
}

const FORMATS: ExportFormat[] = ['hledger', 'csv', 'sie4']

describe.each(MATRIX)('exports as of a moment over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('As Of Co')
    c = h.client({ apiKey: a.key })
    await c.exportMap.set({
      bank_accounts: { [a.accountId]: 1930 },
      accounting_categories: { operating_expenses: 6990, revenue: 3000 },
      uncategorized_expense: 2999,
      uncategorized_income: 2999,
      opening_balances: 2091,
    })
  })
  afterAll(async () => {
    await h?.close()
  })

  it('the files of a moment come back byte for byte with as_of, after edits, voids, deletes, new rows and a new opening balance', async () => {
    const create = (date: string, amount: string, description: string, accounting?: string) =>
      c.transactions.create({
        bank_account_id: a.accountId,
        transaction_date: date,
        description,
        amount,
        ...(accounting ? { category: description, accounting_category: accounting } : {}),
      } as Parameters<Client['transactions']['create']>[0])
    const before = await create('2026-09-20', '-40.00', 'September', 'operating_expenses')
    const edited = await create('2026-10-03', '-12.34', 'Paper', 'operating_expenses')
    const deleted = await create('2026-10-05', '-99.00', 'Deleted later', 'operating_expenses')
    const voided = await create('2026-10-07', '1000.00', 'Invoice', 'revenue')
    await create('2026-10-09', '-5.00', 'Fee')
    await new Promise((r) => setTimeout(r, 20))
    const moment = new Date().toISOString()
    const then = Object.fromEntries(await Promise.all(FORMATS.map(async (f) => [f, await exported(c, f)] as const)))
    await new Promise((r) => setTimeout(r, 20))

    await c.transactions.update(edited.id, { amount: '-21.00', transaction_date: '2026-10-20', description: 'Paper, corrected' })
    await c.transactions.update(voided.id, { status: 'void' })
    await c.transactions.update(before.id, { amount: '-400.00' })
    await c.transactions.delete(deleted.id)
    await create('2026-10-02', '-7.00', 'Added later', 'operating_expenses')
    await c.accounts.update(a.accountId, { opening_balance: '500.00' })

    for (const f of FORMATS) {
      expect(await exported(c, f), `${f} now`).not.toBe(then[f])
      expect(await exported(c, f, moment), `${f} as of ${moment}`).toBe(then[f])
    }
  })
})
