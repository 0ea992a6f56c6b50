/** `finctl model` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerEvaluate } from '../../../commands/model/evaluate.js'
import { registerRetrain } from '../../../commands/model/retrain.js'
import { registerSet } from '../../../commands/model/set.js'
import { registerStatus } from '../../../commands/model/status.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('model flags', () => {
  it('status answers to `show` too', async () => {
    expect((await parseFlags(registerStatus, ['model', 'show'], 'model')).command).toBe('model status')
  })

  it('set: --auto takes a value (on or off, checked by the run), not a switch', async () => {
    expect((await parseFlags(registerSet, ['model', 'set', '--auto', 'off', '--threshold', '0.95'], 'model')).opts).toEqual({
      auto: 'off',
      threshold: '0.95',
    })
    expect((await parseError(registerSet, ['model', 'set', '--auto'], 'model')).code).toBe('commander.optionMissingArgument')
  })

  it('evaluate: no defaults at parse time (the evaluation has its own)', async () => {
    expect((await parseFlags(registerEvaluate, ['model', 'evaluate'], 'model')).opts).toEqual({})
    expect((await parseFlags(registerEvaluate, ['model', 'evaluate', '--size', '50000', '--seed', '7'], 'model')).opts).toEqual({
      size: '50000',
      seed: '7',
    })
  })

  it('retrain takes no argument', async () => {
    expect((await parseError(registerRetrain, ['model', 'retrain', 'now'], 'model')).code).toBe('commander.excessArguments')
  })
})
