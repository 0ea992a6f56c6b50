/** `finctl rules` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerApply } from '../../../commands/rules/apply.js'
import { registerCreate } from '../../../commands/rules/create.js'
import { registerDelete } from '../../../commands/rules/delete.js'
import { registerGet } from '../../../commands/rules/get.js'
import { registerList } from '../../../commands/rules/list.js'
import { registerTest } from '../../../commands/rules/test.js'
import { registerUpdate } from '../../../commands/rules/update.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('rules flags', () => {
  it('create: --set takes one value and repeats; --max-amount takes a negative value', async () => {
    const { opts } = await parseFlags(
      registerCreate,
      [
        'rules',
        'create',
        '--merchant-contains',
        'uber',
        '--max-amount',
        '-0.01',
        '--set',
        'category=Travel',
        '--set',
        'tags=travel',
        '--set',
        'accounting-category=x',
      ],
      'rules',
    )
    expect(opts).toEqual({ merchantContains: 'uber', maxAmount: '-0.01', set: ['category=Travel', 'tags=travel', 'accounting-category=x'] })
  })

  it('create: --matches is the description regex flag; nothing required by commander', async () => {
    expect((await parseFlags(registerCreate, ['rules', 'create'], 'rules')).opts).toEqual({})
    expect((await parseFlags(registerCreate, ['rules', 'create', '--matches', '^aws'], 'rules')).opts).toEqual({ matches: '^aws' })
  })

  it('update: the ID before or after --set', async () => {
    const { opts, args } = await parseFlags(registerUpdate, ['rules', 'update', 'R1', '--set', 'category=Cloud', '--disable'], 'rules')
    expect(args).toEqual(['R1'])
    expect(opts).toEqual({ set: ['category=Cloud'], disable: true })
    expect((await parseFlags(registerUpdate, ['rules', 'update', '--set', 'category=Cloud', 'R1'], 'rules')).args).toEqual(['R1'])
  })

  it('test and apply: an ID or --all (the run refuses neither); --since defaults to 90d', async () => {
    expect((await parseFlags(registerTest, ['rules', 'test', '--all', '--only-empty'], 'rules')).opts).toEqual({
      since: '90d',
      all: true,
      onlyEmpty: true,
    })
    expect((await parseFlags(registerTest, ['rules', 'test', 'R1'], 'rules')).opts).toEqual({ since: '90d' })
    expect((await parseFlags(registerTest, ['rules', 'test', 'R1', '--since', '2026-01-01', '--limit', '500'], 'rules')).opts).toEqual({
      since: '2026-01-01',
      limit: '500',
    })
    expect((await parseFlags(registerApply, ['rules', 'apply', 'R1'], 'rules')).opts).toEqual({ since: '90d' })
  })

  it("apply and delete: --yes after the verb is the program's flag (the run reads both)", async () => {
    const apply = await parseFlags(registerApply, ['rules', 'apply', 'R1', '--since', '365d', '--yes'], 'rules')
    expect(apply.opts).toEqual({ since: '365d' })
    expect(apply.globals.yes).toBe(true)
    const del = await parseFlags(registerDelete, ['rules', 'delete', 'R1', '--yes'], 'rules')
    expect(del.opts.yes).toBeUndefined()
    expect(del.globals.yes).toBe(true)
  })

  it('list takes no argument; get needs ID', async () => {
    expect((await parseError(registerList, ['rules', 'list', 'R1'], 'rules')).code).toBe('commander.excessArguments')
    expect((await parseError(registerGet, ['rules', 'get'], 'rules')).code).toBe('commander.missingArgument')
  })
})
