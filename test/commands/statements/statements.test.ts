/**
 * `finctl statements upload | list | get | transactions` in process (test/helpers/in-process-cli.ts)
 * on real bank files (the bank-file corpus, test/helpers/bank-files.ts; skipped when it is missing)
 * and hand-made ones: tables and --json, --preview uploads nothing, --map and --exchange-rate, a
 * failed statement exits 6, usage errors exit 2 naming the flag, a statement not found exits 5; get says whether the original file is kept.
 * Moved from test/e2e/statements.test.ts, which keeps the waiting process and `finctl serve`.
 */
import Database from 'better-sqlite3'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bankFile, HAS_BANK_FILES } from '../../helpers/bank-files.js'
import { tsv } from '../../helpers/cli.js'
import { InProcessSandbox, fastKey } from '../../helpers/in-process-cli.js'

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

describe.skipIf(!HAS_BANK_FILES)('statements, in process', () => {
  let sb: InProcessSandbox
  const account = async (currency = 'EUR') =>
    (await sb.json(['accounts', 'create', '--name', `S${Math.random()}`, '--type', 'checking', '--currency', currency, '--json']))
      .id as string

  beforeAll(async () => {
    sb = new InProcessSandbox('statements')
    await sb.ok(['init', '--no-input', '--currency', 'EUR'])
    await fastKey(sb)
  })
  afterAll(() => sb?.cleanup())

  it('prints a readable summary on stdout and notes on stderr without --json', async () => {
    const acct = await account()
    // Its balances do not add up: exit 6, the difference named, the lines imported.
    const r = await sb.run(['statements', 'upload', ABNAMRO, '--account', acct])
    expect(r.code, r.stderr).toBe(6)
    expect(r.stderr).toMatch(
      /^error: statement [0-9a-f-]{36}: balance check mismatch: .* a difference of -?[\d,]+\.\d{2} EUR; its 10 lines are imported/m,
    )
    const rows = tsv(r.stdout)
    expect(rows[0]).toEqual(['FIELD', 'VALUE'])
    expect(rows).toContainEqual(['status', 'completed'])
    expect(rows).toContainEqual(['created', '10'])
    expect(rows).toContainEqual(['balance check', 'mismatch'])
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
    // Amounts are JSON numbers, and the lines add up to the sum exactly.
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
    // Its balance column follows every line: the statement's opening and closing balances, checked.
    expect(s).toMatchObject({ status: 'completed', format: 'csv', transaction_count: 3, balance_check: 'ok' })
    const txs = await sb.json<Array<{ amount: number; exchange_rate: number }>>(['statements', 'transactions', s.id, '--json'])
    expect(cents(txs.map((t) => t.amount))).toBe(3000)
    expect(txs.every((t) => t.exchange_rate === 1.05)).toBe(true)
    // The upload is an import batch too: --json names it, `imports show` reads the statement's counts.
    const batch = await sb.json(['imports', 'show', (s as Statement & { batch_id: string }).batch_id, '--json'])
    expect(batch).toMatchObject({ kind: 'statement', statement_id: s.id, state: 'completed', counts: { created: 3, existing: 0 } })
    expect(batch.options).toMatchObject({ format: 'csv', exchangeRate: expect.anything() })
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
    // Its balances do not add up (exit 6); the statement is imported all the same.
    const picked = await sb.run(['statements', 'upload', file, '--account', acct, '--statement-account', '0194791600888', '--json'])
    expect(picked.stderr).toContain('balance_mismatch')
    const chosen = JSON.parse(picked.stdout) as Statement
    expect([chosen.status, chosen.line_count]).toEqual(['completed', 7])
  })

  it('--no-wait prints the pending statement; get, list and transactions find it; an id not there is exit 5', async () => {
    const acct = await account()
    const pending = await sb.ok(['statements', 'upload', CAMT, '--account', acct, '--no-wait', '--json'])
    const s = JSON.parse(pending.stdout) as Statement
    expect(s.status).toMatch(/^(pending|processing|completed)$/)
    expect(pending.stderr).toContain(`follow it with \`finctl statements get ${s.id}\``)
    expect((await sb.json<Statement>(['statements', 'get', s.id, '--json'])).id).toBe(s.id)
    expect((await sb.json<Statement[]>(['statements', 'list', '--account', acct, '--json'])).map((x) => x.id)).toEqual([s.id])
    const gone = '00000000-0000-4000-8000-000000000000'
    for (const args of [
      ['statements', 'get', gone],
      ['statements', 'transactions', gone],
    ]) {
      const r = await sb.run(args)
      expect(r.code, args.join(' ')).toBe(5)
      expect(r.stdout).toBe('')
    }
  })

  it('get says whether the original file is kept and how to get it: table and --json; one not kept says why', async () => {
    const acct = await account()
    const s = await sb.json<Statement & { file_sha256: string }>(['statements', 'upload', CAMT, '--account', acct, '--json'])
    const size = readFileSync(CAMT).length
    expect(await sb.json(['statements', 'get', s.id, '--json'])).toMatchObject({
      file_kept: true,
      file_note: null,
      file_sha256: s.file_sha256,
      file_size: size,
    })
    const rows = tsv((await sb.ok(['statements', 'get', s.id])).stdout)
    expect(rows).toContainEqual(['original', `kept, sha256:${s.file_sha256}: finctl statements file ${s.id} -o FILE`])
    // As a database of before finctl kept files holds it.
    const db = new Database(sb.database)
    db.prepare('DELETE FROM statement_files WHERE sha256 = ?').run(s.file_sha256)
    db.close()
    const gone = await sb.json(['statements', 'get', s.id, '--json'])
    expect(gone).toMatchObject({ file_kept: false, file_note: expect.stringContaining("before finctl kept statements' files") })
    const after = tsv((await sb.ok(['statements', 'get', s.id])).stdout)
    expect(after).toContainEqual(['original', `${gone.file_note} (sha256:${s.file_sha256})`])
  })

  it('usage errors name the flag and exit 2, uploading nothing', async () => {
    const acct = await account()
    const cases: Array<[string[], string]> = [
      [['statements', 'upload', CAMT], 'give --account ID'],
      [['statements', 'upload', CAMT, '--account', acct, '--format', 'pdf'], '--format pdf: not one of csv, ofx'],
      [['statements', 'upload', UBS, '--account', acct, '--skip-lines', 'two'], '--skip-lines must be a whole number'],
      [['statements', 'upload', CAMT, '--account', acct, '--delimiter', ';'], '--delimiter'],
      [
        ['statements', 'upload', UBS, '--account', acct, '--date-format', 'DD/MM'],
        'error: --date-format "DD/MM": a date needs a day, a month and a year; for example DD/MM/YYYY reads 24/03/2022\n',
      ],
      [['statements', 'list', '--limit', '0'], '--limit must be a whole number from 1 to 1000'],
      [['statements', 'transactions', acct, '--limit', 'x'], '--limit must be a whole number from 1 to 1000'],
    ]
    for (const [args, message] of cases) {
      const r = await sb.run(args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr).toContain(message)
      expect(r.stdout).toBe('')
    }
    expect(await sb.json(['statements', 'list', '--account', acct, '--json'])).toEqual([])
  })
})
