/** `finctl docs` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerAdd } from '../../../commands/docs/add.js'
import { registerGet } from '../../../commands/docs/get.js'
import { registerLink } from '../../../commands/docs/link.js'
import { registerList } from '../../../commands/docs/list.js'
import { registerShow } from '../../../commands/docs/show.js'
import { registerSuggest } from '../../../commands/docs/suggest.js'
import { registerUnlink } from '../../../commands/docs/unlink.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('docs flags', () => {
  it('add: one FILE or more, --tx optional, --no-auto-link', async () => {
    expect((await parseError(registerAdd, ['docs', 'add'], 'docs')).code).toBe('commander.missingArgument')
    const { opts, args } = await parseFlags(registerAdd, ['docs', 'add', 'a.pdf', 'b.png', '--tx', 'T1'], 'docs')
    expect(args).toEqual(['a.pdf', 'b.png'])
    expect(opts).toEqual({ tx: 'T1', autoLink: true })
    expect((await parseFlags(registerAdd, ['docs', 'add', 'a.pdf', '--no-auto-link'], 'docs')).opts).toEqual({ autoLink: false })
  })

  it('suggest: ID optional, --apply a switch, --limit as text', async () => {
    expect(await parseFlags(registerSuggest, ['docs', 'suggest'], 'docs')).toMatchObject({ opts: {}, args: [] })
    const { opts, args } = await parseFlags(registerSuggest, ['docs', 'suggest', 'D1', '--apply', '--limit', '7'], 'docs')
    expect(args).toEqual(['D1'])
    expect(opts).toEqual({ apply: true, limit: '7' })
  })

  it('list: --tx, --unlinked, --limit as text, --all a switch; -o before nothing else is the format', async () => {
    expect((await parseFlags(registerList, ['docs', 'list'], 'docs')).opts).toEqual({})
    const { opts, globals } = await parseFlags(registerList, ['docs', 'list', '--unlinked', '--limit', '5', '-o', 'csv'], 'docs')
    expect(opts).toEqual({ unlinked: true, limit: '5' })
    expect(globals.output).toBe('csv')
    expect((await parseFlags(registerList, ['docs', 'list', '--tx', 'T1', '--all'], 'docs')).opts).toEqual({ tx: 'T1', all: true })
  })

  it('show: ID required', async () => {
    expect((await parseError(registerShow, ['docs', 'show'], 'docs')).code).toBe('commander.missingArgument')
    expect((await parseFlags(registerShow, ['docs', 'show', 'D1'], 'docs')).args).toEqual(['D1'])
  })

  it('get: -o and --output after the verb are the file, - included; --overwrite a switch', async () => {
    for (const argv of [
      ['docs', 'get', 'D1', '-o', 'r.pdf'],
      ['docs', 'get', 'D1', '--output', 'r.pdf'],
      ['docs', 'get', 'D1', '--output=r.pdf'],
    ]) {
      const { opts, globals } = await parseFlags(registerGet, argv, 'docs')
      expect(opts).toEqual({ outputFile: 'r.pdf' })
      expect(globals.output).toBeUndefined()
    }
    expect((await parseFlags(registerGet, ['docs', 'get', 'D1', '-o', '-', '--overwrite'], 'docs')).opts).toEqual({
      outputFile: '-',
      overwrite: true,
    })
  })

  it('link and unlink: ID and --tx required', async () => {
    for (const register of [registerLink, registerUnlink]) {
      const verb = register === registerLink ? 'link' : 'unlink'
      const err = await parseError(register, ['docs', verb, 'D1'], 'docs')
      expect(err.code).toBe('commander.missingMandatoryOptionValue')
      expect(err.message).toContain("'--tx <id>'")
      const { opts, args } = await parseFlags(register, ['docs', verb, 'D1', '--tx', 'T1'], 'docs')
      expect(args).toEqual(['D1'])
      expect(opts).toEqual({ tx: 'T1' })
    }
  })
})
