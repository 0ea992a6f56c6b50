/** `finctl policy` and `finctl approvals` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerApprove } from '../../../commands/approvals/approve.js'
import { registerList } from '../../../commands/approvals/list.js'
import { registerPolicySet, registerPolicyShow, stepsFlag, thresholdFlag, thresholdsFlag } from '../../../commands/approvals/policy.js'
import { registerReject } from '../../../commands/approvals/reject.js'
import { registerShow } from '../../../commands/approvals/show.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('policy flags', () => {
  it('show takes no argument nor flag', async () => {
    expect((await parseFlags(registerPolicyShow, ['policy', 'show'], 'policy')).opts).toEqual({})
    expect((await parseError(registerPolicyShow, ['policy', 'show', 'x'], 'policy')).code).toBe('commander.excessArguments')
  })

  it('set: --require-approval takes a list of the steps, or none', async () => {
    const { opts } = await parseFlags(registerPolicySet, ['policy', 'set', '--require-approval', 'reopen,revert'], 'policy')
    expect(opts).toEqual({ requireApproval: 'reopen,revert' })
    expect(stepsFlag(opts.requireApproval)).toEqual(['reopen', 'revert'])
    expect(stepsFlag('none')).toEqual([])
    expect(() => stepsFlag('reopen,delete')).toThrow(/--require-approval: unknown step "delete"/)
    expect(() => stepsFlag(undefined)).toThrow(/--require-approval is required/)
    expect((await parseError(registerPolicySet, ['policy', 'set', '--require-approval'], 'policy')).code).toBe(
      'commander.optionMissingArgument',
    )
  })

  it('set: --bulk-threshold goes with bulk, a whole number from 1 to 1000', async () => {
    const argv = ['policy', 'set', '--require-approval', 'bulk,key-write', '--bulk-threshold', '50']
    const { opts } = await parseFlags(registerPolicySet, argv, 'policy')
    expect(opts).toEqual({ requireApproval: 'bulk,key-write', bulkThreshold: '50' })
    expect(stepsFlag(opts.requireApproval)).toEqual(['bulk', 'key-write'])
    expect(thresholdFlag('50', ['bulk'])).toBe(50)
    expect(thresholdFlag(undefined, ['reopen'])).toBeUndefined()
    expect(() => thresholdFlag(undefined, ['bulk'])).toThrow(/--bulk-threshold N is required with bulk/)
    expect(() => thresholdFlag('5', ['reopen'])).toThrow(/--bulk-threshold goes with --require-approval bulk/)
    for (const bad of ['0', '1001', '2.5', 'many'])
      expect(() => thresholdFlag(bad, ['bulk'])).toThrow(/--bulk-threshold: ".*" is not a whole number/)
  })
})

describe('approvals flags', () => {
  it('set: --document-threshold takes AMOUNT CURRENCY pairs; --require-documents a value', async () => {
    const { opts } = await parseFlags(
      registerPolicySet,
      ['policy', 'set', '--document-threshold', '100.00', 'EUR', '50', 'usd', '--require-documents', 'on'],
      'policy',
    )
    expect(opts).toEqual({ documentThreshold: ['100.00', 'EUR', '50', 'usd'], requireDocuments: 'on' })
    expect(thresholdsFlag(opts.documentThreshold as string[])).toEqual({ EUR: '100.00', USD: '50' })
    expect(thresholdsFlag(['none', 'EUR'])).toEqual({ EUR: null })
    expect(() => thresholdsFlag(['100.00'])).toThrow('takes pairs')
  })

  it('list: --mine and --state', async () => {
    expect((await parseFlags(registerList, ['approvals', 'list'], 'approvals')).opts).toEqual({})
    const { opts } = await parseFlags(registerList, ['approvals', 'list', '--mine', '--state', 'failed'], 'approvals')
    expect(opts).toEqual({ mine: true, state: 'failed' })
  })

  it('show and approve: ID required', async () => {
    expect((await parseFlags(registerShow, ['approvals', 'show', 'P1'], 'approvals')).args).toEqual(['P1'])
    expect((await parseError(registerShow, ['approvals', 'show'], 'approvals')).code).toBe('commander.missingArgument')
    expect((await parseFlags(registerApprove, ['approvals', 'approve', 'P1'], 'approvals')).args).toEqual(['P1'])
    expect((await parseError(registerApprove, ['approvals', 'approve'], 'approvals')).code).toBe('commander.missingArgument')
  })

  it('reject: ID and --reason', async () => {
    const { opts, args } = await parseFlags(registerReject, ['approvals', 'reject', 'P1', '--reason', 'no'], 'approvals')
    expect(opts).toEqual({ reason: 'no' })
    expect(args).toEqual(['P1'])
    expect((await parseError(registerReject, ['approvals', 'reject', 'P1', '--reason'], 'approvals')).code).toBe(
      'commander.optionMissingArgument',
    )
  })
})
