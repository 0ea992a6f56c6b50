/** The review verbs of `finctl imports` (apply, set, remap, discard) and `tx import --review`: flag parsing through runF, nothing runs. */
import type { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { registerApply } from '../../../commands/imports/apply.js'
import { registerDiscard } from '../../../commands/imports/discard.js'
import { registerRemap } from '../../../commands/imports/remap.js'
import { registerSet } from '../../../commands/imports/set.js'
import { registerImport } from '../../../commands/tx/import.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

const tx = (program: Command) => program.command('tx')

describe('imports review flags', () => {
  it('apply and discard: BATCH required, no flag of their own', async () => {
    for (const [register, verb] of [
      [registerApply, 'apply'],
      [registerDiscard, 'discard'],
    ] as const) {
      expect((await parseError(register, ['imports', verb], 'imports')).code).toBe('commander.missingArgument')
      const { args, opts, globals } = await parseFlags(register, ['imports', verb, '1a2b3c4d', '--json'], 'imports')
      expect([args, opts, globals.json]).toEqual([['1a2b3c4d'], {}, true])
      expect((await parseError(register, ['imports', verb, '1a2b3c4d', '--line', '2'], 'imports')).code).toBe('commander.unknownOption')
    }
  })

  it('remap: BATCH, --map repeated in order, --invert-sign and --no-invert-sign, --date-format', async () => {
    expect((await parseError(registerRemap, ['imports', 'remap', '--map', 'category=Memo'], 'imports')).code).toBe(
      'commander.missingArgument',
    )
    const { args, opts } = await parseFlags(
      registerRemap,
      [
        'imports',
        'remap',
        '1a2b3c4d',
        '--map',
        'category=Memo',
        '--map',
        'description=Payee',
        '--invert-sign',
        '--date-format',
        'DD.MM.YYYY',
      ],
      'imports',
    )
    expect(args).toEqual(['1a2b3c4d'])
    expect(opts).toEqual({ map: ['category=Memo', 'description=Payee'], invertSign: true, dateFormat: 'DD.MM.YYYY' })
    const off = await parseFlags(registerRemap, ['imports', 'remap', '1a2b3c4d', '--no-invert-sign'], 'imports')
    expect(off.opts).toEqual({ invertSign: false })
    expect((await parseError(registerRemap, ['imports', 'remap', '1a2b3c4d', '--line', '2'], 'imports')).code).toBe(
      'commander.unknownOption',
    )
  })

  it('set: BATCH, --line and each field as given; "" kept for the verb to clear with', async () => {
    expect((await parseError(registerSet, ['imports', 'set', '--line', '2'], 'imports')).code).toBe('commander.missingArgument')
    const { args, opts } = await parseFlags(
      registerSet,
      [
        'imports',
        'set',
        '1a2b3c4d',
        '--line',
        '12',
        '--category',
        'Travel',
        '--merchant-name',
        '',
        '--description',
        'Train',
        '--accounting-category',
        'expense',
        '--cash-flow-category',
        'operating',
        '--tags',
        'a,b',
      ],
      'imports',
    )
    expect(args).toEqual(['1a2b3c4d'])
    expect(opts).toEqual({
      line: '12',
      category: 'Travel',
      merchantName: '',
      description: 'Train',
      accountingCategory: 'expense',
      cashFlowCategory: 'operating',
      tags: 'a,b',
    })
  })

  it('tx import --review', async () => {
    const { opts } = await parseFlags(registerImport, ['tx', 'import', 'f.csv', '--review'], tx)
    expect(opts.review).toBe(true)
    expect((await parseFlags(registerImport, ['tx', 'import', 'f.csv'], tx)).opts.review).toBeUndefined()
  })
})
