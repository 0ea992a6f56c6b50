/**
 * `finctl accounts list | get | create | update | delete | transactions` in process
 * (test/helpers/in-process-cli.ts), and `finctl categories` and `finctl company` over the same rows:
 * tables and --json, the filters of tx list, usage errors (exit 2, the flag named), accounts not
 * found (exit 5), refusals of the service (exit 6). Accounts and transactions are set up through the
 * service's endpoints (`finctl api`, one batch request).
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tsv } from '../../helpers/cli.js'
import { callApi } from '../../helpers/in-process-api.js'
import { InProcessSandbox, fastKey } from '../../helpers/in-process-cli.js'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

interface Tx {
  id: string
  transaction_date: string
  description: string
  amount: number
  status: string
  is_reconciled: boolean
  bank_account_id: string
}

interface Row {
  account: 'operating' | 'reserve'
  date: string
  description: string
  amount: string
  category?: string
  accounting_category?: string
  cash_flow_category?: string
  tags?: string[]
}

// Operating: rows 0-8; Reserve: rows 9-10. Row 7 becomes void, rows 0, 1 and 3 posted, row 1 reconciled.
const ROWS: Row[] = [
  {
    account: 'operating',
    date: '2026-03-01',
    description: 'Rent March',
    amount: '-1500.00',
    category: 'Rent',
    accounting_category: 'operating_expenses',
    cash_flow_category: 'operations',
  },
  {
    account: 'operating',
    date: '2026-03-05',
    description: 'Invoice 1001',
    amount: '2400.00',
    category: 'Sales',
    accounting_category: 'revenue',
    cash_flow_category: 'operations',
  },
  {
    account: 'operating',
    date: '2026-03-10',
    description: 'Invoice 1002',
    amount: '1200.50',
    category: 'Sales',
    accounting_category: 'revenue',
    cash_flow_category: 'operations',
  },
  {
    account: 'operating',
    date: '2026-03-12',
    description: 'Laptop',
    amount: '-1899.99',
    category: 'Equipment',
    accounting_category: 'capital_expenditure',
    cash_flow_category: 'investing',
  },
  {
    account: 'operating',
    date: '2026-03-15',
    description: 'SaaS tools',
    amount: '-49.99',
    category: 'Software',
    accounting_category: 'operating_expenses',
    cash_flow_category: 'operations',
    tags: ['monthly'],
  },
  {
    account: 'operating',
    date: '2026-03-20',
    description: 'GPU credits',
    amount: '-300.00',
    category: 'Software',
    accounting_category: 'cost_of_goods_sold',
    cash_flow_category: 'operations',
  },
  {
    account: 'operating',
    date: '2026-04-01',
    description: 'Rent April',
    amount: '-1500.00',
    category: 'Rent',
    accounting_category: 'operating_expenses',
    cash_flow_category: 'operations',
  },
  { account: 'operating', date: '2026-04-02', description: 'Bank fee', amount: '-12.00' },
  {
    account: 'operating',
    date: '2026-04-03',
    description: 'SaaS tools',
    amount: '-49.99',
    category: 'Software',
    accounting_category: 'operating_expenses',
    cash_flow_category: 'operations',
  },
  {
    account: 'reserve',
    date: '2026-03-31',
    description: 'Interest',
    amount: '3.21',
    category: 'Interest',
    accounting_category: 'other_income',
    cash_flow_category: 'operations',
  },
  {
    account: 'reserve',
    date: '2026-03-02',
    description: 'Transfer in',
    amount: '5000.00',
    category: 'Transfer',
    accounting_category: 'transfer',
    cash_flow_category: 'transfer',
  },
]
const VOID = 7
const POSTED = [0, 1, 3]
const RECONCILED = 1

describe('accounts, categories, company, in process', () => {
  let sb: InProcessSandbox
  let companyId: string
  const acc = {} as Record<'operating' | 'reserve' | 'empty', string>
  let ids: string[]
  /** Ids of ROWS by index, in the service's default order (newest date first). */
  const newest = (rows: number[]) => [...rows].sort((a, b) => (ROWS[a].date < ROWS[b].date ? 1 : -1)).map((i) => ids[i])
  const OPERATING = [0, 1, 2, 3, 4, 5, 6, 7, 8]

  beforeAll(async () => {
    sb = new InProcessSandbox('accounts')
    await sb.ok(['init', '--company', 'Tally Test Co', '--currency', 'USD', '--password-stdin', '--no-input'], {
      input: 'password-for-accounts\n',
    })
    sb.remember(sb.profiles().profiles.local.api_key)
    companyId = (sb.profiles().profiles.local as { company_id?: string }).company_id!
    await fastKey(sb)
    const accounts = [
      [
        'operating',
        {
          name: 'Operating',
          account_type: 'checking',
          currency_code: 'USD',
          institution_name: 'First Bank',
          account_number: '1234-5678',
          opening_balance: '1000.00',
        },
      ],
      ['reserve', { name: 'Reserve', account_type: 'savings', currency_code: 'USD' }],
      ['empty', { name: 'Petty cash', account_type: 'cash', currency_code: 'USD' }],
    ] as const
    for (const [k, body] of accounts) {
      const r = await callApi(sb, 'POST', '/api-v1/bank-accounts', body)
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      acc[k] = r.body.data.id
    }
    const batch = await callApi(sb, 'POST', '/api-v1/transactions/batch', {
      transactions: ROWS.map(({ account, date, ...rest }) => ({ bank_account_id: acc[account], transaction_date: date, ...rest })),
    })
    expect(batch.status, JSON.stringify(batch.body)).toBe(201)
    expect(batch.body.data.errors).toEqual([])
    const created = (batch.body.data.created as Tx[]).map((t) => t.id)
    expect(created).toHaveLength(ROWS.length)
    for (const [rows, patch] of [
      [POSTED, { status: 'posted' }],
      [[VOID], { status: 'void' }],
      [[RECONCILED], { is_reconciled: true }],
    ] as const) {
      for (const i of rows) {
        const r = await callApi(sb, 'PATCH', `/api-v1/transactions/${created[i]}`, patch)
        expect(r.status, JSON.stringify(r.body)).toBe(200)
      }
    }
    ids = created
  })
  afterAll(() => sb?.cleanup())

  describe('accounts list', () => {
    it('a table row per account with its balance; --type and --status filter; --json the same accounts', async () => {
      const [header, ...rows] = tsv((await sb.ok(['accounts', 'list'])).stdout)
      expect(header).toEqual(['ID', 'NAME', 'TYPE', 'INSTITUTION', 'NUMBER', 'STATUS', 'BALANCE'])
      expect(rows.map((r) => [r[1], r[2], r[6]]).sort()).toEqual([
        ['Operating', 'checking', '-699.47 USD'],
        ['Petty cash', 'cash', '0.00 USD'],
        ['Reserve', 'savings', '5003.21 USD'],
      ])
      expect(rows.find((r) => r[1] === 'Operating')?.slice(3, 5)).toEqual(['First Bank', '…5678'])
      const savings = await sb.json<Array<{ id: string }>>(['accounts', 'list', '--type', 'savings', '--json'])
      expect(savings.map((a) => a.id)).toEqual([acc.reserve])
      expect(await sb.json(['accounts', 'list', '--status', 'closed', '--json'])).toEqual([])
    })

    it('a status or a type that is none: exit 2 naming the flag and the value, before any request', async () => {
      const status = await sb.run(['accounts', 'list', '--status', 'bogus'])
      expect(status.code).toBe(2)
      expect(status.stderr).toBe('error: --status bogus: not one of active, inactive, closed\n')
      const type = await sb.run(['accounts', 'list', '--type', 'bogus'])
      expect(type.code).toBe(2)
      expect(type.stderr).toContain('--type bogus')
      expect(type.stdout).toBe('')
    })
  })

  describe('accounts get and update', () => {
    it('accounts get --json: the account, its last 4 digits only, and a balance without the void row', async () => {
      const a = await sb.json(['accounts', 'get', acc.operating, '--json'])
      // 1000.00 + 2400.00 + 1200.50 - 1500.00 - 1899.99 - 49.99 - 300.00 - 1500.00 - 49.99 (the -12.00 fee is void)
      expect(a).toMatchObject({
        id: acc.operating,
        name: 'Operating',
        institution_name: 'First Bank',
        account_type: 'checking',
        account_number_last4: '5678',
        currency_code: 'USD',
        status: 'active',
        opening_balance: 1000,
        current_balance: -699.47,
      })
      // Not the rest of the number anywhere (the id is left out: a random UUID may hold 1234).
      const { id: _id, ...shown } = a as Record<string, unknown>
      expect(JSON.stringify(shown)).not.toContain('1234')
      expect(a.created_at).toMatch(ISO)
      const [r, table] = await Promise.all([sb.json(['accounts', 'get', acc.reserve, '--json']), sb.ok(['accounts', 'get', acc.operating])])
      expect(r).toMatchObject({
        name: 'Reserve',
        opening_balance: 0,
        current_balance: 5003.21,
        institution_name: null,
        account_number_last4: null,
      })
      // Off a terminal without --json: a FIELD/VALUE table, balances in fixed decimals as accounts list shows them.
      const [header, ...rows] = tsv(table.stdout)
      expect(header).toEqual(['FIELD', 'VALUE'])
      expect(Object.fromEntries(rows)).toMatchObject({
        id: acc.operating,
        name: 'Operating',
        opening_balance: '1000.00 USD',
        current_balance: '-699.47 USD',
      })
    })

    it('accounts get of an unknown id exits 5', async () => {
      const r = await sb.run(['accounts', 'get', randomUUID()])
      expect(r.code).toBe(5)
      expect(r.stdout).toBe('')
    })

    it('accounts get NAME: an account by its name in any case; an unknown name exits 5 naming ID', async () => {
      expect((await sb.json(['accounts', 'get', 'petty CASH', '--json'])).id).toBe(acc.empty)
      const r = await sb.run(['accounts', 'get', 'Savings'])
      expect(r.code).toBe(5)
      expect(r.stderr).toBe('error: ID: no bank account is named "Savings" (see finctl accounts list; an id needs 6+ hex digits)\n')
      expect(r.stdout).toBe('')
    })

    it('accounts update --name and --status change only those fields', async () => {
      const renamed = await sb.run(['accounts', 'update', acc.operating, '--name', 'Operating (main)', '--json'])
      expect(renamed.code, renamed.stderr).toBe(0)
      expect(renamed.stderr).toContain(`updated bank account ${acc.operating}`)
      expect(JSON.parse(renamed.stdout)).toMatchObject({
        id: acc.operating,
        name: 'Operating (main)',
        status: 'active',
        institution_name: 'First Bank',
        current_balance: -699.47,
      })

      expect(await sb.json(['accounts', 'update', acc.reserve, '--status', 'inactive', '--json'])).toMatchObject({
        name: 'Reserve',
        status: 'inactive',
      })
      const [inactive, active, got] = await Promise.all([
        sb.json<Array<{ id: string }>>(['accounts', 'list', '--status', 'inactive', '--json']),
        sb.json<Array<{ id: string }>>(['accounts', 'list', '--status', 'active', '--json']),
        sb.json(['accounts', 'get', acc.operating, '--json']),
      ])
      expect(inactive.map((a) => a.id)).toEqual([acc.reserve])
      expect(active.map((a) => a.id).sort()).toEqual([acc.operating, acc.empty].sort())
      expect(got.name).toBe('Operating (main)')
    })

    it('an account name another account of the company has is refused on create and on rename (exit 6), whatever its case', async () => {
      const created = await sb.run(['accounts', 'create', '--name', '  reserve ', '--type', 'savings', '--currency', 'USD'])
      expect(created.code, created.stderr).toBe(6)
      expect(created.stderr).toContain(`a bank account named "Reserve" already exists (${acc.reserve})`)
      const renamed = await sb.run(['accounts', 'update', acc.empty, '--name', 'RESERVE'])
      expect(renamed.code, renamed.stderr).toBe(6)
      // renaming an account to its own name (another case) is no clash
      expect((await sb.json(['accounts', 'update', acc.reserve, '--name', 'Reserve', '--json'])).name).toBe('Reserve')
      const names = (await sb.json<Array<{ name: string }>>(['accounts', 'list', '--json'])).map((a) => a.name.toLowerCase())
      expect(new Set(names).size).toBe(names.length)
    })

    it('accounts update: no field exits 2, an unknown id 5, a bad status 2', async () => {
      const [none, unknown, bad] = await Promise.all([
        sb.run(['accounts', 'update', acc.operating]),
        sb.run(['accounts', 'update', randomUUID(), '--name', 'X']),
        sb.run(['accounts', 'update', acc.operating, '--status', 'bogus']),
      ])
      expect(none.code).toBe(2)
      expect(none.stderr).toContain('nothing to change')
      expect(unknown.code).toBe(5)
      expect(bad.code).toBe(2)
      expect(bad.stderr).toContain('--status bogus: not one of active, inactive, closed')
      expect((await sb.json(['accounts', 'get', acc.operating, '--json'])).status).toBe('active')
    })
  })

  describe('accounts transactions', () => {
    it('--json lists only that account’s rows, newest first', async () => {
      const [op, res] = await Promise.all([
        sb.json<Tx[]>(['accounts', 'transactions', acc.operating, '--json']),
        sb.json<Tx[]>(['accounts', 'transactions', acc.reserve, '--json']),
      ])
      expect(op.map((t) => t.id)).toEqual(newest(OPERATING))
      expect(op.every((t) => t.bank_account_id === acc.operating)).toBe(true)
      expect(res.map((t) => t.id)).toEqual(newest([9, 10]))
      const all = await sb.json<Tx[]>(['tx', 'list', '--json'])
      expect(all).toHaveLength(ROWS.length)
    })

    it('takes the filters of tx list', async () => {
      const cases: Array<[string[], number[]]> = [
        [
          ['--category', 'Software'],
          [4, 5, 8],
        ],
        [
          ['--from', '2026-03-10', '--to', '2026-03-20'],
          [2, 3, 4, 5],
        ],
        [
          ['--min-amount', '-100', '--max-amount', '1200.50'],
          [2, 4, 7, 8],
        ],
        [['--status', 'posted'], POSTED],
        [['--status', 'void'], [VOID]],
        [['--reconciled'], [RECONCILED]],
        [['--unreconciled'], OPERATING.filter((i) => i !== RECONCILED)],
        [
          ['--search', 'SaaS'],
          [4, 8],
        ],
        [['--tag', 'monthly'], [4]],
        [['--search', 'Interest'], []],
      ]
      const results = await Promise.all(cases.map(([flags]) => sb.run(['accounts', 'transactions', acc.operating, ...flags, '--json'])))
      results.forEach((r, n) => {
        const [flags, rows] = cases[n]
        expect(r.code, `${flags.join(' ')}: ${r.stderr}`).toBe(0)
        expect(
          (JSON.parse(r.stdout) as Tx[]).map((t) => t.id),
          flags.join(' '),
        ).toEqual(newest(rows))
      })
    })

    it('--sort amount / -amount with --limit', async () => {
      const [asc, top2] = await Promise.all([
        sb.json<Tx[]>(['accounts', 'transactions', acc.operating, '--sort', 'amount', '--json']),
        sb.json<Tx[]>(['accounts', 'transactions', acc.operating, '--sort', '-amount', '--limit', '2', '--json']),
      ])
      expect(asc.map((t) => t.amount)).toEqual([-1899.99, -1500, -1500, -300, -49.99, -49.99, -12, 1200.5, 2400])
      expect(top2.map((t) => t.id)).toEqual([ids[1], ids[2]])
    })

    it('a page smaller than the list says so on stderr; --all returns every row across pages', async () => {
      const [page, all] = await Promise.all([
        sb.run(['accounts', 'transactions', acc.operating, '--limit', '4']),
        sb.run(['accounts', 'transactions', acc.operating, '--all', '--limit', '4', '--json']),
      ])
      expect(page.code, page.stderr).toBe(0)
      const [header, ...rows] = tsv(page.stdout)
      expect(header).toEqual(['ID', 'DATE', 'DESCRIPTION', 'AMOUNT', 'ACCOUNT', 'CATEGORY', 'STATUS'])
      expect(rows.map((r) => r[0])).toEqual(newest(OPERATING).slice(0, 4))
      expect(page.stdout).not.toContain('total')
      expect(page.stderr).toContain('showing the first 4: add --all')
      expect(all.code, all.stderr).toBe(0)
      expect((JSON.parse(all.stdout) as Tx[]).map((t) => t.id)).toEqual(newest(OPERATING))
    })

    it("the account named by its name; a terminal's table ends with the total, tab-separated rows have none", async () => {
      const plain = await sb.ok(['accounts', 'transactions', 'operating (MAIN)'])
      const [header, ...rows] = tsv(plain.stdout)
      expect(header).toEqual(['ID', 'DATE', 'DESCRIPTION', 'AMOUNT', 'ACCOUNT', 'CATEGORY', 'STATUS'])
      expect(rows.map((row) => row[0])).toEqual(newest(OPERATING))
      expect(plain.stderr).toBe('')
      const terminal = await sb.ok(['accounts', 'transactions', acc.operating], {
        tty: { stdout: true },
        columns: 200,
        env: { NO_COLOR: '1' },
      })
      const lines = terminal.stdout.split('\n').filter((l) => l.includes('│'))
      expect(lines.at(-1)).toMatch(/total of 9 +│ +-1,711\.47 USD/)
    })

    it('usage errors name the flag: --limit, --reconciled with --unreconciled, a bad period', async () => {
      const cases: Array<[string[], string]> = [
        [['--limit', '1001'], '--limit must be a whole number from 1 to 1000'],
        [['--reconciled', '--unreconciled'], 'give --reconciled or --unreconciled, not both'],
        [['--from', 'someday'], '--from "someday" is not a date or a period'],
      ]
      for (const [flags, message] of cases) {
        const r = await sb.run(['accounts', 'transactions', acc.operating, ...flags])
        expect(r.code, flags.join(' ')).toBe(2)
        expect(r.stderr, flags.join(' ')).toContain(message)
        expect(r.stdout).toBe('')
      }
    })

    it('usage errors exit 2; an unknown account exits 5', async () => {
      const [zero, both, unknown] = await Promise.all([
        sb.run(['accounts', 'transactions', acc.operating, '--limit', '0']),
        sb.run(['accounts', 'transactions', acc.operating, '--reconciled', '--unreconciled']),
        sb.run(['accounts', 'transactions', randomUUID(), '--json']),
      ])
      expect(zero.code).toBe(2)
      expect(both.code).toBe(2)
      expect(unknown.code).toBe(5)
      expect(unknown.stdout).toBe('')
    })
  })

  describe('categories and company', () => {
    it('categories --json: every category in use with its most used accounting and cash-flow category and its count', async () => {
      const c = await sb.json(['categories', '--json'])
      expect(c).toEqual({
        categories: [
          { name: 'Equipment', accounting_category: 'capital_expenditure', cash_flow_category: 'investing', transaction_count: 1 },
          { name: 'Interest', accounting_category: 'other_income', cash_flow_category: 'operations', transaction_count: 1 },
          { name: 'Rent', accounting_category: 'operating_expenses', cash_flow_category: 'operations', transaction_count: 2 },
          { name: 'Sales', accounting_category: 'revenue', cash_flow_category: 'operations', transaction_count: 2 },
          { name: 'Software', accounting_category: 'operating_expenses', cash_flow_category: 'operations', transaction_count: 3 },
          { name: 'Transfer', accounting_category: 'transfer', cash_flow_category: 'transfer', transaction_count: 1 },
        ],
        accounting_categories: [
          'revenue',
          'cost_of_goods_sold',
          'operating_expenses',
          'payroll',
          'taxes',
          'interest',
          'capital_expenditure',
          'loan',
          'equity',
          'transfer',
          'other_income',
          'other_expense',
          'uncategorized',
        ],
        cash_flow_categories: ['operations', 'investing', 'financing', 'transfer'],
      })
    })

    it('categories as a table off a terminal: a header line and one row per category', async () => {
      const r = await sb.ok(['categories'])
      const [header, ...rows] = tsv(r.stdout)
      expect(header).toEqual(['CATEGORY', 'ACCOUNTING CATEGORY', 'CASH FLOW', 'TRANSACTIONS'])
      expect(rows).toHaveLength(6)
      expect(rows).toContainEqual(['Software', 'operating_expenses', 'operations', '3'])
    })

    it('company --json: {id, name, base_currency, created_at, lock_date, pack_public_key}', async () => {
      const c = await sb.json(['company', '--json'])
      expect(Object.keys(c).sort()).toEqual(['base_currency', 'created_at', 'id', 'lock_date', 'name', 'pack_public_key'])
      expect(c).toMatchObject({ id: companyId, name: 'Tally Test Co', base_currency: 'USD', lock_date: null, pack_public_key: null })
      expect(c.created_at).toMatch(ISO)
    })
  })

  describe('accounts delete', () => {
    it('an account that holds transactions: exit 6, and it stays', async () => {
      const r = await sb.run(['accounts', 'delete', acc.operating, '--yes'])
      expect(r.code).toBe(6)
      expect(r.stderr).toContain('holds transactions')
      expect((await sb.json(['accounts', 'get', acc.operating, '--json'])).id).toBe(acc.operating)
    })

    it('an empty account: exit 2 without --yes (nothing deleted), exit 0 with it, then get exits 5', async () => {
      const refused = await sb.run(['accounts', 'delete', acc.empty])
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain('--yes')
      expect((await sb.json(['accounts', 'get', acc.empty, '--json'])).name).toBe('Petty cash')

      const deleted = await sb.run(['accounts', 'delete', acc.empty, '--yes', '--json'])
      expect(deleted.code, deleted.stderr).toBe(0)
      expect(JSON.parse(deleted.stdout)).toEqual({ id: acc.empty, deleted: true })
      const [get, list, again] = await Promise.all([
        sb.run(['accounts', 'get', acc.empty]),
        sb.json<Array<{ id: string }>>(['accounts', 'list', '--json']),
        sb.run(['accounts', 'delete', acc.empty, '--yes']),
      ])
      expect(get.code).toBe(5)
      expect(list.map((a) => a.id).sort()).toEqual([acc.operating, acc.reserve].sort())
      expect(again.code).toBe(5)
    })
  })
})

