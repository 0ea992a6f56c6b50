/**
 * Ctrl-C (SIGINT) and SIGTERM during a long `tx import`, with the built CLI: exit 130 or
 * 143, one line saying how many rows were created and that the same command imports the rest; the
 * same command then leaves every row exactly once. (kill -9: test/e2e/tx-import.test.ts.)
 */
import Database from 'better-sqlite3'
import { spawn } from 'node:child_process'
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, Sandbox, fastKey } from '../helpers/cli.js'

const ROWS = 12_000

function bigFile(path: string, n: number): void {
  const lines = ['Date,Text,Amount']
  for (let i = 0; i < n; i++)
    lines.push(
      `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')},Shop ${i},-${(i % 900) + 1}.${String(i % 100).padStart(2, '0')}`,
    )
  writeFileSync(path, `${lines.join('\n')}\n`)
}

describe('an interrupted tx import', () => {
  let sb: Sandbox
  let file: string

  const count = (account: string) => {
    const db = new Database(sb.database, { readonly: true, fileMustExist: true })
    try {
      return db
        .prepare(
          'SELECT count(*) AS n, count(DISTINCT import_ref) AS refs FROM transactions t JOIN bank_accounts a ON a.key = t.account_key WHERE a.id = ?',
        )
        .get(account) as { n: number; refs: number }
    } finally {
      db.close()
    }
  }

  beforeAll(async () => {
    sb = new Sandbox('interrupt')
    await sb.ok(['init', '--no-input', '--currency', 'USD'])
    await fastKey(sb)
    file = join(sb.dir, 'big.csv')
    bigFile(file, ROWS)
  })
  afterAll(() => sb?.cleanup())

  for (const [signal, code, words] of [
    ['SIGINT', 130, 'interrupted (Ctrl-C)'],
    ['SIGTERM', 143, 'terminated (SIGTERM)'],
  ] as const) {
    it(`${signal} mid-import: exit ${code}, the rows created named, and the same command imports the rest once`, async () => {
      const account = (await sb.json<{ id: string }>(['accounts', 'create', '--name', signal, '--type', 'checking', '--json'])).id
      const args = [BIN, 'tx', 'import', file, '--account', account, '--batch-size', '250', '--concurrency', '1']
      const child = spawn(process.execPath, args, { cwd: sb.dir, env: sb.env(), stdio: ['ignore', 'ignore', 'pipe'] })
      let err = ''
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
      const exited = new Promise<number | null>((res) => child.once('exit', (c) => res(c)))
      for (let i = 0; i < 1200 && child.exitCode === null && count(account).n < 1000; i++) await new Promise((r) => setTimeout(r, 25))
      child.kill(signal)
      expect(await exited, err).toBe(code)
      const between = count(account).n
      expect(between, `the import finished before it could be stopped:\n${err}`).toBeLessThan(ROWS)
      const said = new RegExp(
        `^error: ${words.replace(/[()]/g, '\\$&')}: the import stopped after at least ([\\d,]+) rows were created; they stay: the same command again imports the rest, each row once$`,
        'm',
      ).exec(err)
      expect(said, err).not.toBeNull()
      const atLeast = Number(said![1].replaceAll(',', ''))
      expect(atLeast).toBeGreaterThan(0)
      expect(atLeast).toBeLessThanOrEqual(between)
      expect(err).not.toContain('internal error')
      // Its batch says it was stopped, with what the service counted of the batches that committed
      // (a batch of rows committed as the thread stopped may not have been counted yet).
      type Batch = { state: string; bank_account_id: string; counts: { created: number } }
      const stopped = (await sb.json<Batch[]>(['imports', 'list', '--account', account, '--json']))[0]
      expect(stopped.state).toBe('interrupted')
      expect(stopped.counts.created).toBeLessThanOrEqual(between)
      expect(stopped.counts.created).toBeGreaterThanOrEqual(between - 250)

      const resumed = await sb.json<{ created: number; already_imported: number }>(['tx', 'import', file, '--account', account, '--json'], {
        timeoutMs: 120_000,
      })
      expect(resumed.already_imported).toBe(between)
      expect(resumed.created + resumed.already_imported).toBe(ROWS)
      expect(count(account)).toEqual({ n: ROWS, refs: ROWS })
      const [again] = await sb.json<Array<Batch & { counts: { existing: number } }>>(['imports', 'list', '--account', account, '--json'])
      expect(again).toMatchObject({ state: 'completed', counts: { created: resumed.created, existing: between } })
    }, 360_000)
  }

  it('Ctrl-C after more than 1,000 rejected rows: their spill file goes too', async () => {
    const account = (
      await sb.json<{ id: string }>([
        'accounts',
        'create',
        '--name',
        'Spill',
        '--type',
        'checking',
        '--opening-balance',
        '100.00',
        '--opening-balance-date',
        '2025-06-01',
        '--json',
      ])
    ).id
    // Three rows of four are dated before the account opened: rejected rows past the first 1,000 wait in a file.
    const lines = ['Date,Text,Amount']
    for (let i = 0; i < ROWS; i++) lines.push(`${i % 4 ? '2025-03-01' : '2025-09-01'},Shop ${i},-1.${String(i % 100).padStart(2, '0')}`)
    const spilling = join(sb.dir, 'spilling.csv')
    writeFileSync(spilling, `${lines.join('\n')}\n`)
    const tmp = join(sb.dir, 'tmp')
    mkdirSync(tmp)
    const args = [BIN, 'tx', 'import', spilling, '--account', account, '--batch-size', '100', '--concurrency', '1']
    const child = spawn(process.execPath, args, { cwd: sb.dir, env: sb.env({ TMPDIR: tmp }), stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
    const exited = new Promise<number | null>((res) => child.once('exit', (c) => res(c)))
    const spills = () => readdirSync(tmp).filter((n) => n.startsWith('finctl-rejects-'))
    for (let i = 0; i < 1200 && child.exitCode === null && spills().length === 0; i++) await new Promise((r) => setTimeout(r, 10))
    expect(spills(), `no spill file was made before the import ended:\n${err}`).toHaveLength(1)
    child.kill('SIGINT')
    expect(await exited, err).toBe(130)
    expect(spills()).toEqual([])
  }, 360_000)
})
