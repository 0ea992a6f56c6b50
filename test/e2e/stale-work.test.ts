/**
 * End-to-end: work cut off by kill -9 recovers. A statement left processing by a process that
 * is gone is failed as soon as that is known, so uploading the file again goes in at once, and
 * `seed` counts only a completed statement as done (it used to say "done" over a statement stuck in
 * processing and every row of it missing).
 */
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, Sandbox } from '../helpers/cli.js'

/** A CSV statement of `n` rows, large enough that processing it outlasts a few polls. */
function statementCsv(n: number): string {
  const lines = ['Date,Description,Amount']
  for (let i = 1; i <= n; i++)
    lines.push(`2026-03-${String((i % 28) + 1).padStart(2, '0')},Card payment ${i} at a shop,-${(i % 997) + 1}.25`)
  return `${lines.join('\n')}\n`
}

describe('work cut off by kill -9', () => {
  let sb: Sandbox
  const ROWS = 40_000

  beforeAll(async () => {
    sb = new Sandbox('stale-work')
    await sb.ok(['init', '--password-stdin', '--no-input'], { input: 'password-for-stale-work\n' })
  })
  afterAll(() => sb?.cleanup())

  const query = <T>(sql: string, ...params: unknown[]): T[] => {
    const db = new Database(sb.database, { readonly: true, fileMustExist: true })
    try {
      return db.prepare(sql).all(...params) as T[]
    } finally {
      db.close()
    }
  }
  const statementsOf = (account: string) =>
    query<{ status: string; transaction_count: number }>(
      'SELECT status, transaction_count FROM bank_statements WHERE bank_account_id = ? ORDER BY created_at',
      account,
    )
  const rowsOf = (account: string) =>
    query<{ n: number }>(
      'SELECT count(*) AS n FROM transactions WHERE account_key = (SELECT key FROM bank_accounts WHERE id = ?)',
      account,
    )[0].n

  /** Run finctl, and kill -9 it once a statement of `account` is being processed. */
  async function killWhileProcessing(args: string[], account: () => string | undefined, env: Record<string, string> = {}): Promise<void> {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: sb.dir, env: sb.env(env), stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
    const exited = new Promise<void>((res) => child.once('exit', () => res()))
    let seen = ''
    for (let i = 0; i < 3000 && child.exitCode === null; i++) {
      const id = account()
      seen = id ? (statementsOf(id).at(-1)?.status ?? '') : ''
      if (seen === 'processing') break
      await new Promise((r) => setTimeout(r, 10))
    }
    child.kill('SIGKILL')
    await exited
    expect(seen, `finctl ${args.join(' ')} never had a statement processing:\n${err}`).toBe('processing')
  }

  it('seed: killed during its statement step, it runs again to a completed statement with every row', async () => {
    writeFileSync(join(sb.dir, 'march.csv'), statementCsv(ROWS))
    const seed = join(sb.dir, 'seed.json')
    writeFileSync(
      seed,
      JSON.stringify({
        version: 1,
        steps: [
          { account: 'reserve', name: 'Reserve', account_type: 'savings', currency_code: 'USD' },
          { statement: 'march', bank_account_id: '${accounts.reserve.id}', file: 'march.csv', format: 'csv' },
        ],
      }),
    )
    const reserve = () => query<{ id: string }>(`SELECT id FROM bank_accounts WHERE name = 'Reserve'`)[0]?.id
    await killWhileProcessing(['seed', seed], reserve)
    const account = reserve()!
    expect(rowsOf(account)).toBe(0)

    const again = await sb.run(['seed', seed, '--json'], { timeoutMs: 120_000 })
    expect(again.code, again.stderr).toBe(0)
    const report = JSON.parse(again.stdout) as { steps: Array<{ step: string; status: string }> }
    expect(report.steps.find((s) => s.step === 'march')?.status).toBe('created')
    expect(statementsOf(account)).toEqual([
      { status: 'failed', transaction_count: 0 },
      { status: 'completed', transaction_count: ROWS },
    ])
    expect(rowsOf(account)).toBe(ROWS)
    // And once more: done, nothing new.
    const third = await sb.run(['seed', seed, '--json'])
    expect(third.code, third.stderr).toBe(0)
    expect((JSON.parse(third.stdout) as typeof report).steps.find((s) => s.step === 'march')?.status).toBe('exists')
    expect(rowsOf(account)).toBe(ROWS)
  })

  it('statements upload: killed while the statement is processed, the same file uploads again at once', async () => {
    const account = (
      await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Upload', '--type', 'checking', '--currency', 'USD', '--json'])
    ).id
    const file = join(sb.dir, 'april.csv')
    writeFileSync(file, statementCsv(ROWS))
    await killWhileProcessing(['statements', 'upload', file, '--account', account], () => account)
    expect(rowsOf(account)).toBe(0)
    const again = await sb.run(['statements', 'upload', file, '--account', account, '--json'], { timeoutMs: 120_000 })
    expect(again.code, again.stderr).toBe(0)
    expect(JSON.parse(again.stdout)).toMatchObject({ status: 'completed', transaction_count: ROWS })
    expect(statementsOf(account).map((s) => s.status)).toEqual(['failed', 'completed'])
    expect(rowsOf(account)).toBe(ROWS)
  })
})
