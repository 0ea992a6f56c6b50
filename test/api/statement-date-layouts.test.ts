/**
 * An upload's `date_format` takes any layout, through both transports on both stores:
 * a CSV of `DD/YYYY/MM` dates, a CSV of month names detected without one, and a layout that reads
 * no date answered 400 naming `date_format`, with an example, before anything is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../src/kernel/errors.js'
import type { Client } from '../../src/client/client.js'
import { createHarness, MATRIX, type Harness } from '../helpers/harness.js'

describe.each(MATRIX)('statement date layouts over %s on %s', (kind, storeKind) => {
  let h: Harness
  let c: Client
  let n = 0

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    c = h.client({ apiKey: (await h.tenant('Layouts')).key })
  })
  afterAll(async () => {
    await h?.close()
  })

  const account = async () => (await c.accounts.create({ name: `Layouts ${++n}`, account_type: 'checking', currency_code: 'USD' })).id
  const upload = (accountId: string, csv: string, fields: Record<string, unknown> = {}) =>
    c.statements.upload({
      bank_account_id: accountId,
      file_name: 'dates.csv',
      content_base64: Buffer.from(csv).toString('base64'),
      ...fields,
    })
  const dates = async (accountId: string, csv: string, fields: Record<string, unknown> = {}) => {
    const s = await c.statements.wait((await upload(accountId, csv, fields)).id)
    expect([s.status, s.error]).toEqual(['completed', null])
    return (await c.transactions.list({ bank_account_id: accountId, limit: 100 })).data.map((t) => [t.transaction_date, t.amount]).sort()
  }

  it('date_format DD/YYYY/MM (and %d/%Y/%m) reads a year in the middle', async () => {
    const csv = 'Date;Description;Amount\n24/2022/03;Coffee;-3,50\n05/2022/04;Salary;2500,00\n'
    const want = [
      ['2022-03-24', -3.5],
      ['2022-04-05', 2500],
    ]
    expect(await dates(await account(), csv, { date_format: 'DD/YYYY/MM' })).toEqual(want)
    expect(await dates(await account(), csv, { date_format: '%d/%Y/%m' })).toEqual(want)
  })

  it('dates with month names are detected without a date_format (French abbreviations, a balance line skipped)', async () => {
    const csv = 'Date;Libellé;Montant\n5 janv. 2024;Café;-3,50\n12 févr. 2024;Salaire;2500,00\n31 déc. 2024;Frais;-1,25\nSolde;;2495,25\n'
    expect(await dates(await account(), csv)).toEqual([
      ['2024-01-05', -3.5],
      ['2024-02-12', 2500],
      ['2024-12-31', -1.25],
    ])
  })

  it('a layout that reads no date is a 400 naming date_format, with an example; nothing is stored', async () => {
    const acct = await account()
    for (const [format, reason] of [
      ['DD/MM', 'a date needs a day, a month and a year; for example DD/MM/YYYY reads 24/03/2022'],
      ['%d/%q/%Y', expect.stringContaining('%q is no date code')],
    ] as const) {
      const e = await upload(acct, 'Date,Description,Amount\n2024-01-05,Coffee,-3.50\n', { date_format: format }).then(
        () => new Error('expected a 400'),
        (err: unknown) => err,
      )
      expect(e).toBeInstanceOf(AppError)
      expect((e as AppError).status).toBe(400)
      expect((e as AppError).details).toEqual([
        { path: 'date_format', message: typeof reason === 'string' ? `"${format}": ${reason}` : reason },
      ])
    }
    expect((await c.statements.list({ bank_account_id: acct })).data).toEqual([])
  })
})
