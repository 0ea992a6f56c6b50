/**
 * `finctl tx create` in process: the record as a table or --json, the account by its name, an
 * Idempotency-Key, what is missing without a terminal (exit 2 naming the flag), an account not
 * found (exit 5), what the service refuses (exit 6 naming the flag), the implausible dates and
 * amounts kept only with --force (moved from test/e2e/plausible-input.test.ts), and the exchange
 * rate named by its flag in tx create and tx update (the other verbs:
 * test/commands/exchange-rate-words.test.ts). Its prompts on a terminal: test/e2e/tty.test.ts.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tsv } from '../../helpers/cli.js'
import type { InProcessResult, InProcessSandbox } from '../../helpers/in-process-cli.js'
import { type AccountKey, type Tx, txWorld } from './fixture.js'

/** `exchange_rate` on its own, not as part of `--set exchange_rate`. */
const bare = (r: InProcessResult) => r.stderr.replace(/--set exchange_rate/g, '').match(/exchange_rate/)

describe('tx create, in process', () => {
  let sb: InProcessSandbox
  const accounts = {} as Record<AccountKey | 'scratch', string>
  let account = ''
  const count = async () => (await sb.json<Tx[]>(['tx', 'list', '--all', '--json'])).length
  const create = (...extra: string[]) => ['tx', 'create', '--account', account, '--description', 'typo?', ...extra]

  beforeAll(async () => {
    const world = await txWorld('tx-create', { rows: false })
    sb = world.sb
    Object.assign(accounts, world.accounts)
    account = accounts.scratch
  })
  afterAll(() => sb?.cleanup())

  /** Refused with `code`, the message naming the flag, never the bare API field. */
  async function saysFlag(args: string[], message: RegExp, code = 6): Promise<InProcessResult> {
    const r = await sb.run(args)
    expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(code)
    expect(r.stderr, args.join(' ')).toMatch(message)
    expect(bare(r), `${args.join(' ')}: ${r.stderr}`).toBeNull()
    return r
  }

  it('off a terminal, a FIELD/VALUE table with the account and the tags; the id on stderr', async () => {
    const r = await sb.ok([
      'tx',
      'create',
      '--account',
      'Scratch',
      '--date',
      '2026-06-01',
      '--description',
      'Chairs',
      '--amount',
      '-349.90',
      '--category',
      'Furniture',
      '--tags',
      'office, chairs',
    ])
    const fields = Object.fromEntries(tsv(r.stdout).slice(1))
    expect(tsv(r.stdout)[0]).toEqual(['FIELD', 'VALUE'])
    expect(fields).toMatchObject({
      date: '2026-06-01',
      description: 'Chairs',
      amount: '-349.90 USD',
      category: 'Furniture',
      status: 'pending',
      account: accounts.scratch,
      tags: 'office,chairs',
    })
    expect(r.stderr).toBe(`created transaction ${fields.id}\n`)
  })

  it('--json is the created transaction; a minus sign (U+2212) is a minus', async () => {
    const t = await sb.json<Tx>([
      'tx',
      'create',
      '--account',
      accounts.scratch,
      '--date',
      '2026-06-02',
      '--description',
      'Lamp',
      '--amount',
      '\u221245.00',
      '--merchant-name',
      'Lights Ltd',
      '--accounting-category',
      'operating_expenses',
      '--json',
    ])
    expect(t).toMatchObject({
      transaction_date: '2026-06-02',
      description: 'Lamp',
      amount: -45,
      currency_code: 'USD',
      merchant_name: 'Lights Ltd',
      accounting_category: 'operating_expenses',
      bank_account_id: accounts.scratch,
      tags: [],
    })
  })

  it('--idempotency-key: the same request again gives the same transaction; another request with it is refused (exit 6)', async () => {
    const args = ['tx', 'create', '--account', account, '--date', '2026-06-03', '--description', 'Once', '--amount', '1', '--json']
    const before = await count()
    const first = await sb.json<Tx>([...args, '--idempotency-key', 'key-once'])
    const again = await sb.json<Tx>([...args, '--idempotency-key', 'key-once'])
    expect(again.id).toBe(first.id)
    expect(await count()).toBe(before + 1)
    const conflict = await sb.run([
      'tx',
      'create',
      '--account',
      account,
      '--date',
      '2026-06-04',
      '--description',
      'Once',
      '--amount',
      '1',
      '--idempotency-key',
      'key-once',
    ])
    expect(conflict.code).toBe(6)
    expect(conflict.stderr).toContain('this Idempotency-Key was already used with a different request')
  })

  it('without a terminal, what is missing is a usage error naming its flag (exit 2), and nothing is created', async () => {
    const before = await count()
    const full = { '--account': account, '--date': '2026-06-05', '--description': 'Missing', '--amount': '-1.00' }
    const cases: Array<[keyof typeof full, string]> = [
      ['--account', 'the bank account is required: give --account'],
      ['--date', 'the transaction date is required: give --date'],
      ['--description', 'a description is required: give --description'],
      ['--amount', 'the amount is required: give --amount'],
    ]
    for (const [left, message] of cases) {
      const args = Object.entries(full).flatMap(([flag, value]) => (flag === left ? [] : [flag, value]))
      const r = await sb.run(['tx', 'create', ...args])
      expect(r.code, left).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toBe(`error: ${message}\n`)
    }
    expect(await count()).toBe(before)
  })

  it('an account not found: by name or by id (exit 5, naming --account)', async () => {
    const named = await sb.run(['tx', 'create', '--account', 'Nope', '--date', '2026-06-01', '--description', 'x', '--amount', '1'])
    expect(named.code).toBe(5)
    expect(named.stderr).toContain('--account: no bank account is named "Nope"')
    const id = await sb.run(['tx', 'create', '--account', randomUUID(), '--date', '2026-06-01', '--description', 'x', '--amount', '1'])
    expect(id.code).toBe(5)
    expect(id.stderr).toContain('--account: no such bank account')
  })

  it('what the service refuses names the flag (exit 6)', async () => {
    const base = ['tx', 'create', '--account', account, '--date', '2026-06-01', '--description', 'x']
    const decimals = await sb.run([...base, '--amount', '1.234'])
    expect(decimals.code).toBe(6)
    expect(decimals.stderr).toBe('error: --amount at most 2 decimal places for this currency (USD)\n')
    const category = await sb.run([...base, '--amount', '1', '--accounting-category', 'bogus'])
    // A value of an enumeration is judged before any request: exit 2, the value named.
    expect(category.code).toBe(2)
    expect(category.stderr).toMatch(/^error: --accounting-category bogus: not one of revenue, /)
    const rate = await sb.run([...base, '--amount', '1', '--currency', 'eur'])
    expect(rate.code).toBe(6)
    expect(rate.stderr).toMatch(/^error: --exchange-rate is required for EUR on 2026-06-01/)
  })

  it('refuses a date far in the future or the past and an amount of 0, naming the flag and --force', async () => {
    const before = await count()
    for (const [args, message] of [
      [
        create('--date', '9999-12-31', '--amount', '5'),
        /^error: --date is 9999-12-31, outside the dates this service accepts \(1970-01-01 to \d{4}-\d{2}-\d{2}\): check it, or give --force to keep it$/m,
      ],
      [create('--date', '1900-01-01', '--amount', '5'), /^error: --date is 1900-01-01, outside/m],
      [create('--date', '2026-01-02', '--posted-date', '2999-01-01', '--amount', '5'), /^error: --posted-date is 2999-01-01, outside/m],
      [
        create('--date', '2026-01-02', '--amount', '0.00'),
        /^error: --amount is 0, which moves no money: check it, or give --force to record it$/m,
      ],
    ] as const) {
      const r = await sb.run([...args])
      expect(r.code, args.join(' ')).toBe(6)
      expect(r.stderr).toMatch(message)
    }
    expect(await count()).toBe(before)
  })

  it('--force keeps them, and the 9999 row then heads the list as the user asked', async () => {
    const far = await sb.json<Tx>([...create('--date', '9999-12-31', '--amount', '5', '--force'), '--json'])
    expect(far.transaction_date).toBe('9999-12-31')
    expect((await sb.json<Tx>([...create('--date', '2026-01-03', '--amount', '0', '--force'), '--json'])).amount).toBe(0)
    expect((await sb.json<Tx[]>(['tx', 'list', '--limit', '1', '--json']))[0].id).toBe(far.id)
  })

  it('tx create and tx update say --exchange-rate', async () => {
    const usdTx = (
      await sb.json<Tx>([
        'tx',
        'create',
        '--account',
        account,
        '--date',
        '2026-01-05',
        '--amount',
        '-4.50',
        '--description',
        'Coffee',
        '--json',
      ])
    ).id
    const create = ['tx', 'create', '--account', account, '--date', '2026-02-03', '--amount', '5', '--description', 'x']
    await saysFlag(
      [...create, '--currency', 'EUR'],
      /^error: --exchange-rate is required for EUR on 2026-02-03: the company's rates to USD have none for that day or the 7 days before; import rates with `finctl rates import FILE` \(or set one with finctl rates set\), or give --exchange-rate$/m,
    )
    await saysFlag(
      [...create, '--currency', 'EUR', '--exchange-rate', 'abc'],
      /^error: --exchange-rate must be a positive decimal number$/m,
    )
    await saysFlag([...create, '--exchange-rate', '2'], /^error: --exchange-rate must be 1 for the base currency USD$/m)
    await saysFlag(
      ['tx', 'update', usdTx, '--currency', 'EUR'],
      /^error: --exchange-rate is required for EUR on 2026-01-05: .*`finctl rates import FILE`.*or give --exchange-rate$/m,
    )
    await saysFlag(['tx', 'update', usdTx, '--exchange-rate', 'abc'], /^error: --exchange-rate must be a positive decimal number$/m)
  })
})
