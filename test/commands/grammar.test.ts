/**
 * In process (test/helpers/in-process-cli.ts): one command grammar, walked over the whole command
 * tree as `finctl --help` shows it. Every noun group takes `list`; a misspelled group or subcommand
 * gets commander's suggestion (exit 2), with --help too, instead of the help of the command before
 * it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMMAND_NAMES } from '../../commands/index.js'
import { InProcessSandbox as Sandbox } from '../helpers/in-process-cli.js'

/** The command names of a help text's "Commands:" section. */
function commandsOf(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1]
  if (!section) return []
  return [...section.split(/\n\n/)[0].matchAll(/^ {2}([a-z][a-z0-9-]*)(?:\|[a-z]+)?\b/gm)].map((m) => m[1]).filter((n) => n !== 'help')
}

/** A typo of a command name: its last letter dropped (`list` -> `lis`), or an `s` added to a short one. */
function typo(name: string): string {
  return name.length > 4 ? name.slice(0, -1) : `${name}s`
}

const NOUN_GROUPS = ['accounts', 'categories', 'keys', 'profile', 'rules', 'statements', 'tx']

describe('the command grammar', () => {
  const sb = new Sandbox('grammar')
  let tree: Map<string, string[]>

  beforeAll(async () => {
    await sb.ok(['init', '--demo', '--no-input'])
    tree = new Map()
    for (const top of commandsOf((await sb.ok(['--help'])).stdout)) tree.set(top, commandsOf((await sb.ok([top, '--help'])).stdout))
  })
  afterAll(() => sb.cleanup())

  it('finds the command tree in the help', () => {
    expect([...tree.keys()]).toEqual(expect.arrayContaining([...NOUN_GROUPS, 'reports', 'model', 'seed', 'serve', 'api']))
    expect(tree.get('tx')).toEqual(expect.arrayContaining(['list', 'get', 'create', 'import']))
  })

  it('every noun group takes list, and the group itself has it in its help', async () => {
    for (const group of NOUN_GROUPS) {
      expect(tree.get(group), group).toContain('list')
      const r = await sb.run([group, 'list', '--help'])
      expect(r.code, `${group} list --help`).toBe(0)
      expect(r.stdout).toContain(`Usage: finctl ${group} list`)
    }
  })

  it('categories list prints the categories, the same rows as the bare categories', async () => {
    const list = await sb.json(['categories', 'list', '--json'])
    expect(list.categories.length).toBeGreaterThan(0)
    expect(await sb.json(['categories', '--json'])).toEqual(list)
  })

  it('a misspelled group gets a suggestion, with and without --help', async () => {
    for (const top of tree.keys()) {
      const wrong = typo(top)
      // The singular of a group is its alias (`account`, `statement`): no typo.
      if (tree.has(wrong) || COMMAND_NAMES.has(wrong)) continue
      for (const args of [[wrong], [wrong, '--help'], [wrong, '-h']]) {
        const r = await sb.run(args)
        expect(r.code, `finctl ${args.join(' ')}: ${r.stdout}`).toBe(2)
        expect(r.stdout).toBe('')
        expect(r.stderr).toContain(`unknown command '${wrong}'`)
        // A typo near two names (logi: login, logs) lists both.
        expect(r.stderr).toMatch(new RegExp(`Did you mean (${top}\\?|one of ([a-z-]+, )*${top}(, [a-z-]+)*\\?)`))
      }
    }
  })

  it('a misspelled subcommand gets a suggestion, with and without --help', async () => {
    for (const [group, subs] of tree) {
      if (subs.length === 0 || group === 'categories') continue
      for (const sub of subs) {
        const wrong = typo(sub)
        if (subs.includes(wrong)) continue
        // `close` takes a month of its own: `close statu --help` is close's help, as commander reads it.
        for (const args of group === 'close'
          ? [[group, wrong]]
          : [
              [group, wrong],
              [group, wrong, '--help'],
            ]) {
          const r = await sb.run(args)
          expect(r.code, `finctl ${args.join(' ')}: ${r.stdout}`).toBe(2)
          expect(r.stderr).toContain(`unknown command '${wrong}'`)
          expect(r.stderr, `finctl ${args.join(' ')}`).toMatch(new RegExp(`Did you mean (one of )?[^\\n]*\\b${sub}\\b`))
        }
      }
    }
  })

  it('--help of a real command still prints its help, also after global flags with values', async () => {
    for (const args of [
      ['tx', 'list', '--help'],
      ['--profile', 'local', 'tx', '--help'],
      ['--output', 'json', 'keys', 'create', '-h'],
      ['help', 'tx'],
    ]) {
      const r = await sb.run(args)
      expect(r.code, args.join(' ')).toBe(0)
      expect(r.stdout).toMatch(/^Usage: finctl /)
    }
  })
})
