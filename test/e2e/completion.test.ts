/**
 * End-to-end: `finctl completion bash` sourced in a real bash, its function called with
 * COMP_WORDS / COMP_CWORD set as bash sets them on Tab; `finctl` on PATH is the built CLI.
 * Also the hidden `finctl __complete` protocol, and the zsh and fish scripts.
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, Sandbox } from '../helpers/cli.js'

describe('shell completion', () => {
  let sb: Sandbox
  let binDir: string

  beforeAll(async () => {
    sb = new Sandbox('completion')
    await sb.ok(['init', '--password-stdin', '--no-input'], { input: 'password-for-completion\n' })
    await sb.ok(['profile', 'add', 'prod', '--base-url', 'http://127.0.0.1:9']) // never contacted
    await sb.ok(['profile', 'add', 'staging.eu', '--base-url', 'http://127.0.0.1:9'])
    binDir = join(sb.dir, 'bin')
    mkdirSync(binDir)
    writeFileSync(join(binDir, 'finctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`)
    chmodSync(join(binDir, 'finctl'), 0o755)
    const script = await sb.ok(['completion', 'bash'])
    writeFileSync(join(sb.dir, 'finctl.bash'), script.stdout)
  })
  afterAll(() => sb?.cleanup())

  /** What bash offers for the command line `words` (the last word is the one being completed). */
  function bashComplete(...words: string[]): string[] {
    const quoted = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ')
    const out = execFileSync(
      'bash',
      [
        '--norc',
        '--noprofile',
        '-c',
        `source "$1"; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _finctl; printf '%s\\n' "\${COMPREPLY[@]}"`,
        'bash',
        join(sb.dir, 'finctl.bash'),
      ],
      { env: { ...sb.env(), PATH: `${binDir}:${process.env.PATH}` }, encoding: 'utf8', timeout: 20_000 },
    )
    return out.split('\n').filter(Boolean)
  }

  it('the script is valid bash and registers _finctl for finctl', () => {
    const out = execFileSync(
      'bash',
      ['--norc', '--noprofile', '-c', 'source "$1" && complete -p finctl', 'bash', join(sb.dir, 'finctl.bash')],
      { encoding: 'utf8' },
    )
    expect(out.trim()).toBe('complete -F _finctl finctl')
  })

  it('completes commands and subcommands: finctl tx l -> list', () => {
    expect(bashComplete('finctl', 'tx', 'l')).toEqual(['list'])
    expect(bashComplete('finctl', 'ke')).toEqual(['keys'])
    const top = bashComplete('finctl', '')
    for (const c of ['init', 'keys', 'tx', 'accounts', 'reports', 'api', 'doctor', 'completion', 'help']) expect(top).toContain(c)
    expect(top).not.toContain('__complete')
    expect(bashComplete('finctl', 'tx', '')).toEqual(
      expect.arrayContaining(['list', 'get', 'create', 'update', 'delete', 'bulk-update', 'import']),
    )
  })

  it('completes enum values: scopes (a comma list), statuses per command, intervals, formats', () => {
    expect(bashComplete('finctl', 'keys', 'create', '--scopes', '')).toEqual(['read', 'write', 'transactions', 'close', 'webhooks'])
    expect(bashComplete('finctl', 'keys', 'create', '--name', 'ci', '--scopes', 'read,')).toEqual([
      'read,write',
      'read,transactions',
      'read,close',
      'read,webhooks',
    ])
    expect(bashComplete('finctl', 'keys', 'list', '--status', '')).toEqual(['active', 'revoked', 'expired', 'all'])
    expect(bashComplete('finctl', 'tx', 'list', '--status', '')).toEqual(['pending', 'posted', 'void'])
    expect(bashComplete('finctl', 'accounts', 'list', '--status', '')).toEqual(['active', 'inactive', 'closed'])
    expect(bashComplete('finctl', 'accounts', 'create', '--type', 'c')).toEqual(['checking', 'credit_card', 'cash'])
    expect(bashComplete('finctl', 'reports', 'cash-flow', '--interval', '')).toEqual(['day', 'week', 'month', 'quarter'])
    expect(bashComplete('finctl', '--output', '')).toEqual(['table', 'json', 'ndjson', 'csv'])
    expect(bashComplete('finctl', 'tx', 'list', '-o', 'nd')).toEqual(['ndjson'])
    expect(bashComplete('finctl', 'completion', '')).toEqual(['bash', 'zsh', 'fish'])
    expect(bashComplete('finctl', 'help', 'e')).toEqual(['exit-codes', 'environment', 'export', 'events'])
  })

  it('completes the fields of --json FIELDS, a comma list, and goes on after them', () => {
    const fields = bashComplete('finctl', 'tx', 'list', '--json', '')
    for (const f of ['id', 'amount', 'transaction_date', 'description']) expect(fields).toContain(f)
    expect(bashComplete('finctl', 'tx', 'list', '--json', 'id,am')).toEqual(['id,amount'])
    expect(bashComplete('finctl', 'reports', 'summary', '--json', '=', 'tr')).toEqual(['transaction_count', 'transfers'])
    expect(bashComplete('finctl', 'tx', 'list', '--json', 'id,amount', '--li')).toEqual(['--limit'])
    // Before a command, --json stands alone.
    expect(bashComplete('finctl', '--json', 'tx', 'l')).toEqual(['list'])
  })

  it('completes profile names from the profiles file: finctl --profile ', () => {
    expect(bashComplete('finctl', '--profile', '')).toEqual(['local', 'prod', 'staging.eu'])
    expect(bashComplete('finctl', 'profile', 'use', 's')).toEqual(['staging.eu'])
    expect(bashComplete('finctl', 'tx', 'list', '--profile', 'p')).toEqual(['prod'])
  })

  it('completes account names from the service, a name with spaces escaped', async () => {
    for (const name of ['Chase Checking', 'Amex'])
      await sb.ok(['accounts', 'create', '--name', name, '--type', 'checking', '--currency', 'USD'])
    expect(bashComplete('finctl', 'tx', 'list', '--account', '')).toEqual(['Amex', 'Chase\\ Checking'])
    expect(bashComplete('finctl', 'accounts', 'get', 'Chase\\ C')).toEqual(['Chase\\ Checking'])
    // A target that cannot be reached offers nothing, and says nothing.
    expect(bashComplete('finctl', '--profile', 'prod', 'tx', 'list', '--account', '')).toEqual([])
  })

  it('completes flags of the command and the global ones', () => {
    const flags = bashComplete('finctl', 'tx', 'list', '--')
    for (const f of ['--account', '--from', '--status', '--all', '--profile', '--output', '--help']) expect(flags).toContain(f)
    expect(bashComplete('finctl', 'keys', 'create', '--sc')).toEqual(['--scopes'])
    // A flag's value is skipped when locating the command: `--profile prod` is not a subcommand.
    expect(bashComplete('finctl', '--profile', 'prod', 'tx', 'l')).toEqual(['list'])
    // bash splits --output=json at '=': the value is completed after it, and skipped before a command.
    expect(bashComplete('finctl', '--output', '=', 'nd')).toEqual(['ndjson'])
    expect(bashComplete('finctl', '--output', '=', 'json', 'tx', 'l')).toEqual(['list'])
  })

  it('__complete tells the shell when to fall back to file names', async () => {
    const file = await sb.ok(['__complete', '--', 'tx', 'import', ''])
    expect(file.stdout.trimEnd().split('\n').pop()).toBe(':1')
    const none = await sb.ok(['__complete', '--', 'tx', 'l'])
    expect(none.stdout).toBe('list\tlist transactions (one page; --all for every page)\n:0\n')
    const list = await sb.ok(['__complete', '--', 'keys', 'create', '--scopes', 'write,'])
    expect(list.stdout).toBe('write,read\nwrite,transactions\nwrite,close\nwrite,webhooks\n:2\n')
  })

  it('prints zsh and fish scripts that call __complete; an unknown shell is a usage error', async () => {
    const zsh = await sb.ok(['completion', 'zsh'])
    expect(zsh.stdout.split('\n')[0]).toBe('#compdef finctl')
    expect(zsh.stdout).toContain('__complete --')
    expect(zsh.stdout).toContain('compdef _finctl finctl')
    const fish = await sb.ok(['completion', 'fish'])
    expect(fish.stdout).toContain("complete -c finctl -f -a '(__finctl_complete)'")
    const bad = await sb.run(['completion', 'powershell'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('powershell')
  })
})
