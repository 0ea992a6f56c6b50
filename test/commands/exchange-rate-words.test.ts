/**
 * The CLI in process (test/helpers/in-process-cli.ts): every message about the exchange rate names
 * what the user types. The service's field is `exchange_rate`; tx create, tx update and statements
 * upload (and its --preview) say --exchange-rate, tx import (which sets it on every row) says --set
 * exchange_rate. `--json` errors keep the API's field name in their details. tx create and tx
 * update, in process: test/commands/tx/create.test.ts.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CliResult } from '../helpers/cli.js'
import { InProcessSandbox } from '../helpers/in-process-cli.js'

/** `exchange_rate` on its own, not as part of `--set exchange_rate`. */
const bare = (r: CliResult) => r.stderr.replace(/--set exchange_rate/g, '').match(/exchange_rate/)

describe('the exchange rate in the words of the command line', () => {
  const sb = new InProcessSandbox('rate-words')
  let usd = ''
  let eur = ''
  const csv = () => join(sb.dir, 'rows.csv')

  beforeAll(async () => {
    await sb.ok(['init', '--company', 'Rate Words', '--email', 'r@words.test', '--password-stdin', '--no-input'], {
      input: 'password-for-rate-words\n',
    })
    usd = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Dollars', '--type', 'checking', '--currency', 'USD', '--json']))
      .id
    eur = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Euros', '--type', 'checking', '--currency', 'EUR', '--json'])).id
    writeFileSync(csv(), 'Date,Description,Amount\n2026-01-05,Coffee,-4.50\n2026-01-06,Refund,12.00\n')
  }, 120_000)
  afterAll(() => sb.cleanup())

  async function refused(args: string[], message: RegExp, code = 6): Promise<CliResult> {
    const r = await sb.run(args)
    expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(code)
    expect(r.stderr, args.join(' ')).toMatch(message)
    expect(bare(r), `${args.join(' ')}: ${r.stderr}`).toBeNull()
    return r
  }

  it('statements upload says --exchange-rate; --json keeps the field in its details', async () => {
    // Without a rate the lines convert at the company's rates of their dates: none here, so the statement fails naming the flag.
    await refused(
      ['statements', 'upload', csv(), '--account', eur],
      /^error: statement \S+ failed: line 2: an exchange rate is required for EUR on 2026-01-05: .*`finctl rates import FILE`.*or give `--exchange-rate`$/m,
    )
    await refused(
      ['statements', 'upload', csv(), '--account', eur, '--exchange-rate', 'abc'],
      /^error: --exchange-rate must be a positive decimal number$/m,
    )
    await refused(
      ['statements', 'upload', csv(), '--account', usd, '--exchange-rate', '2'],
      /^error: --exchange-rate must be 1: the account is in the base currency USD$/m,
    )
    const json = await sb.run(['statements', 'upload', csv(), '--account', eur, '--exchange-rate', 'abc', '--json'])
    expect(json.code).toBe(6)
    expect(JSON.parse(json.stderr).details).toEqual([{ path: 'exchange_rate', message: expect.stringMatching(/^must be a positive/) }])
  })

  it('statements upload --preview checks the rate as the upload does', async () => {
    // A bad rate is refused; before, the preview ignored --exchange-rate and exited 0.
    await refused(
      ['statements', 'upload', csv(), '--account', eur, '--preview', '--exchange-rate', 'abc'],
      /^error: --exchange-rate must be a positive decimal number$/m,
    )
    await refused(
      ['statements', 'upload', csv(), '--account', usd, '--preview', '--exchange-rate', '2'],
      /^error: --exchange-rate must be 1: the account is in the base currency USD$/m,
    )
    // A missing one is no problem of the file: the upload converts each line at the company's rate of its date.
    const r = await sb.run(['statements', 'upload', csv(), '--account', eur, '--preview'])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/^2 lines, sum 7.50 EUR/m)
    expect(bare(r)).toBeNull()
    const ok = await sb.run(['statements', 'upload', csv(), '--account', eur, '--preview', '--exchange-rate', '1.1'])
    expect(ok.code).toBe(0)
    expect(ok.stderr).not.toMatch(/rate/)
  })

  it('tx import says --set exchange_rate, from its own checks and from the service alike', async () => {
    await refused(
      ['tx', 'import', csv(), '--account', eur, '--set', 'exchange_rate=abc'],
      /^error: --set exchange_rate: "abc" is not a positive decimal number$/m,
      2,
    )
    const missing = await refused(
      ['tx', 'import', csv(), '--account', eur],
      /^line 2: --set exchange_rate is required for EUR on 2026-01-05: .*`finctl rates import FILE`.*or give --set exchange_rate$/m,
      8,
    )
    expect(missing.stdout).toMatch(/rejected\t2/)
    // The service's refusal, per row of the batch.
    await refused(
      ['tx', 'import', csv(), '--account', usd, '--set', 'exchange_rate=2'],
      /^line 2: --set exchange_rate must be 1 for the base currency USD$/m,
      8,
    )
  })

  it('the pattern finds a bare field name', () => {
    expect(bare({ stderr: 'error: exchange_rate: must be', stdout: '', code: 6, signal: null })).not.toBeNull()
    expect(bare({ stderr: 'line 2: --set exchange_rate must be 1', stdout: '', code: 8, signal: null })).toBeNull()
  })
})
