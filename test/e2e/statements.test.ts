/**
 * End-to-end: `finctl statements upload | list | get | transactions` of the built CLI on real bank
 * files (the bank-file corpus, test/helpers/bank-files.ts; skipped when it is missing), in its own
 * FINCTL_CONFIG_DIR, without a terminal: the upload waits for processing (the embedded process
 * must not exit before), --preview uploads nothing, a failed statement exits 6.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bankFile, HAS_BANK_FILES } from '../helpers/bank-files.js'
import { Sandbox, fastKey, tsv, withServe } from '../helpers/cli.js'

const ABNAMRO = bankFile('mt940/nl-abnamro-two-statements-swift-header.sta')
const CAMT = bankFile('camt053/v02-two-statements-one-file.xml')
const UBS = bankFile('csv/ch-ubs-fr-semicolon-debit-credit-apostrophe-thousands.csv')

interface Statement {
  id: string
  bank_account_id: string
  file_name: string
  format: string
  status: string
  balance_check: string | null
  line_count: number
  transaction_count: number
  duplicate_count: number
  matched_count: number
  period_start: string | null
  period_end: string | null
  opening_balance: number | null
  closing_balance: number | null
  error: string | null
}

/** Sum of JSON amounts of one currency with 2 decimals, in cents (exact: each amount is read from its text). */
const cents = (amounts: number[]) => amounts.reduce((s, a) => s + Math.round(Number(a.toFixed(2)) * 100), 0)

