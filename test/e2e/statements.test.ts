/**
 * End-to-end: `finctl statements upload | list | get | transactions` of the built CLI on real bank
 * files (the bank-file corpus, test/helpers/bank-files.ts; skipped when it is missing), in its own
 * FINCTL_CONFIG_DIR, without a terminal: the upload waits for processing (the embedded process
 * must not exit before), also through `finctl serve`. The verbs' other cases (tables, --preview,
 * --map, failures and their exit 6, usage errors) run in process: test/commands/statements/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bankFile, HAS_BANK_FILES } from '../helpers/bank-files.js'
import { Sandbox, fastKey, tsv, withServe } from '../helpers/cli.js'

const ABNAMRO = bankFile('mt940/nl-abnamro-two-statements-swift-header.sta')
const CAMT = bankFile('camt053/v02-two-statements-one-file.xml')

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
    // The upload's answer names the import batch it opened; the statement itself is the same.
    const { batch_id, ...statement } = s as typeof s & { batch_id?: string }
    expect(batch_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(await sb.json(['statements', 'get', s.id, '--json'])).toEqual(statement)
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
      'ERROR',
    ])
    expect(list.slice(1).map((row) => [row[0], row[4], row[6], row[10], row[11]])).toEqual([[s.id, 'completed', '2', 'ok', '']])
    const table = tsv((await sb.ok(['statements', 'get', s.id])).stdout)
    expect(table).toContainEqual(['balance check', 'ok'])
    expect(table).toContainEqual(['opening balance', '18.15 EUR'])

    // The same file again: refused (409), exit 6, naming the first statement.
    const again = await sb.run(['statements', 'upload', CAMT, '--account', acct])
    expect(again.code).toBe(6)
    expect(again.stderr).toContain(s.id)
    expect(again.stdout).toBe('')
  })

  it('works the same against finctl serve (the upload polls over HTTP)', async () => {
    const acct = await account()
    const key = sb.profiles().profiles.local.api_key!
    const s = await withServe(sb, async (server) => {
      const r = await sb.run(['statements', 'upload', ABNAMRO, '--account', acct, '--json'], {
        env: { FINCTL_BASE_URL: server.url, FINCTL_API_KEY: key },
      })
      // Its balances do not add up: exit 6 naming the difference, the statement completed.
      expect(r.code, r.stderr).toBe(6)
      expect(r.stderr).toContain('balance check mismatch')
      return JSON.parse(r.stdout) as Statement
    })
    expect(s).toMatchObject({ status: 'completed', transaction_count: 10, balance_check: 'mismatch' })
    // The upload's answer names the import batch it opened; the statement itself is the same.
    const { batch_id, ...statement } = s as typeof s & { batch_id?: string }
    expect(batch_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(await sb.json(['statements', 'get', s.id, '--json'])).toEqual(statement)
  })
})
