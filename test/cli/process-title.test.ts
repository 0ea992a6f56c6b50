import { describe, expect, it } from 'vitest'
import { shownArgv } from '../../src/cli/process-title.js'

describe('the command line a process list shows', () => {
  it('has *** for a database URL password and for --api-key and --token values, in both flag forms', () => {
    expect(
      shownArgv([
        'node',
        'finctl.cjs',
        'serve',
        '--database',
        'postgres://finctl:s3cret@db:5432/finctl?password=other',
        '--api-key',
        'fk_live_abc',
        '--token=eyJhbGci',
        '--token',
        'eyJ.x.y',
        '--api-key=fk_live_def',
      ]),
    ).toEqual([
      'node',
      'finctl.cjs',
      'serve',
      '--database',
      'postgres://finctl:***@db:5432/finctl?password=***',
      '--api-key',
      '***',
      '--token=***',
      '--token',
      '***',
      '--api-key=***',
    ])
  })

  it('leaves a command line without a secret as it is', () => {
    const argv = ['node', 'finctl.cjs', 'tx', 'list', '--database', 'postgres://finctl@db/finctl', '--description', 'api-key']
    expect(shownArgv(argv)).toEqual(argv)
  })
})