describe.skipIf(!HAS_BANK_FILES)('statements end to end', () => {
  let sb: Sandbox
  const account = async (currency = 'EUR') =>
    (await sb.json(['accounts', 'create', '--name', `S${Math.random()}`, '--type', 'checking', '--currency', currency, '--json']))
      .id as string

  beforeAll(async () => {
    sb = new Sandbox('statements')
    await sb.ok(['init', '--no-input', '--currency', 'EUR'])
    await fastKey(sb)
  })
  afterAll(() => sb?.cleanup())

  it('uploads a real file, waits for it and prints the statement as JSON; get, list and transactions show it', async () => {
    const acct = await account()
    const r = await sb.run(['statements', 'upload', CAMT, '--account', acct, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const s = JSON.parse(r.stdout) as Statement
    expect(s).toMatchObject({
      bank_account_id: acct,
      file_name: 'v02-two-statements-one-file.xml',
      format: 'camt053',
      status: 'completed',
      line_count: 2,
      transaction_count: 2,
      duplicate_count: 0,
      matched_count: 0,
      balance_check: 'ok',
      opening_balance: 18.15,
      closing_balance: 20,
      error: null,
    })
    expect(await sb.json(['statements', 'get', s.id, '--json'])).toEqual(s)
    const txs = await sb.json<Array<{ amount: number; bank_statement_id: string; status: string }>>([
      'statements',
      'transactions',
      s.id,
      '--json',
    ])
    expect(txs).toHaveLength(2)
    expect(cents(txs.map((t) => t.amount))).toBe(185)
    expect(txs.every((t) => t.bank_statement_id === s.id && t.status === 'posted')).toBe(true)

    // Off a terminal: tab-separated rows with a header line.
    const list = tsv((await sb.ok(['statements', 'list', '--account', acct])).stdout)
    expect(list[0]).toEqual([
      'ID',
      'UPLOADED',
      'FILE',
      'FORMAT',
      'STATUS',
      'PERIOD',
      'LINES',
      'CREATED',
      'RECONCILED',
      'DUPLICATES',
      'BALANCE',
    ])
    expect(list.slice(1).map((row) => [row[0], row[4], row[6], row[10]])).toEqual([[s.id, 'completed', '2', 'ok']])
    const table = tsv((await sb.ok(['statements', 'get', s.id])).stdout)
    expect(table).toContainEqual(['balance check', 'ok'])
    expect(table).toContainEqual(['opening balance', '18.15 EUR'])

    // The same file again: refused (409), exit 6, naming the first statement.
    const again = await sb.run(['statements', 'upload', CAMT, '--account', acct])
    expect(again.code).toBe(6)
    expect(again.stderr).toContain(s.id)
    expect(again.stdout).toBe('')
  })

  it('prints a readable summary on stdout and notes on stderr without --json', async () => {
    const acct = await account()
    const r = await sb.ok(['statements', 'upload', ABNAMRO, '--account', acct])
    const rows = tsv(r.stdout)
    expect(rows[0]).toEqual(['FIELD', 'VALUE'])
    expect(rows).toContainEqual(['status', 'completed'])
    expect(rows).toContainEqual(['created', '10'])
    expect(rows).toContainEqual(['balance check', 'mismatch'])
    expect(r.stderr).toMatch(/10 transactions created, 0 reconciled, 0 already imported; balance check mismatch/)
    // No spinner or escape codes off a terminal.
    expect(r.stderr).not.toContain('\x1b[')
  })

  it('--preview parses here and shows what would be created, uploading nothing', async () => {
    const acct = await account()
    const r = await sb.ok(['statements', 'upload', ABNAMRO, '--account', acct, '--preview'])
    const rows = tsv(r.stdout)
    expect(rows[0]).toEqual(['DATE', 'DESCRIPTION', 'AMOUNT', 'MERCHANT', 'BANK ID'])
    expect(rows.slice(1)).toHaveLength(10)
    expect(rows.slice(1).every((row) => /^-\d+\.\d{2} EUR$/.test(row[2]))).toBe(true)
    expect(r.stderr).toContain('nothing was uploaded')
    expect(r.stderr).toContain('10 lines, sum -345.93 EUR')
    expect(r.stderr).toContain('balance check mismatch')
    const j = await sb.json(['statements', 'upload', ABNAMRO, '--account', acct, '--preview', '--json'])
    // Amounts are JSON numbers (#47), and the lines add up to the sum exactly.
    expect(j).toMatchObject({ format: 'mt940', line_count: 10, sum: -345.93, balance_check: 'mismatch', currency_code: 'EUR' })
    expect(j.lines).toHaveLength(10)
    const lines = j.lines as Array<{ amount: unknown }>
    expect(lines.every((l) => typeof l.amount === 'number')).toBe(true)
    expect(lines.reduce((n, l) => n + Math.round((l.amount as number) * 100), 0)).toBe(-34593)
    expect([typeof j.opening_balance, typeof j.closing_balance]).toEqual(['number', 'number'])
    // Nothing reached the service.
    expect(await sb.json(['statements', 'list', '--account', acct, '--json'])).toEqual([])
    expect(await sb.json(['accounts', 'transactions', acct, '--json'])).toEqual([])
  })

  it('maps a CSV with --map and converts with --exchange-rate', async () => {
    const chf = await account('CHF')
    // No --exchange-rate and no CHF rates for its dates (finctl rates): the statement fails, saying both ways out.
    const noRate = await sb.run(['statements', 'upload', UBS, '--account', chf, '--map', 'description=Description 1'])
    expect(noRate.code).toBe(6)
    expect(noRate.stderr).toContain('--exchange-rate')
    expect(noRate.stderr).toContain('finctl rates import FILE')
    expect(noRate.stderr).not.toContain('exchange_rate')
    const s = await sb.json<Statement>([
      'statements',
      'upload',
      UBS,
      '--account',
      chf,
      '--map',
      'description=Description 1',
      '--exchange-rate',
      '1.05',
      '--json',
    ])
    expect(s).toMatchObject({ status: 'completed', format: 'csv', transaction_count: 3, balance_check: 'unavailable' })
    const txs = await sb.json<Array<{ amount: number; exchange_rate: number }>>(['statements', 'transactions', s.id, '--json'])
    expect(cents(txs.map((t) => t.amount))).toBe(3000)
    expect(txs.every((t) => t.exchange_rate === 1.05)).toBe(true)
  })

  it('exits 6 with the reason on stderr when the statement fails, and prints it', async () => {
    const acct = await account()
    const cut = join(sb.dir, 'cut.xml')
    const whole = readFileSync(bankFile('camt053/ch-v04-one-entry-two-txdtls.xml'))
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)))
    const r = await sb.run(['statements', 'upload', cut, '--account', acct, '--format', 'camt053'])
    expect(r.code).toBe(6)
    expect(r.stderr).toMatch(/^error: statement [0-9a-f-]{36} failed: .*(truncated|not well-formed).*line \d+/m)
    expect(tsv(r.stdout)).toContainEqual(['status', 'failed'])
    const j = await sb.run(['statements', 'upload', cut, '--account', acct, '--format', 'camt053', '--json'])
    expect(j.code).toBe(6)
    const printed = JSON.parse(j.stdout) as Statement
    expect(printed.status).toBe('failed')
    expect(JSON.parse(j.stderr)).toMatchObject({ code: 'statement_failed', statement_id: printed.id })
    const failed = await sb.json<Statement[]>(['statements', 'list', '--account', acct, '--status', 'failed', '--json'])
    expect(failed.map((x) => x.id)).toContain(printed.id)
    expect(await sb.json(['accounts', 'transactions', acct, '--json'])).toEqual([])
    // Usage errors: no account, no file.
    expect((await sb.run(['statements', 'upload', CAMT])).code).toBe(2)
    expect((await sb.run(['statements', 'upload', join(sb.dir, 'missing.sta'), '--account', acct])).code).toBe(2)
  })

  it('a file of several accounts names the flag that chooses one, and that flag imports it', async () => {
    const acct = await account()
    const file = bankFile('mt940/de-sepa-86-structured-subfields.sta')
    const r = await sb.run(['statements', 'upload', file, '--account', acct])
    expect(r.code).toBe(6)
    expect(r.stderr).toMatch(
      /^error: statement [0-9a-f-]{36} failed: the file holds statements of 2 accounts .*: give --statement-account NUMBER to choose one\n$/,
    )
    // The service's own wording (its upload field) stays in the statement itself.
    expect(tsv(r.stdout).find((row) => row[0] === 'error')?.[1]).toMatch(/give account_number to choose one$/)
    const chosen = await sb.json<Statement>([
      'statements',
      'upload',
      file,
      '--account',
      acct,
      '--statement-account',
      '0194791600888',
      '--json',
    ])
    expect([chosen.status, chosen.line_count]).toEqual(['completed', 7])
  })

  it('works the same against finctl serve (the upload polls over HTTP)', async () => {
    const acct = await account()
    const key = sb.profiles().profiles.local.api_key!
    const s = await withServe(sb, async (server) => {
      const r = await sb.run(['statements', 'upload', ABNAMRO, '--account', acct, '--json'], {
        env: { FINCTL_BASE_URL: server.url, FINCTL_API_KEY: key },
      })
      expect(r.code, r.stderr).toBe(0)
      return JSON.parse(r.stdout) as Statement
    })
    expect(s).toMatchObject({ status: 'completed', transaction_count: 10, balance_check: 'mismatch' })
    expect(await sb.json(['statements', 'get', s.id, '--json'])).toEqual(s)
  })
})
