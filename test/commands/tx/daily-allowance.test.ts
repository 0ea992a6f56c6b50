/**
 * The CLI in process (test/helpers/in-process-cli.ts): a key's daily allowance spent in the middle
 * of `tx import` stops it at once with exit 7, what was imported and when to go on, instead of waiting silently until UTC midnight.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

/** Near UTC midnight the allowance's reset is under a minute away, and the import rightly waits for it. */
const nearMidnight = () => 86_400_000 - (Date.now() % 86_400_000) < 180_000

describe('tx import with a spent daily allowance', () => {
  let sb: InProcessSandbox
  beforeAll(async () => {
    sb = new InProcessSandbox('daily-allowance')
    await sb.ok(['init', '--password-stdin', '--no-input'], { input: 'password-for-allowance\n' })
  })
  afterAll(() => sb?.cleanup())

  it('stops with exit 7, the rows created and when to run it again (or --wait)', async () => {
    if (nearMidnight()) return
    const account = (
      await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Paced', '--type', 'checking', '--currency', 'USD', '--json'])
    ).id
    const { key } = await sb.json<{ key: string }>([
      'keys',
      'create',
      '--name',
      'four a day',
      '--scopes',
      'read,write,transactions',
      '--rate-limit-per-day',
      '4',
      '--json',
    ])
    sb.remember(key)
    const file = join(sb.dir, 'ten.csv')
    writeFileSync(
      file,
      `date,description,amount\n${Array.from({ length: 10 }, (_, i) => `2026-02-${String(i + 1).padStart(2, '0')},Row ${i + 1},-${i + 1}.00`).join('\n')}\n`,
    )
    // An import that waited for the allowance to come back (tomorrow) would be ended here, and fail.
    const r = await sb.run(['tx', 'import', file, '--account', account, '--batch-size', '1', '--concurrency', '1'], {
      env: { FINCTL_API_KEY: key },
      timeoutMs: 90_000,
    })
    expect(r.code, r.stderr).toBe(7)
    const db = new Database(sb.database, { readonly: true, fileMustExist: true })
    const created = (
      db
        .prepare('SELECT count(*) AS n FROM transactions WHERE account_key = (SELECT key FROM bank_accounts WHERE id = ?)')
        .get(account) as {
        n: number
      }
    ).n
    db.close()
    // The account's lookup and the opening of the import's batch took two requests of the four: two
    // single-row batches went in.
    expect(created).toBe(2)
    const reset = new Date(Math.ceil(Date.now() / 86_400_000) * 86_400_000)
    // The wait is said in hours and minutes, or in the last hour of a UTC day in minutes and seconds.
    expect(r.stderr).toMatch(
      /^error: rate limit of 4 requests per day reached for this key; the service takes requests again in (?:\d+ h \d+ min|\d+ min \d+ s) \(at (\S+)\)\. Stopped after 2 rows created; the other rows were not sent\. Run the same command again after \1 \(rows already imported are skipped\), or add --wait to wait until then$/m,
    )
    const at = /\(at (\S+)\)/.exec(r.stderr)![1]
    expect(Math.abs(Date.parse(at) - reset.getTime())).toBeLessThan(5_000)
  })
})
