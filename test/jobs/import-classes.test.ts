/**
 * The classes of bank CSV against a real core, through both transports on both stores: a header-less
 * file lands whole; a file in another currency than the account's, or holding two accounts' rows,
 * is refused before anything is written (and a statement upload of it fails the same way); rows of
 * amount 0 are created as 0.00 and named. Fixtures: test/fixtures/csv-layouts (its README).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { AppError } from '../../src/kernel/errors.js'
import { toMinor } from '../../src/kernel/money.js'
import { runPipeline, type ImportOptions } from '../../src/jobs/import/pipeline.js'
import { createHarness, MATRIX, type Harness } from '../helpers/harness.js'

const LAYOUTS = join(import.meta.dirname, '..', 'fixtures', 'csv-layouts')
let tmp = ''
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'finctl-classes-'))
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

async function stored(c: Client, account: string) {
  const page = await c.transactions.list({ bank_account_id: account, limit: '1000' })
  return {
    count: page.data.length,
    sum: page.data.reduce((s, t) => s + toMinor(String(t.amount), t.currency_code), 0),
    currencies: [...new Set(page.data.map((t) => t.currency_code))],
  }
}

describe.each(MATRIX)('the classes of bank CSV over %s on %s', (kind, storeKind) => {
  let h: Harness
  let c: Client
  let n = 0
  const account = async (currency: string, number?: string) =>
    (
      await c.accounts.create({
        name: `Classes ${++n}`,
        account_type: 'checking',
        currency_code: currency,
        ...(number ? { account_number: number } : {}),
      })
    ).id
  const run = (file: string, o: Omit<ImportOptions, 'path' | 'mapping'> & Partial<Pick<ImportOptions, 'mapping'>>) =>
    runPipeline(c, { mapping: {}, ...o, path: file.includes('/') ? file : join(LAYOUTS, file) })

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    const t = await h.tenant('Classes')
    c = h.client({ apiKey: t.key })
  })
  afterAll(async () => {
    await h?.close()
  })

  it('1. a header-less file lands whole, its first line too; again, nothing new', async () => {
    const id = await account('EUR')
    const first = await run('at-easybank-no-header-latin1.csv', { accountId: id, constants: { exchange_rate: '1.1' } })
    expect({ created: first.created, rejected: first.rejected, total: first.amount_total }).toEqual({
      created: 5,
      rejected: 0,
      total: '986.63',
    })
    expect(await stored(c, id)).toEqual({ count: 5, sum: 98663, currencies: ['EUR'] })
    const again = await run('at-easybank-no-header-latin1.csv', { accountId: id, constants: { exchange_rate: '1.1' } })
    expect({ created: again.created, already: again.already_imported }).toEqual({ created: 0, already: 5 })
  })

  it('2. a file in EUR is refused whole by an account in USD; --set currency_code=EUR keeps its rows in EUR', async () => {
    const usd = await account('USD')
    const file = join(tmp, `betrag-in-eur-${kind}-${storeKind}.csv`)
    writeFileSync(file, 'Buchungstag;Text;Betrag in EUR\n13.03.2024;Shop;-1,50\n14.03.2024;Gehalt;100,00\n')
    const refused = await run(file, { accountId: usd }).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(AppError)
    expect((refused as AppError).code).toBe('validation_error')
    expect((refused as AppError).message).toContain('the file is in EUR (the header "Betrag in EUR") but bank account')
    expect(await stored(c, usd)).toEqual({ count: 0, sum: 0, currencies: [] })
    const dry = await run(file, { accountId: usd, dryRun: true }).catch((e: unknown) => e)
    expect((dry as AppError).code).toBe('validation_error')
    const kept = await run(file, { accountId: usd, constants: { currency_code: 'EUR', exchange_rate: '1.1' } })
    expect(kept.created).toBe(2)
    expect(await stored(c, usd)).toEqual({ count: 2, sum: 9850, currencies: ['EUR'] })
  })

  it('3. rows of amount 0 are created as 0.00 and named; a 0,00 closing line is skipped', async () => {
    const id = await account('EUR')
    const r = await run('gb-revolut-zero-card-hold.csv', { accountId: id, constants: { exchange_rate: '1.1' } })
    expect({ created: r.created, rejected: r.rejected, zero: r.zero_amounts }).toEqual({
      created: 5,
      rejected: 0,
      zero: { rows: 1, lines: [4] },
    })
    expect(await stored(c, id)).toEqual({ count: 5, sum: 11356, currencies: ['EUR'] })
    const spk = await account('EUR')
    const s = await run('de-sparkasse-csv-camt-zero-abschluss.csv', {
      accountId: spk,
      mapping: { dateFormat: 'DD.MM.YY' },
      constants: { exchange_rate: '1.1' },
    })
    expect({ created: s.created, skipped: s.skipped_lines, zero: s.zero_amounts }).toEqual({ created: 4, skipped: 1, zero: undefined })
  })

  it('9. a file of two accounts is refused before a row is written; --account-number imports one', async () => {
    const betaal = await account('EUR', 'NL69INGB0123456789')
    await account('EUR', 'NL91INGB0002445588')
    const refused = await run('nl-ing-two-own-accounts.csv', { accountId: betaal }).catch((e: unknown) => e)
    expect((refused as AppError).message).toContain('the file holds the rows of 2 accounts')
    expect((await stored(c, betaal)).count).toBe(0)
    const wrong = await run('nl-ing-two-own-accounts.csv', {
      accountId: betaal,
      mapping: { where: [['Rekening', 'NL91INGB0002445588']] },
    }).catch((e: unknown) => e)
    expect((wrong as AppError).message).toMatch(/they are bank account "Classes \d+"'s, import them there/)
    const one = await run('nl-ing-two-own-accounts.csv', {
      accountId: betaal,
      mapping: { accountNumber: '6789' },
      constants: { exchange_rate: '1.1' },
    })
    expect({ created: one.created, total: one.amount_total }).toEqual({ created: 3, total: '1576.83' })
  })

  it('a statement upload of the same files fails the same way: the EUR file on a USD account, two accounts without a choice', async () => {
    const usd = await account('USD')
    const upload = async (accountId: string, name: string, bytes: Buffer, fields: Record<string, string> = {}) =>
      c.statements.wait(
        (await c.statements.upload({ bank_account_id: accountId, file_name: name, content_base64: bytes.toString('base64'), ...fields }))
          .id,
      )
    const eur = await upload(usd, 'dab.csv', Buffer.from('Buchungstag;Text;Betrag in EUR\n13.03.2024;Shop;-1,50\n'))
    expect(eur.status).toBe('failed')
    expect(eur.error).toContain('the statement is in EUR but bank account')
    const betaal = await account('EUR', 'NL69INGB0123456780')
    const ing = readFileSync(join(LAYOUTS, 'nl-ing-two-own-accounts.csv'))
    const both = await upload(betaal, 'ing.csv', ing)
    expect(both.status).toBe('failed')
    expect(both.error).toContain('the file holds statements of 2 accounts')
    const chosen = await upload(betaal, 'ing-2.csv', ing, { account_number: '2445588', exchange_rate: '1.1' })
    expect(chosen.error).toBeNull()
    expect(chosen.status).toBe('completed')
    expect(chosen.transaction_count).toBe(2)
  })
})
