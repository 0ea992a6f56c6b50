/**
 * End-to-end in a real terminal: the built CLI run in a tmux pane (fixed size, its own socket),
 * driven with send-keys and read back with capture-pane, as a person would use it: `finctl init`
 * prompts (masked password typed twice), `tx create` prompts, a `keys revoke` confirmation answered
 * no then yes, Ctrl-C at a prompt (exit 130, nothing written), and the typed confirmation of a
 * protected profile. Every wait polls the screen until the expected text appears (bounded).
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { generateDataset } from '../../src/domain/categorization/dataset.js'
import { BIN, Sandbox } from '../helpers/cli.js'

/** tmux drives the terminal; .ci/run installs it where it is missing (apt-get install -y tmux). */
function tmuxVersion(): string {
  try {
    return execFileSync('tmux', ['-V'], { encoding: 'utf8' }).trim()
  } catch {
    throw new Error('tty.test.ts needs tmux: apt-get install -y tmux')
  }
}

const WIDTH = 160
const HEIGHT = 50

describe('in a real terminal (tmux)', () => {
  let sb: Sandbox
  const socket = `finctl-tty-${process.pid}`
  /** Where tmux made the socket (kill-server leaves the file behind: afterAll removes it). */
  let socketPath: string | undefined
  let env: NodeJS.ProcessEnv
  let step = 0
  /** The step whose command line may still be running. */
  let running: number | undefined

  const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8', env })
  const screen = (): string => tmux('capture-pane', '-p', '-t', 'tty')
  const keys = (...k: string[]): void => void tmux('send-keys', '-t', 'tty', ...k)
  const type = (text: string): void => void tmux('send-keys', '-t', 'tty', '-l', '--', text)

  /** Poll the screen until `pattern` shows (at most `ms`); returns the screen. */
  async function waitFor(pattern: RegExp | string, ms = 60_000): Promise<string> {
    const deadline = Date.now() + ms
    let last = ''
    while (Date.now() < deadline) {
      last = screen()
      // While a command runs, only a screen it has cleared counts: the previous command's prompt, still
      // on the screen until the `clear` runs, must not be taken for this one's (keys typed too early are lost).
      const current = running === undefined || last.includes(`[start-${running}]`)
      if (current && (typeof pattern === 'string' ? last.includes(pattern) : pattern.test(last))) return last
      await new Promise((r) => setTimeout(r, 40))
    }
    throw new Error(`timed out waiting for ${pattern} on the screen:\n${last}`)
  }

  /** Clear the screen and start a command line; `finished()` waits for its exit code. */
  function start(commandLine: string): { finished: () => Promise<{ code: number; screen: string }> } {
    const n = ++step
    running = n
    // The start marker is printed by printf, so the typed command line itself does not show it.
    type(`clear; printf '[st%s-${n}]\\n' art; ${commandLine}; echo "[exit-${n}=$?]"`)
    keys('Enter')
    return {
      finished: async () => {
        const s = await waitFor(new RegExp(`\\[exit-${n}=(\\d+)\\]`))
        running = undefined
        return { code: Number(new RegExp(`\\[exit-${n}=(\\d+)\\]`).exec(s)![1]), screen: s }
      },
    }
  }

  beforeAll(async () => {
    tmuxVersion()
    sb = new Sandbox('tty')
    const bin = join(sb.dir, 'bin')
    mkdirSync(bin)
    writeFileSync(join(bin, 'finctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`)
    chmodSync(join(bin, 'finctl'), 0o755)
    env = sb.env({ PATH: `${bin}:${process.env.PATH}`, TMUX: undefined, TERM: 'xterm-256color', LANG: 'C.UTF-8', HISTFILE: '/dev/null' })
    tmux('new-session', '-d', '-s', 'tty', '-x', String(WIDTH), '-y', String(HEIGHT), 'bash --norc --noprofile')
    socketPath = tmux('display-message', '-p', '#{socket_path}').trim()
    await waitFor(/[$#] *$/m) // the shell's prompt
  })

  // A failed test may leave its command at a prompt: interrupt it so that the next test starts clean.
  afterEach(async () => {
    if (running === undefined) return
    const n = running
    running = undefined
    keys('C-c')
    await waitFor(`[exit-${n}=`, 10_000).catch(() => keys('C-c'))
  })

  afterAll(() => {
    try {
      tmux('kill-server')
    } catch {
      // already gone
    }
    if (socketPath) rmSync(socketPath, { force: true })
    sb?.cleanup()
  })

  it('finctl init asks for the company, searches currencies, masks the password typed twice', async () => {
    const run = start('finctl init')
    await waitFor(/\? Company name/)
    type('Acme Tty')
    keys('Enter')
    await waitFor(/Base currency/)
    type('eur')
    const list = await waitFor(/❯ EUR/)
    expect(list).not.toMatch(/^\s*USD\s*$/m) // filtered as typed
    keys('Enter')
    await waitFor(/\? Owner's email/)
    type('tty@example.test')
    keys('Enter')

    await waitFor(/\? Owner's password/)
    type('first-try-pw')
    keys('Enter')
    await waitFor(/\? Type it again/)
    type('other-pw-xyz')
    keys('Enter')
    await waitFor('The two passwords differ: try again.')
    await waitFor(/\? Owner's password/)
    type('tty-secret-pw')
    const masked = await waitFor('*************')
    expect(masked).not.toContain('tty-secret-pw')
    keys('Enter')
    await waitFor(/\? Type it again/)
    type('tty-secret-pw')
    keys('Enter')

    const { code, screen: s } = await run.finished()
    expect(code, s).toBe(0)
    expect(s).toContain('Created company "Acme Tty" (EUR)')
    expect(s).toMatch(/Company name.*Acme Tty/)
    expect(s).not.toContain('tty-secret-pw')
    expect(s).not.toContain('first-try-pw')
    // What was typed is what was stored: the password logs in, the company is as answered.
    expect(await sb.json(['company', '--json'])).toMatchObject({ name: 'Acme Tty', base_currency: 'EUR' })
    await sb.ok(['login', '--email', 'tty@example.test', '--password-stdin'], { input: 'tty-secret-pw\n' })
  })

  it('tx create lets one choose the account from a list, checks the date, takes the amount', async () => {
    const operating = (await sb.json(['accounts', 'create', '--name', 'Operating', '--type', 'checking', '--currency', 'EUR', '--json']))
      .id as string
    const savings = (await sb.json(['accounts', 'create', '--name', 'Savings', '--type', 'savings', '--currency', 'EUR', '--json']))
      .id as string
    const run = start('finctl tx create')
    const menu = await waitFor(/Bank account[\s\S]*Operating[\s\S]*Savings|Bank account[\s\S]*Savings[\s\S]*Operating/)
    // Move to whichever account is listed second, and pick it.
    const second = menu.indexOf('Operating (EUR') < menu.indexOf('Savings (EUR') ? 'Savings' : 'Operating'
    keys('Down')
    await waitFor(new RegExp(`❯ ${second} \\(EUR`))
    keys('Enter')

    await waitFor(/\? Date \(YYYY-MM-DD\)/)
    type('2026-13-45')
    keys('Enter')
    await waitFor('write the date as YYYY-MM-DD')
    for (let i = 0; i < 10; i++) keys('BSpace')
    type('2026-03-15')
    keys('Enter')
    await waitFor(/\? Description/)
    type('Office chairs')
    keys('Enter')
    await waitFor(/\? Amount in EUR/)
    type('-349.90')
    keys('Enter')

    const { code, screen: s } = await run.finished()
    expect(code, s).toBe(0)
    expect(s).toContain('Office chairs')
    const txs = await sb.json<Array<{ bank_account_id: string; amount: number | string; transaction_date: string; description: string }>>([
      'tx',
      'list',
      '--json',
    ])
    expect(txs).toHaveLength(1)
    expect(txs[0]).toMatchObject({
      bank_account_id: second === 'Savings' ? savings : operating,
      transaction_date: '2026-03-15',
      description: 'Office chairs',
    })
    expect(String(txs[0].amount)).toBe('-349.9')
  })

  it('tx list fits an 80-column terminal: long text wraps inside its cell, dates and amounts stay whole, no line is wider', async () => {
    const account = (await sb.json(['accounts', 'create', '--name', 'Narrow', '--type', 'checking', '--currency', 'EUR', '--json']))
      .id as string
    const long = 'Invoice 2026-042 paid by Contoso Ltd for consulting in October and November'
    const tx = await sb.json([
      'tx',
      'create',
      '--account',
      account,
      '--date',
      '2026-03-16',
      '--description',
      long,
      '--amount=-1234.56',
      '--category',
      'Consulting services',
      '--json',
    ])
    tmux('resize-window', '-t', 'tty', '-x', '80', '-y', String(HEIGHT))
    try {
      const { code, screen: s } = await start(`finctl tx list --account ${account}`).finished()
      expect(code, s).toBe(0)
      const table = s.split('\n').filter((l) => /[│┌└]/.test(l))
      // Top border, header, the row over several lines, the total, bottom border: the terminal wraps none.
      expect(table.length).toBeGreaterThan(5)
      for (const l of table) expect([...l].length, l).toBeLessThanOrEqual(80)
      // At 80 columns the id stays: a column left out is named under the table instead.
      expect(s).toContain(tx.id.slice(-8))
      expect(s).toMatch(/1 column hidden: STATUS; widen the terminal or use --output/)
      const row = table.find((l) => l.includes('2026-03-16'))!
      expect(row, s).toContain('-1,234.56 EUR')
      expect(row).toContain('Narrow')
      // Nothing cut: the description is whole, read down its column.
      expect(table.slice(2).join('\n')).not.toContain('…')
      const column = table.slice(2, -1).map((l) => l.split('│')[3] ?? '')
      expect(column.join('').replace(/\s+/g, '')).toContain(long.replace(/\s+/g, ''))
    } finally {
      tmux('resize-window', '-t', 'tty', '-x', String(WIDTH), '-y', String(HEIGHT))
    }
  })

  it('keys revoke asks to confirm: no leaves the key active (exit 2), yes revokes it', async () => {
    const key = await sb.json(['keys', 'create', '--name', 'tty-revoke', '--scopes', 'read', '--json'])
    sb.remember(key.key)
    const no = start(`finctl keys revoke ${key.id}`)
    await waitFor(new RegExp(`Revoke API key ${key.id}\\? Requests made with it will fail`))
    type('n')
    keys('Enter')
    const refused = await no.finished()
    expect(refused.code).toBe(2)
    expect(refused.screen).toContain('cancelled: nothing was changed')
    const still = (await sb.json<Array<{ id: string; is_active: boolean }>>(['keys', 'list', '--json'])).find((k) => k.id === key.id)
    expect(still?.is_active).toBe(true)

    const yes = start(`finctl keys revoke ${key.id}`)
    await waitFor(new RegExp(`Revoke API key ${key.id}\\?`))
    type('y')
    keys('Enter')
    const done = await yes.finished()
    expect(done.code, done.screen).toBe(0)
    expect(done.screen).toContain('revoked key')
    const gone = (await sb.json<Array<{ id: string; is_active: boolean; revoked_at: string | null }>>(['keys', 'list', '--json'])).find(
      (k) => k.id === key.id,
    )
    expect(gone?.revoked_at).not.toBeNull()
  })

  it('tx review: accept a suggestion, then correct the next one into a new category', async () => {
    const account = (await sb.json(['accounts', 'create', '--name', 'Review', '--type', 'checking', '--currency', 'EUR', '--json']))
      .id as string
    const q = (t: string) => `"${t.replace(/"/g, '""')}"`
    const labelled = generateDataset({ size: 600, seed: 9, start: '2026-01-01' })
    writeFileSync(
      join(sb.dir, 'labelled.csv'),
      [
        'Date,Description,Amount,Category',
        ...labelled.map((t) => [t.transaction_date, q(t.description), t.amount, q(t.category)].join(',')),
      ].join('\n'),
    )
    writeFileSync(
      join(sb.dir, 'odd.csv'),
      'Date,Description,Amount\n2026-10-01,QUOKKA COWORK SPACE A,-250.00\n2026-10-02,QUOKKA COWORK SPACE B,-250.00\n',
    )
    await sb.ok(['tx', 'import', 'labelled.csv', '--account', account, '--map', 'category=Category', '--no-progress'])
    await sb.ok(['tx', 'import', 'odd.csv', '--account', account, '--no-progress'])
    const [second, first] = await sb.json<Array<{ id: string; description: string }>>([
      'tx',
      'list',
      '--account',
      account,
      '--search',
      'QUOKKA',
      '--sort',
      'created_at',
      '--json',
    ])

    const run = start('finctl tx review --limit 2')
    const shown = await waitFor(/\? Category[\s\S]*Accept/)
    expect(shown).toMatch(/the model suggests: .+, score 0\.\d+ \(suggestions scored so are right at least \d+ times in 100\)/)
    keys('Enter') // accept the suggestion
    await waitFor(/\[2 of \d+\][\s\S]*\? Category/)
    keys('Down')
    await waitFor(/❯ Choose a category/)
    keys('Enter')
    await waitFor(/\? Category \(type to filter/)
    type('Coworking')
    await waitFor(/❯ Create category "Coworking"/)
    keys('Enter')
    await waitFor(/\? Accounting category/)
    type('operating')
    await waitFor(/❯ operating_expenses/)
    keys('Enter')
    await waitFor(/\? Cash-flow category/)
    keys('Enter')
    const { code, screen: s } = await run.finished()
    expect(code, s).toBe(0)
    expect(s).toContain('reviewed 2: 1 accepted, 1 corrected, 0 skipped')
    // Reviewed newest first: the second row of the file was accepted, the first corrected.
    const accepted = await sb.json(['tx', 'get', first.id, '--json'])
    expect(accepted.description).toBe('QUOKKA COWORK SPACE B')
    expect(accepted.category).not.toBeNull()
    expect(accepted.ai_confidence_score).toBeNull()
    const corrected = await sb.json(['tx', 'get', second.id, '--json'])
    expect(corrected).toMatchObject({
      category: 'Coworking',
      accounting_category: 'operating_expenses',
      cash_flow_category: 'operations',
      ai_confidence_score: null,
    })
  })

  it('Ctrl-C at a prompt exits 130 and writes nothing', async () => {
    const profilesBefore = readFileSync(sb.profilesPath, 'utf8')
    const init = start('finctl --profile second init')
    await waitFor(/\? Company name/)
    type('Half typed')
    keys('C-c')
    const a = await init.finished()
    expect(a.code).toBe(130)
    expect(a.screen).toContain('cancelled')
    expect(readFileSync(sb.profilesPath, 'utf8')).toBe(profilesBefore)

    const txBefore = (await sb.json<unknown[]>(['tx', 'list', '--json'])).length
    const tx = start('finctl tx create --description "Never saved" --date 2026-03-16')
    await waitFor(/Bank account/)
    keys('Enter')
    await waitFor(/\? Amount in EUR/)
    type('-1.00')
    keys('C-c')
    const b = await tx.finished()
    expect(b.code).toBe(130)
    expect((await sb.json<unknown[]>(['tx', 'list', '--json'])).length).toBe(txBefore)
  })

  it('a protected profile asks to type its name before a write', async () => {
    const key = sb.profiles().profiles.local.api_key!
    await sb.ok(['profile', 'add', 'guarded', '--database', sb.database, '--api-key-stdin', '--protected'], { input: `${key}\n` })
    const count = async () => (await sb.json<unknown[]>(['accounts', 'list', '--json'])).length
    const before = await count()

    const wrong = start('finctl --profile guarded accounts create --name Guarded --type cash --currency EUR')
    await waitFor(/Profile "guarded" is protected\. Type its name to write to embedded/)
    type('local')
    keys('Enter')
    const refused = await wrong.finished()
    expect(refused.code).toBe(2)
    expect(refused.screen).toContain('"local" is not "guarded": cancelled, nothing was changed')
    expect(await count()).toBe(before)

    const right = start('finctl --profile guarded accounts create --name Guarded --type cash --currency EUR')
    await waitFor(/Profile "guarded" is protected/)
    type('guarded')
    keys('Enter')
    const done = await right.finished()
    expect(done.code, done.screen).toBe(0)
    expect(await count()).toBe(before + 1)
  })
})
