/**
 * `tx import`'s stages (src/jobs/import/pipeline.ts) against a real core: every bank CSV of
 * csv/ in the bank-file corpus (test/helpers/bank-files.ts; skipped when it is missing) lands with
 * the count and sum SOURCES.md gives; exactly once in the ways people really download files (cases
 * a-e of the issue); rejects, dry run, --atomic; and the fallback to single creates with
 * Idempotency-Keys against a service without the batch route, paced by 429s without losing a row.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Client, type FetchLike } from '../../src/client/client.js'
import { OccurrenceCounter } from '../../src/import/occurrences.js'
import { toMinor } from '../../src/kernel/money.js'
import type { CsvMapping } from '../../src/import/plan.js'
import { runPipeline, type ImportOptions, type PipelineHooks } from '../../src/jobs/import/pipeline.js'
import { discardRejects, KEPT_REJECTS, readRejects } from '../../src/jobs/import/reject-list.js'
import { bankFile, HAS_BANK_FILES } from '../helpers/bank-files.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const FIXTURES = bankFile('csv')
let tmp = ''
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'finctl-import-'))
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))
let fileNo = 0
type Run = Omit<ImportOptions, 'path' | 'mapping'> & { mapping?: CsvMapping }
const runImport = (client: Client, path: string, o: Run, hooks?: PipelineHooks) => runPipeline(client, { mapping: {}, ...o, path }, hooks)
function csvFile(text: string, name = `f${++fileNo}.csv`): string {
  const p = join(tmp, name)
  writeFileSync(p, text)
  return p
}

async function accountTotals(c: Client, account: string) {
  const rows: Array<{ amount: number; currency_code: string; description: string; transaction_date: string }> = []
  let cursor: string | undefined
  do {
    const page = await c.transactions.list({ bank_account_id: account, limit: '1000', cursor })
    rows.push(...page.data)
    cursor = page.pagination?.next_cursor ?? undefined
  } while (cursor)
  const sum = rows.reduce((s, t) => s + toMinor(String(t.amount), t.currency_code), 0)
  return { count: rows.length, sum, rows }
}

describe.each(MATRIX)('tx import over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client
  const newAccount = async (currency = 'USD') =>
    (await c.accounts.create({ name: `Imp ${++fileNo}`, account_type: 'checking', currency_code: currency })).id
  const run = (path: string, o: Run) => runImport(c, path, o)

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Importer')
    c = h.client({ apiKey: a.key })
  })
  afterAll(async () => {
    await h?.close()
  })

  const FILES: Array<[string, string, CsvMapping, number, string]> = [
    ['de-dab-bnp-bom-semicolon-decimal-comma.csv', 'EUR', {}, 7, '10053.90'],
    ['de-dkb-creditcard-latin1-preamble-lines.csv', 'EUR', {}, 7, '-184.70'],
    ['de-gls-latin1-semicolon-no-final-newline.csv', 'EUR', {}, 1, '-98.76'],
    ['ch-ubs-fr-semicolon-debit-credit-apostrophe-thousands.csv', 'CHF', { map: [['description', 'Description 1']] }, 3, '30.00'],
    ['us-schwab-checking-quoted-dollar-withdrawal-deposit.csv', 'USD', {}, 4, '-215.27'],
    ['us-capitalone-card-debit-credit-columns.csv', 'USD', {}, 2, '0.00'],
    ['tz-creditunion-cr-only-line-endings-unicode.csv', 'USD', {}, 8, '465000.00'],
    ['es-ing-crlf-ddmmyyyy-signed.csv', 'EUR', {}, 10, '350.21'],
    ['us-chase-style-checking-signed-balance.csv', 'USD', {}, 6, '-1490.16'],
    ['fr-sample-cp1252-euro-no-final-newline.csv', 'EUR', {}, 3, '20.00'],
    ['fr-style-metadata-header-footer-debit-credit-decimal-comma.csv', 'EUR', { dateFormat: 'DD/MM/YY' }, 4, '1069.32'],
    ['odoo-amount-with-dc-indicator-column.csv', 'EUR', {}, 2, '1500.00'],
    [
      'lt-danske-cp1257-crlf-multiline-quoted.csv',
      'EUR',
      {
        encoding: 'windows-1257',
        map: [
          ['amount', '-2'],
          ['description', '-6'],
          ['description', '-5'],
        ],
      },
      4,
      '0.00',
    ],
    // Its Valiuta column says LTL on every row: the account of 2012 was in litas.
    [
      'lt-swedbank-dk-indicator-unescaped-quotes.csv',
      'LTL',
      { where: [['2', '20']], map: [['description', 'Paaiškinimai']] },
      5,
      '1058.46',
    ],
  ]
  it.skipIf(!HAS_BANK_FILES).each(FILES)(
    'imports %s with the count and sum of SOURCES.md, then again creates nothing',
    async (file, currency, opts, count, sum) => {
      const accountId = await newAccount(currency)
      const constants = currency === 'USD' ? {} : { exchange_rate: '1.1' }
      const first = await run(join(FIXTURES, file), { mapping: opts, accountId, constants })
      expect(first.rejects).toEqual([])
      expect({ created: first.created, total: first.amount_total }).toEqual({ created: count, total: sum })
      const stored = await accountTotals(c, accountId)
      expect(stored.count).toBe(count)
      expect(stored.sum).toBe(toMinor(sum, currency))
      const again = await run(join(FIXTURES, file), { mapping: opts, accountId, constants })
      expect({ created: again.created, already: again.already_imported }).toEqual({ created: 0, already: count })
      expect((await accountTotals(c, accountId)).count).toBe(count)
    },
  )

  describe('exactly once, the way files are really downloaded', () => {
    const header = 'Date,Description,Amount\n'
    const oct = ['2026-10-01,Coffee,-3.50', '2026-10-01,Coffee,-3.50', '2026-10-02,Rent,-900.00', '2026-10-03,Salary,2500.00']

    it('(a) two identical rows in one file both import; (b) re-running creates nothing and says so', async () => {
      const accountId = await newAccount()
      const f = csvFile(`${header + oct.join('\n')}\n`)
      const first = await run(f, { accountId })
      expect(first.created).toBe(4)
      expect((await accountTotals(c, accountId)).rows.filter((t) => t.description === 'Coffee')).toHaveLength(2)
      const again = await run(f, { accountId })
      expect({ created: again.created, already: again.already_imported, rejected: again.rejected }).toEqual({
        created: 0,
        already: 4,
        rejected: 0,
      })
    })

    it('(c) an overlapping download imports only the new rows; (d) the same data under another name creates nothing; (e) a late-posted older row is imported', async () => {
      const accountId = await newAccount()
      await run(csvFile(`${header + oct.join('\n')}\n`, 'october.csv'), { accountId })
      const overlap = [...oct.slice(2), '2026-10-04,Bakery,-7.20', '2026-10-05,Coffee,-3.50']
      const c2 = await run(csvFile(`${header + overlap.join('\n')}\n`, 'october-2.csv'), { accountId })
      expect({ created: c2.created, already: c2.already_imported }).toEqual({ created: 2, already: 2 })
      const d = await run(csvFile(`${header + [...oct].reverse().join('\n')}\n`, 'renamed-export (1).csv'), { accountId })
      expect({ created: d.created, already: d.already_imported }).toEqual({ created: 0, already: 4 })
      const late = [...oct, '2026-09-28,Late card fee,-15.00']
      const e = await run(csvFile(`${header + late.join('\n')}\n`, 'with-late.csv'), { accountId })
      expect({ created: e.created, already: e.already_imported }).toEqual({ created: 1, already: 4 })
      const all = await accountTotals(c, accountId)
      expect(all.count).toBe(7)
      // October 1,593.00; then the bakery -7.20, the new coffee -3.50 and the late fee -15.00.
      expect(all.sum).toBe(159300 - 720 - 350 - 1500)
    })

    it('a third identical row in a later download is a new transaction; the two known ones are not', async () => {
      const accountId = await newAccount()
      await run(csvFile(`${header + oct.join('\n')}\n`), { accountId })
      const r = await run(csvFile(`${header + [...oct, '2026-10-01,Coffee,-3.50'].join('\n')}\n`), { accountId })
      expect({ created: r.created, already: r.already_imported }).toEqual({ created: 1, already: 4 })
    })
  })

  it('writes rejected rows, as the bank wrote them plus line and reason, to the rejects file, and imports the rest', async () => {
    const accountId = await newAccount()
    const rejects = join(tmp, `rejects-${kind}-${storeKind}.csv`)
    const f = csvFile(
      'Date;Description;Amount\n01.10.2026;Good;-1,00\n02.10.2026;"Bad; amount";abc\n03.10.2026;;-2,00\n04.10.2026;Also good;5,00\n',
    )
    const r = await run(f, { accountId, rejectsPath: rejects, mapping: { dateFormat: 'DD.MM.YYYY' } })
    expect({ read: r.read, created: r.created, rejected: r.rejected }).toEqual({ read: 4, created: 2, rejected: 2 })
    expect(r.rejects.map((x) => x.line)).toEqual([3, 4])
    const lines = readFileSync(rejects, 'utf8').trim().split('\r\n')
    expect(lines[0]).toBe('Date;Description;Amount;line;reason')
    expect(lines[1]).toMatch(/^02\.10\.2026;"Bad; amount";abc;3;"?amount /)
    expect(lines[2]).toMatch(/^03\.10\.2026;;-2,00;4;"no description: ""Description"" is empty on this row"$/)
  })

  it('keeps the first thousand rejected rows in memory and the rest in a spill file, every one listed in order', async () => {
    const accountId = await newAccount()
    const bad = Array.from({ length: KEPT_REJECTS + 500 }, (_, i) => `2026-10-02,Bad ${i},n/a`)
    const f = csvFile(`${['Date,Description,Amount', '2026-10-01,Good,-1.00', ...bad, '2026-10-03,Also good,2.00'].join('\n')}\n`)
    const r = await run(f, { accountId })
    expect({ read: r.read, created: r.created, rejected: r.rejected }).toEqual({
      read: KEPT_REJECTS + 502,
      created: 2,
      rejected: KEPT_REJECTS + 500,
    })
    expect(r.rejects).toHaveLength(KEPT_REJECTS)
    const every: number[] = []
    for await (const x of readRejects(r.rejects, r.rejects_spill)) every.push(x.line)
    expect(every).toEqual(bad.map((_, i) => i + 3))
    discardRejects(r.rejects_spill)
    expect(existsSync(dirname(r.rejects_spill!))).toBe(false)
  })

  it.each([
    ['a whole number of batches', 2000],
    ['and a part batch', 2130],
  ])('sends the last batch alone, once every other is answered, and only it says so (bulk-load-end): %s', async (_name, n) => {
    const accountId = await newAccount()
    const lines = Array.from({ length: n }, (_, i) => `2026-0${1 + (i % 9)}-1${i % 10},Row ${i},-${1 + (i % 70)}.00`)
    const f = csvFile(`${['Date,Description,Amount', ...lines].join('\n')}\n`)
    const batches: Array<{ end: boolean; rows: number; started: number; answered: number }> = []
    const watching: FetchLike = async (url, init) => {
      if (!url.endsWith('/transactions/batch')) return h.fetch(url, init)
      const b = { end: false, rows: 0, started: performance.now(), answered: Number.POSITIVE_INFINITY }
      const prefer = String((init.headers as Record<string, string>).prefer ?? '')
      b.end = /(^|,)\s*bulk-load-end\s*(,|$)/.test(prefer)
      b.rows = (JSON.parse(String(init.body)) as { transactions: unknown[] }).transactions.length
      batches.push(b)
      const res = await h.fetch(url, init)
      b.answered = performance.now()
      return res
    }
    const client = new Client({ baseUrl: h.baseUrl, fetch: watching, apiKey: a.key, maxRetries: 0 })
    // The occurrence table is given back once the file is read: before the last batch goes.
    const released: number[] = []
    const original = OccurrenceCounter.prototype.release
    const release = vi.spyOn(OccurrenceCounter.prototype, 'release').mockImplementation(function (this: OccurrenceCounter) {
      released.push(performance.now())
      original.call(this)
    })
    let r: Awaited<ReturnType<typeof runImport>>
    try {
      r = await runImport(client, f, { accountId, batchSize: 500, concurrency: 3 })
    } finally {
      release.mockRestore()
    }
    expect(r.created).toBe(n)
    expect(batches.reduce((s, b) => s + b.rows, 0)).toBe(n)
    expect(batches.map((b) => b.end)).toEqual([...Array(batches.length - 1).fill(false), true])
    const last = batches[batches.length - 1]
    for (const b of batches.slice(0, -1)) expect(b.answered).toBeLessThanOrEqual(last.started)
    expect(released).toHaveLength(1)
    expect(released[0]).toBeLessThanOrEqual(last.started)
  })

  it('an import that fails after spilling rejected rows leaves no spill file behind', async () => {
    const accountId = await newAccount()
    const bad = Array.from({ length: KEPT_REJECTS + 10 }, (_, i) => `2026-10-02,Bad ${i},n/a`)
    const f = csvFile(`${['Date,Description,Amount', ...bad, '2026-10-03,Good,2.00'].join('\n')}\n`)
    // The service goes away once the rows are sent.
    const failing: FetchLike = (url, init) =>
      init.method === 'POST' ? Promise.reject(new Error('connection refused')) : h.fetch(url, init)
    const client = new Client({ baseUrl: h.baseUrl, fetch: failing, apiKey: a.key, maxRetries: 0 })
    const own = mkdtempSync(join(tmpdir(), 'finctl-spill-'))
    const before = process.env.TMPDIR
    process.env.TMPDIR = own
    try {
      await expect(runImport(client, f, { accountId })).rejects.toThrow(/connection refused/)
      expect(readdirSync(own)).toEqual([])
    } finally {
      if (before === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = before
      rmSync(own, { recursive: true, force: true })
    }
  })

  it('--dry-run shows the first rows, counts and total, and writes nothing', async () => {
    const accountId = await newAccount()
    const f = csvFile('Date,Description,Amount\n2026-10-01,A,-1.00\n2026-10-02,B,-2.00\n2026-10-03,C,x\n')
    const r = await run(f, { accountId, dryRun: true, previewRows: 1 })
    expect({ read: r.read, rejected: r.rejected, total: r.amount_total, created: r.created }).toEqual({
      read: 3,
      rejected: 1,
      total: '-3.00',
      created: 0,
    })
    expect(r.preview?.map((p) => p.description)).toEqual(['A'])
    expect((await accountTotals(c, accountId)).count).toBe(0)
  })

  it('--atomic: one bad row and nothing is imported; a clean file imports whole', async () => {
    const accountId = await newAccount()
    const bad = await run(csvFile('Date,Description,Amount\n2026-10-01,A,-1.00\n2026-10-02,B,oops\n'), { accountId, atomic: true })
    expect({ rolled_back: bad.rolled_back, created: bad.created, rejected: bad.rejected }).toEqual({
      rolled_back: true,
      created: 0,
      rejected: 1,
    })
    expect((await accountTotals(c, accountId)).count).toBe(0)
    const good = await run(csvFile('Date,Description,Amount\n2026-10-01,A,-1.00\n2026-10-02,B,2.00\n2026-10-03,C,3.00\n'), {
      accountId,
      atomic: true,
      batchSize: 2,
    })
    expect(good.created).toBe(3)
    expect((await accountTotals(c, accountId)).count).toBe(3)
  })

  it('--atomic: a row the service refuses deletes what the run had created', async () => {
    const accountId = await newAccount()
    // EUR needs an exchange rate: the service refuses that row of the second batch.
    const f = csvFile(
      'Date,Description,Amount,Currency\n2026-10-01,A,-1.00,USD\n2026-10-02,B,2.00,USD\n2026-10-03,C,3.00,USD\n2026-10-04,D,4.00,EUR\n',
    )
    const r = await run(f, { accountId, atomic: true, batchSize: 2, constants: {} })
    expect(r.rolled_back).toBe(true)
    expect((await accountTotals(c, accountId)).count).toBe(0)
  })

  it('without a batch route and without import_ref (the service as specified): single creates with Idempotency-Keys, paced by 429s, exactly once', async () => {
    const accountId = await newAccount()
    let n = 0
    let limited = 0
    let accountRead = 0
    const tooMany = () =>
      new Response(JSON.stringify({ success: false, error: { code: 'rate_limited', message: 'slow down', request_id: 'x' } }), {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '0' },
      })
    const specOnly: FetchLike = async (url, init) => {
      // Even the first read of the import is refused once: it waits and asks again.
      if (/\/api-v1\/bank-accounts\/[^/?]+$/.test(url) && accountRead++ === 0) return tooMany()
      if (url.endsWith('/api-v1/transactions/batch'))
        return new Response('{"message":"Not Found"}', { status: 404, headers: { 'content-type': 'application/json' } })
      if (init.method === 'POST' && url.endsWith('/api-v1/transactions')) {
        if (++n % 4 === 0) {
          limited++
          return tooMany()
        }
        const body = JSON.parse(String(init.body)) as Record<string, unknown>
        if ('import_ref' in body) {
          return new Response(
            JSON.stringify({
              success: false,
              error: {
                code: 'validation_error',
                message: 'unknown field',
                details: [{ path: 'import_ref', message: 'unknown field' }],
                request_id: 'y',
              },
            }),
            {
              status: 400,
              headers: { 'content-type': 'application/json' },
            },
          )
        }
      }
      return h.fetch(url, init)
    }
    const client = new Client({ baseUrl: h.baseUrl, fetch: specOnly, apiKey: a.key, maxRetries: 0 })
    const rows = Array.from({ length: 30 }, (_, i) => `2026-10-${String((i % 28) + 1).padStart(2, '0')},Row ${i % 25},-${i + 1}.00`)
    const f = csvFile(`Date,Description,Amount\n${rows.join('\n')}\n`)
    const first = await runImport(client, f, { accountId, concurrency: 5 }, { sleep: async () => {} })
    expect(first.mode).toBe('single')
    expect(first.rejects.slice(0, 3)).toEqual([])
    expect({ created: first.created, rejected: first.rejected }).toEqual({ created: 30, rejected: 0 })
    expect(limited).toBeGreaterThan(0)
    expect(accountRead).toBe(2)
    const again = await runImport(client, f, { accountId, concurrency: 5 }, { sleep: async () => {} })
    expect({ created: again.created, already: again.already_imported }).toEqual({ created: 0, already: 30 })
    expect((await accountTotals(c, accountId)).count).toBe(30)
  })
})

describe('hand-made files for what the real ones lack', () => {
  let h: Harness
  let c: Client
  beforeAll(async () => {
    h = await createHarness('embedded', 'sqlite')
    const t = await h.tenant('Quirks')
    c = h.client({ apiKey: t.key })
  })
  afterAll(async () => {
    await h?.close()
  })
  const account = async (currency: string) =>
    (await c.accounts.create({ name: `Q ${++fileNo}`, account_type: 'checking', currency_code: currency })).id
  const importText = async (text: string | Buffer, currency = 'USD', mapping: CsvMapping = {}) => {
    const p = join(tmp, `q${++fileNo}.csv`)
    writeFileSync(p, text)
    const accountId = await account(currency)
    const s = await runImport(c, p, { accountId, constants: currency === 'USD' ? {} : { exchange_rate: '0.5' }, mapping })
    return { s, stored: await accountTotals(c, accountId) }
  }

  it('parenthesised, trailing-minus and Unicode-minus negatives', async () => {
    const { s, stored } = await importText(
      'Date,Description,Amount\n2026-01-02,Fee,(12.50)\n2026-01-03,Refund,4.00\n2026-01-04,Card,7.25-\n2026-01-05,Tax,"\u22121,000.10"\n',
    )
    expect(s.rejects).toEqual([])
    expect(stored.sum).toBe(-1250 + 400 - 725 - 100010)
  })

  it('UTF-16 LE with a BOM, tab separated', async () => {
    const text = 'Datum\tOmschrijving\tBedrag\n15-01-2026\tBakkerij Ü\t-3,10\n16-01-2026\tSalaris\t1.500,00\n'
    const { s, stored } = await importText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), 'EUR')
    expect(s.notes.join(' ')).toMatch(/utf-16le/)
    expect(stored.rows.map((r) => r.description).sort()).toEqual(['Bakkerij Ü', 'Salaris'])
    expect(stored.sum).toBe(-310 + 150000)
  })

  it('a 3-decimal currency (BHD) keeps its third decimal', async () => {
    const { stored } = await importText('Date,Description,Amount\n2026-02-01,Dinner,-12.345\n2026-02-02,Refund,0.005\n', 'BHD')
    expect(stored.sum).toBe(-12345 + 5)
  })

  it('ambiguous dates are refused with the flag to give, and --date-format settles them', async () => {
    const text = 'Date,Description,Amount\n01/02/2026,A,-1.00\n03/04/2026,B,-2.00\n'
    await expect(importText(text)).rejects.toThrow(/--date-format/)
    const { stored } = await importText(text, 'USD', { dateFormat: 'MM/DD/YYYY' })
    expect(stored.rows.map((r) => r.transaction_date).sort()).toEqual(['2026-01-02', '2026-03-04'])
  })

  describe('a plan settled from the start of the file (sending starts before the whole file is read)', () => {
    // 2,500 rows: more than the 2,000 amounts the decimal mark is decided from, so the plan settles
    // before the end; the first date (25.01.) leaves DD.MM.YYYY as the only format.
    const rows = (n: number, late?: string) => {
      const out = ['Datum;Text;Betrag']
      for (let i = 0; i < n; i++)
        out.push(
          `${i === n - 10 && late ? late : `${String(25 - (i % 20)).padStart(2, '0')}.01.2024`};Row ${i};-${1 + (i % 90)},${String(i % 100).padStart(2, '0')}`,
        )
      return `${out.join('\n')}\nKontostand;;;\n`
    }

    it('imports every row, counts the footer line as skipped, and says the row count was estimated', async () => {
      const accountId = await account('USD')
      let notes: string[] = []
      let estimated: boolean | undefined
      const r = await runImport(c, csvFile(rows(2500)), { accountId }, { onPlan: (p) => ((notes = p.notes), (estimated = p.settledEarly)) })
      expect(estimated).toBe(true)
      expect(notes.join('\n')).toMatch(/dates DD\.MM\.YYYY \(detected over the first [\d,]+ rows/)
      expect({ read: r.read, created: r.created, rejected: r.rejected, skipped: r.skipped_lines }).toEqual({
        read: 2500,
        created: 2500,
        rejected: 0,
        skipped: 1,
      })
      expect((await accountTotals(c, accountId)).count).toBe(2500)
      // --atomic reads the file twice (check, then send): its footer line is still one skipped line.
      const atomic = await runImport(c, csvFile(rows(2500)), { accountId: await account('USD'), atomic: true })
      expect({ created: atomic.created, skipped: atomic.skipped_lines }).toEqual({ created: 2500, skipped: 1 })
    })

    it('a late row whose date fits the settled format no more is rejected, the rest imported; a dry run says the same', async () => {
      const accountId = await account('USD')
      // 13.25.2024 fits neither DD.MM (month 25) nor MM.DD (the first rows' month 25).
      const f = csvFile(rows(2500, '13.25.2024'))
      const dry = await runImport(c, f, { accountId, dryRun: true })
      expect({ read: dry.read, rejected: dry.rejected, created: dry.created, skipped: dry.skipped_lines }).toEqual({
        read: 2500,
        rejected: 1,
        created: 0,
        skipped: 1,
      })
      const atomic = await runImport(c, f, { accountId, atomic: true })
      expect({ rolled_back: atomic.rolled_back, rejected: atomic.rejected, skipped: atomic.skipped_lines }).toEqual({
        rolled_back: true,
        rejected: 1,
        skipped: 1,
      })
      const r = await runImport(c, f, { accountId })
      expect({ created: r.created, rejected: r.rejected, skipped: r.skipped_lines }).toEqual({ created: 2499, rejected: 1, skipped: 1 })
      expect(r.rejects[0]).toEqual({ line: 2492, reason: 'date "13.25.2024" does not fit DD.MM.YYYY' })
      expect((await accountTotals(c, accountId)).count).toBe(2499)
    })
  })

  it('debit/credit indicator with --indicator-debit', async () => {
    const { stored } = await importText('Date,Description,Amount,Type\n2026-03-01,Out,10.00,AB\n2026-03-02,In,4.00,CD\n', 'USD', {
      map: [['indicator', 'Type']],
      indicatorDebit: ['AB'],
    })
    expect(stored.sum).toBe(-1000 + 400)
  })
})
