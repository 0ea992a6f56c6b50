/**
 * Ctrl-C and SIGTERM during the other long commands, with the built CLI (tx import's own:
 * interrupt.test.ts): `statements upload`, `seed` and `export` exit 130 or 143 with one line saying
 * what was done and how to go on, leave no half file, and the same command then finishes the work once.
 */
import Database from 'better-sqlite3'
import { spawn } from 'node:child_process'
import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, FULL_KEY, Sandbox, fastKey } from '../helpers/cli.js'

const ROWS = 30_000

function csv(n: number): string {
  const lines = ['Date,Description,Amount']
  for (let i = 1; i <= n; i++)
    lines.push(
      `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')},Card payment ${i} at a shop,-${(i % 997) + 1}.25`,
    )
  return `${lines.join('\n')}\n`
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('interrupted upload, seed and export', () => {
  let sb: Sandbox
  let big: string

  const query = <T>(sql: string, ...params: unknown[]): T[] => {
    const db = new Database(sb.database, { readonly: true, fileMustExist: true })
    try {
      return db.prepare(sql).all(...params) as T[]
    } finally {
      db.close()
    }
  }
  const rowsOf = (account: string) =>
    query<{ n: number; refs: number }>(
      'SELECT count(*) AS n, count(DISTINCT import_ref) AS refs FROM transactions t JOIN bank_accounts a ON a.key = t.account_key WHERE a.id = ?',
      account,
    )[0]

  /** Start finctl, send `signal` once `ready()` holds, and give back its exit code and output. */
  async function stopWhen(args: string[], ready: (out: string) => boolean, signal: NodeJS.Signals) {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: sb.dir, env: sb.env(), stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
    const exited = new Promise<number | null>((res) => child.once('exit', (c) => res(c)))
    let seen = false
    for (let i = 0; i < 6000 && child.exitCode === null && !(seen = ready(out)); i++) await sleep(5)
    expect(seen, `finctl ended before it could be stopped:\n${err}`).toBe(true)
    child.kill(signal)
    return { code: await exited, out, err }
  }

  const account = async (name: string) =>
    (await sb.json<{ id: string }>(['accounts', 'create', '--name', name, '--type', 'checking', '--currency', 'USD', '--json'])).id

  beforeAll(async () => {
    sb = new Sandbox('interrupted')
    await sb.ok(['init', '--no-input', '--currency', 'USD'])
    await fastKey(sb)
    big = join(sb.dir, 'big.csv')
    writeFileSync(big, csv(ROWS))
  })
  afterAll(() => sb?.cleanup())

  it('statements upload, SIGINT while processing: exit 130 once the statement is finished, named; the same command never imports it twice', async () => {
    const id = await account('Upload')
    const args = ['statements', 'upload', big, '--account', id]
    const processing = () =>
      query<{ n: number }>("SELECT count(*) AS n FROM bank_statements WHERE bank_account_id = ? AND status = 'processing'", id)[0].n > 0
    const r = await stopWhen(args, processing, 'SIGINT')
    expect(r.code, r.err).toBe(130)
    const said =
      /^error: interrupted \(Ctrl-C\): .*big\.csv was uploaded as statement ([0-9a-f-]{36}), still (pending|processing): finctl finishes processing it before it exits; `finctl statements get \1` shows the result \(the same command again never imports a file twice\)$/m.exec(
        r.err,
      )
    expect(said, r.err).not.toBeNull()
    // A clean stop never cuts a statement off: it is whole when finctl has exited.
    expect(query('SELECT status FROM bank_statements WHERE id = ?', said![1])).toEqual([{ status: 'completed' }])
    expect(rowsOf(id).n).toBe(ROWS)

    const again = await sb.run(args, { timeoutMs: 180_000 })
    expect(again.code, again.stderr).toBe(6)
    expect(again.stderr).toContain(`statement ${said![1]}`)
    expect(rowsOf(id).n).toBe(ROWS)
  }, 300_000)

  it('seed, SIGTERM in its import step: exit 143, the steps done named, the new key shown; running it again finishes once', async () => {
    const seedFile = join(sb.dir, 'seed.json')
    writeFileSync(
      seedFile,
      JSON.stringify({
        version: 1,
        steps: [
          { account: 'main', name: 'Seeded', account_type: 'checking', currency_code: 'USD' },
          { api_key: 'ci', name: 'ci-readonly', scopes: ['read'] },
          { import: 'bulk', bank_account_id: '${accounts.main.id}', file: 'big.csv' },
          { account: 'later', name: 'Later', account_type: 'savings', currency_code: 'USD' },
        ],
      }),
    )
    const seeded = () => query<{ id: string }>("SELECT id FROM bank_accounts WHERE name = 'Seeded'")[0]?.id
    const r = await stopWhen(['seed', seedFile], () => seeded() !== undefined && rowsOf(seeded()!).n > 500, 'SIGTERM')
    expect(r.code, r.err).toBe(143)
    expect(r.err).toMatch(
      /^error: terminated \(SIGTERM\): the seed stopped after 2 of 4 steps \("main" created, "ci" created\); the API keys it created are on stdout, shown only now: the same command again is safe, each step finds what it made and goes on$/m,
    )
    expect(r.out).toMatch(new RegExp(`^KEYS_CI_KEY=${FULL_KEY.source.slice(1, -1)}$`, 'm'))
    const between = rowsOf(seeded()!).n
    expect(between).toBeLessThan(ROWS)
    expect(query("SELECT id FROM bank_accounts WHERE name = 'Later'")).toEqual([])

    const again = await sb.ok(['seed', seedFile, '--json'], { timeoutMs: 180_000 })
    const report = JSON.parse(again.stdout) as { steps: Array<{ step: string; status: string }> }
    expect(report.steps.map((s) => [s.step, s.status])).toEqual([
      ['main', 'exists'],
      ['ci', 'exists'],
      ['bulk', 'created'],
      ['later', 'created'],
    ])
    expect(rowsOf(seeded()!)).toEqual({ n: ROWS, refs: ROWS })
  }, 300_000)

  for (const [signal, code, words] of [
    ['SIGINT', 130, 'interrupted \\(Ctrl-C\\)'],
    ['SIGTERM', 143, 'terminated \\(SIGTERM\\)'],
  ] as const) {
    it(`export --output, ${signal} midway: exit ${code}, no file and no temporary file left, the same command writes it whole`, async () => {
      if (signal === 'SIGINT') {
        // Rows enough that the export takes a while.
        const id = await account('Exported')
        await sb.ok(['tx', 'import', big, '--account', id], { timeoutMs: 180_000 })
      }
      const name = `books-${signal}.journal`
      const args = [
        'export',
        '--format',
        'hledger',
        '--from',
        '2025-01-01',
        '--to',
        '2025-12-31',
        '--account',
        'Exported',
        '--output',
        name,
      ]
      const part = () => readdirSync(sb.dir).some((f) => f.startsWith(`.${name}.`) && f.endsWith('.part'))
      const r = await stopWhen(args, part, signal)
      expect(r.code, r.err).toBe(code)
      expect(r.err).toMatch(
        new RegExp(
          `^error: ${words}: the export stopped (after [\\d,]+ of [\\d,]+ transactions|before any transaction was written); ${name} was not written: the same command again writes it whole$`,
          'm',
        ),
      )
      expect(readdirSync(sb.dir).filter((f) => f.includes(name))).toEqual([])

      const again = await sb.ok(args, { timeoutMs: 180_000 })
      expect(again.stderr).toContain(`exported ${ROWS.toLocaleString('en-US')} transactions`)
      expect(readdirSync(sb.dir).filter((f) => f.includes(name))).toEqual([name])
    }, 300_000)
  }

  it('export to stdout, Ctrl-C midway: exit 130, and the message says what went out is incomplete', async () => {
    const args = ['export', '--format', 'csv', '--from', '2025-01-01', '--to', '2025-12-31', '--account', 'Exported']
    const r = await stopWhen(args, (out) => out.length > 0, 'SIGINT')
    expect(r.code, r.err).toBe(130)
    expect(r.err).toMatch(
      /^error: interrupted \(Ctrl-C\): the export stopped (after [\d,]+ of [\d,]+ transactions|before any transaction was written); what went to stdout is incomplete: the same command again writes it whole$/m,
    )
  }, 240_000)
})
