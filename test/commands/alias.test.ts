/**
 * `finctl alias set | list | delete`, as gh's: a short name for a command line, kept in the profile
 * file (0600), expanded before the command line is parsed; never a name that hides a command.
 */
import { readFileSync, statSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expandWords, splitWords } from '../../src/cli/aliases.js'
import { InProcessSandbox } from '../helpers/in-process-cli.js'

describe('finctl alias', () => {
  const sb = new InProcessSandbox('alias')
  beforeAll(async () => {
    await sb.ok(['init', '--no-input'])
    for (const name of ['Chase Checking', 'Amex'])
      await sb.ok(['accounts', 'create', '--name', name, '--type', 'checking', '--currency', 'USD'])
  })
  afterAll(() => sb.cleanup())

  it('set, then the alias runs its command line with the words typed after it', async () => {
    const set = await sb.ok(['alias', 'set', 'accts', 'accounts list'])
    expect(set.stderr).toContain('alias "accts" now runs "finctl accounts list"')
    const viaAlias = await sb.ok(['accts', '--json'])
    expect((JSON.parse(viaAlias.stdout) as Array<{ name: string }>).map((a) => a.name).sort()).toEqual(['Amex', 'Chase Checking'])
    // Global flags before the alias stay where they are.
    const flagFirst = await sb.ok(['--output', 'json', 'accts'])
    expect(JSON.parse(flagFirst.stdout)).toHaveLength(2)

    // A quoted word stays one word; $1 takes the first word after the alias.
    await sb.ok(['alias', 'set', 'acct', 'accounts get "$1"'])
    const one = await sb.ok(['acct', 'Chase Checking', '--json'])
    expect(JSON.parse(one.stdout)).toMatchObject({ name: 'Chase Checking' })
  })

  it('list: a table, and --json; kept in the profile file, mode 0600', async () => {
    const table = await sb.ok(['alias', 'list'])
    expect(table.stdout).toMatch(/accts\taccounts list/)
    const json = JSON.parse((await sb.ok(['alias', 'list', '--json'])).stdout)
    expect(json).toEqual([
      { name: 'acct', expansion: 'accounts get "$1"' },
      { name: 'accts', expansion: 'accounts list' },
    ])
    expect(JSON.parse(readFileSync(sb.profilesPath, 'utf8')).aliases).toMatchObject({ accts: 'accounts list' })
    if (process.platform !== 'win32') expect(statSync(sb.profilesPath).mode & 0o777).toBe(0o600)
  })

  it('refuses a name that hides a command, an expansion that is no command, and replacing without --clobber', async () => {
    for (const name of ['tx', 'transactions', 'accounts', 'alias']) {
      const r = await sb.run(['alias', 'set', name, 'accounts list'])
      expect(r.code, name).toBe(2)
      expect(r.stderr).toContain(`"${name}" is a command of finctl: an alias cannot hide it`)
    }
    const bad = await sb.run(['alias', 'set', 'x', 'acounts list'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('the expansion must start with a command of finctl (not "acounts" (did you mean "accounts"')
    const again = await sb.run(['alias', 'set', 'accts', 'tx list'])
    expect(again.code).toBe(6)
    expect(again.stderr).toContain('alias "accts" already runs "finctl accounts list": give --clobber to replace it')
    await sb.ok(['alias', 'set', 'accts', 'tx list', '--clobber'])
    expect(JSON.parse((await sb.ok(['alias', 'list', '--json'])).stdout)).toContainEqual({ name: 'accts', expansion: 'tx list' })
  })

  it('delete: gone, and an unknown name is exit 5 with the nearest', async () => {
    await sb.ok(['alias', 'delete', 'accts'])
    const gone = await sb.run(['accts'])
    expect(gone.code).toBe(2)
    const r = await sb.run(['alias', 'delete', 'acc'])
    expect(r.code).toBe(5)
    expect(r.stderr).toContain('no alias named "acc" (did you mean "acct"?)')
  })

  it('splitWords and expandWords: quotes as a shell reads them, unused words appended', () => {
    expect(splitWords(`tx list --account "Chase Checking" --search 'a "b"' x\\ y`)).toEqual([
      'tx',
      'list',
      '--account',
      'Chase Checking',
      '--search',
      'a "b"',
      'x y',
    ])
    expect(expandWords('reports summary --from $1 --to $1', ['2026-10', '--json'])).toEqual([
      'reports',
      'summary',
      '--from',
      '2026-10',
      '--to',
      '2026-10',
      '--json',
    ])
    expect(() => splitWords('tx "list')).toThrow(/not closed/)
  })
})
