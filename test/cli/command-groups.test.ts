/**
 * The command groups of commands/index.ts, loaded on demand: the table names every top-level command
 * its group registers, a command line loads its own group alone, and the word that picks the group
 * is the one commander dispatches (src/cli/program.ts, topCommandName).
 */
import { describe, expect, it } from 'vitest'
import { COMMAND_NAMES, GROUPS, registerAll, registerGroupOf } from '../../commands/index.js'
import type { IO } from '../../src/cli/io.js'
import { createProgram, topCommandName } from '../../src/cli/program.js'

const run = () => async () => {}
const namesOf = (program: ReturnType<typeof createProgram>) => program.commands.flatMap((c) => [c.name(), ...c.aliases()])

describe('command groups', () => {
  it('each group names exactly the top-level commands and aliases its module registers', async () => {
    for (const group of GROUPS) {
      const program = createProgram({} as IO)
      const register = await group.load()
      register(program, run)
      expect(namesOf(program)).toEqual(group.names)
    }
    const all = createProgram({} as IO)
    await registerAll(all, run)
    expect(namesOf(all)).toEqual(GROUPS.flatMap((g) => g.names))
    expect(new Set(namesOf(all))).toEqual(COMMAND_NAMES)
  })

  it('a command loads its own group alone; help, no command and an unknown one load them all', async () => {
    const tx = createProgram({} as IO)
    await registerGroupOf(tx, run, 'tx')
    expect(namesOf(tx)).toEqual(['tx', 'transactions'])
    const categories = createProgram({} as IO)
    await registerGroupOf(categories, run, 'categories')
    expect(namesOf(categories)).toEqual(['company', 'categories'])
    for (const name of ['help', undefined, 'nope']) {
      const program = createProgram({} as IO)
      await registerGroupOf(program, run, name)
      expect(namesOf(program), String(name)).toEqual([...COMMAND_NAMES])
    }
  })

  it('the top-level command is the first word that is no value of a global flag', () => {
    const program = createProgram({} as IO)
    const top = (...argv: string[]) => topCommandName(program, argv, COMMAND_NAMES)
    expect(top('tx', 'list')).toBe('tx')
    expect(top('--profile', 'tx', 'keys', 'show')).toBe('keys')
    expect(top('--profile=work', '-o', 'json', '--no-color', '-q', 'keys', 'show')).toBe('keys')
    expect(top('--json', 'tx', 'list')).toBe('tx')
    expect(top('--json', 'id,amount', 'tx', 'list')).toBe('tx')
    expect(top('--json', '--limit', 'tx')).toBe('tx')
    expect(top('tz', 'list')).toBeUndefined()
    expect(top('--json', 'no!', 'tx')).toBeUndefined()
    expect(top('--', 'tx')).toBeUndefined()
    expect(top('--help')).toBeUndefined()
    expect(top()).toBeUndefined()
  })
})
