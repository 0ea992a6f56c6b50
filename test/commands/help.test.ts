/**
 * In process (test/helpers/in-process-cli.ts): help. Walks the program tree as a user sees it
 * (`--help` of each command, following its "Commands:" list) and checks that every leaf command has
 * a one-line description and an example; the help topics; `finctl help COMMAND...`; the first-run
 * message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox as Sandbox } from '../helpers/in-process-cli.js'

/** The subcommand names listed under "Commands:" in a help text (without commander's `help` of a group). */
function subcommands(help: string, group: boolean): string[] {
  const m = /\nCommands:\n([\s\S]*?)(\n\n|$)/.exec(help)
  if (!m) return []
  return m[1]
    .split('\n')
    .filter((l) => /^ {2}\S/.test(l))
    .map((l) => l.trim().split(/\s+/)[0].replace(/\|.*$/, ''))
    .filter((name) => !(group && name === 'help'))
}

describe('help', () => {
  let sb: Sandbox
  beforeAll(() => {
    sb = new Sandbox('help')
  })
  afterAll(() => sb?.cleanup())

  it('every leaf command has a one-line description and at least one example', async () => {
    const leaves: Array<{ path: string[]; help: string }> = []
    const walk = async (path: string[]): Promise<void> => {
      const r = await sb.run([...path, '--help'])
      expect(r.code, `finctl ${path.join(' ')} --help: ${r.stderr}`).toBe(0)
      const subs = subcommands(r.stdout, path.length > 0)
      if (subs.length === 0) leaves.push({ path, help: r.stdout })
      for (const s of subs) await walk([...path, s])
    }
    await walk([])
    // The walk reached the groups and the new commands (a broken parse would find nothing).
    const names = leaves.map((l) => l.path.join(' '))
    for (const n of [
      'keys create',
      'tx list',
      'tx import',
      'accounts delete',
      'api',
      'doctor',
      'completion',
      'help',
      'profile protect',
      'close status',
      'close reopen',
    ])
      expect(names).toContain(n)
    expect(leaves.length).toBeGreaterThan(35)
    const problems: string[] = []
    for (const { path, help } of leaves) {
      const lines = help.split('\n')
      // commander prints: Usage line, a blank line, then the description paragraph.
      expect(lines[0], path.join(' ')).toMatch(/^Usage: finctl /)
      const description = lines[2] ?? ''
      if (!description.trim() || /^(Options|Arguments):/.test(description)) problems.push(`${path.join(' ')}: no description`)
      if (!/\nExamples?:\n {2}finctl /.test(help)) problems.push(`${path.join(' ')}: no example`)
    }
    expect(problems).toEqual([])
  }, 120_000)

  it('help exit-codes lists every exit code of docs/cli.md', async () => {
    const r = await sb.ok(['help', 'exit-codes'])
    for (const [code, word] of [
      ['0', 'ok'],
      ['1', 'unexpected failure'],
      ['2', 'usage error'],
      ['3', 'not authenticated'],
      ['4', 'forbidden'],
      ['5', 'not found'],
      ['6', 'validation error or conflict'],
      ['7', 'rate limited'],
      ['8', 'partial success'],
      ['10', 'cannot reach the target'],
      ['11', 'the database cannot take the command'],
      ['13', '`finctl verify`: the audit trail is broken'],
      ['14', '`webhooks test`, `events resend`: a webhook endpoint did not answer 2xx'],
      ['15', 'the step waits for approval'],
      ['130', 'cancelled'],
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^ {2}${code} +${word}`, 'm'))
    }
  })

  it('help environment names each FINCTL_* variable and the precedence', async () => {
    const r = await sb.ok(['help', 'environment'])
    for (const v of [
      'FINCTL_PROFILE',
      'FINCTL_BASE_URL',
      'FINCTL_API_KEY',
      'FINCTL_TOKEN',
      'FINCTL_DATABASE',
      'FINCTL_CONFIG_DIR',
      'FINCTL_DATA_DIR',
      'FINCTL_MAX_RETRIES',
      'FINCTL_BUSY_TIMEOUT_MS',
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^ {2}${v} `, 'm'))
    }
    expect(r.stdout).toContain('a flag wins over its variable, the variable over the profile, the\nprofile over the default')
  })

  it("help COMMAND... prints that command's help; an unknown topic is a usage error", async () => {
    const viaHelp = await sb.ok(['help', 'tx', 'list'])
    const viaFlag = await sb.ok(['tx', 'list', '--help'])
    expect(viaHelp.stdout).toBe(viaFlag.stdout)
    const root = await sb.ok(['help'])
    expect(root.stdout).toContain('Help topics: finctl help exit-codes, finctl help environment')
    const bad = await sb.run(['help', 'nonsense'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('no help topic or command "nonsense"')
  })

  it('first run: `finctl` with no profile explains in three lines how to start', async () => {
    const r = await sb.run([])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('')
    const lines = r.stderr.trimEnd().split('\n')
    expect(lines).toHaveLength(3)
    expect(lines[1]).toMatch(/^ {2}finctl init/)
    expect(lines[2]).toMatch(/^ {2}finctl profile add NAME --base-url URL && finctl login/)
  })
})