describe('accounts create, in process', () => {
  let sb: InProcessSandbox

  beforeAll(async () => {
    sb = new InProcessSandbox('accounts-create')
    await sb.ok(['init', '--company', 'Franken AG', '--currency', 'CHF', '--no-input'])
  })
  afterAll(() => sb?.cleanup())

  it('a record in the base currency by default, balances with their currency in the table; --json the data', async () => {
    const r = await sb.ok([
      'accounts',
      'create',
      '--name',
      'Main',
      '--type',
      'checking',
      '--opening-balance',
      '12.5',
      '--account-number',
      'CH93-0076-2011',
    ])
    const record = Object.fromEntries(tsv(r.stdout).slice(1))
    expect(record).toMatchObject({
      name: 'Main',
      account_type: 'checking',
      currency_code: 'CHF',
      account_number_last4: '2011',
      opening_balance: '12.50 CHF',
      current_balance: '12.50 CHF',
    })
    expect(r.stderr).toBe(`created bank account ${record.id}\n`)
    const eur = await sb.json([
      'accounts',
      'create',
      '--name',
      'Euro',
      '--type',
      'savings',
      '--currency',
      'eur',
      '--institution-name',
      'Bank',
      '--json',
    ])
    expect(eur).toMatchObject({ name: 'Euro', currency_code: 'EUR', institution_name: 'Bank', opening_balance: 0, current_balance: 0 })
    const listed = await sb.json<Array<{ name: string }>>(['accounts', 'list', '--json'])
    expect(listed.map((a) => a.name).sort()).toEqual(['Euro', 'Main'])
  })

  it('usage errors name the flag (exit 2); an amount the service refuses names --opening-balance (exit 6); nothing is created', async () => {
    const cases: Array<[string[], number, string]> = [
      [['--type', 'checking'], 2, 'error: the account name is required: give --name\n'],
      [['--name', 'X'], 2, 'error: the account type is required: give --type\n'],
      [
        ['--name', 'X', '--type', 'bogus'],
        2,
        'error: --type bogus: not one of checking, savings, credit_card, loan, investment, cash, other\n',
      ],
      [
        ['--name', 'X', '--type', 'cash', '--opening-balance', 'abc'],
        2,
        'error: --opening-balance abc: not a decimal amount (write it as -149.99)\n',
      ],
    ]
    for (const [flags, code, message] of cases) {
      const r = await sb.run(['accounts', 'create', ...flags])
      expect(r.code, flags.join(' ')).toBe(code)
      expect(r.stderr, flags.join(' ')).toBe(message)
      expect(r.stdout).toBe('')
    }
    expect(await sb.json<unknown[]>(['accounts', 'list', '--json'])).toHaveLength(2)
  })
})
