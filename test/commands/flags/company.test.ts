/** `finctl company | categories` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerList } from '../../../commands/categories/list.js'
import { registerShow } from '../../../commands/company/show.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('company and categories flags', () => {
  it('company: a command of its own at the root, no argument; company show the same', async () => {
    expect((await parseFlags(registerShow, ['company', '--json'])).globals.json).toBe(true)
    expect((await parseFlags(registerShow, ['company', 'show', '--json'])).command).toBe('company show')
    expect((await parseError(registerShow, ['company', 'shoe'])).code).toBe('commander.unknownCommand')
    expect((await parseError(registerShow, ['company', 'show', 'x'])).code).toBe('commander.excessArguments')
  })

  it('categories alone runs categories list, with the global flags after it', async () => {
    const { command, globals } = await parseFlags(registerList, ['categories', '--output', 'csv'], 'categories')
    expect(command).toBe('categories list')
    expect(globals.output).toBe('csv')
    expect((await parseFlags(registerList, ['categories', 'list'], 'categories')).command).toBe('categories list')
  })
})
