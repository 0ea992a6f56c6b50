/**
 * `finctl model status | set | retrain | evaluate` in process (test/helpers/in-process-cli.ts):
 * tables and --json, usage errors naming the flag (exit 2); evaluate is offline, shown by running
 * it with a host whose client fails (cli/cli's way: the run function with fakes). How the model
 * categorizes an import: test/commands/model/categorize-files.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runEvaluate } from '../../../commands/model/evaluate.js'
import type { VerbHost } from '../../../src/cli/runner.js'
import { tsv } from '../../helpers/cli.js'
import { InProcessSandbox, fastKey, memoryIO } from '../../helpers/in-process-cli.js'

describe('model, in process', () => {
  let sb: InProcessSandbox

  beforeAll(async () => {
    sb = new InProcessSandbox('model')
    await sb.ok(['init', '--company', 'Model Co', '--currency', 'USD', '--no-input'])
    await fastKey(sb)
    const acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    const rows: Array<[string, string]> = [
      ['AWS invoice', 'Cloud'],
      ['AWS EMEA', 'Cloud'],
      ['Uber trip', 'Travel'],
      ['Uber ride home', 'Travel'],
    ]
    for (const [description, category] of rows)
      await sb.ok([
        'tx',
        'create',
        '--account',
        acct,
        '--date',
        '2026-10-01',
        '--amount',
        '-10.00',
        '--description',
        description,
        '--category',
        category,
      ])
  })
  afterAll(() => sb?.cleanup())

  it('status (and its alias show): settings as a record, --json the same fields', async () => {
    const s = await sb.json<{ threshold: number; auto_categorize: boolean; examples: number }>(['model', 'status', '--json'])
    expect(s).toMatchObject({ threshold: 0.9, auto_categorize: true })
    expect(await sb.json(['model', 'show', '--json'])).toMatchObject({ threshold: s.threshold, examples: s.examples })
    const table = tsv((await sb.ok(['model', 'status'])).stdout)
    expect(table[0]).toEqual(['FIELD', 'VALUE'])
    expect(table).toContainEqual(['threshold', '0.9'])
  })

  it('set: the threshold and --auto; nothing to change, a bad score or a bad --auto are usage errors (exit 2)', async () => {
    expect(await sb.json(['model', 'set', '--threshold', '0.95', '--auto', 'off', '--json'])).toMatchObject({
      threshold: 0.95,
      auto_categorize: false,
    })
    expect(await sb.json(['model', 'set', '--auto', 'ON', '--json'])).toMatchObject({ threshold: 0.95, auto_categorize: true })
    const cases: Array<[string[], string]> = [
      [['model', 'set'], 'nothing to change: give --threshold or --auto'],
      [['model', 'set', '--threshold', '1.5'], '--threshold'],
      [['model', 'set', '--auto', 'maybe'], '--auto must be on or off'],
      [['model', 'evaluate', '--size', '10'], '--size'],
      [['model', 'retrain', 'now'], 'too many arguments'],
    ]
    for (const [args, message] of cases) {
      const r = await sb.run(args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr).toContain(message)
      expect(r.stdout).toBe('')
    }
  })

  it('retrain: on the labelled transactions, a note of how many', async () => {
    const r = await sb.ok(['model', 'retrain'])
    expect(r.stderr).toContain('retrained on 4 labelled transactions (2 categories)')
    expect(await sb.json(['model', 'retrain', '--json'])).toMatchObject({ trained_on: 4, labels: 2 })
  })

  it('evaluate: a table and its calibration; --json; offline (the client is never asked for)', async () => {
    const table = await sb.ok(['model', 'evaluate', '--size', '300', '--seed', '2'])
    expect(table.stdout).toContain('calibration on the held-out rows:')
    expect(table.stdout).toMatch(/^accuracy\t\d+\.\d%$/m)
    const { io, output } = memoryIO({})
    const host: VerbHost = {
      io,
      printer: { format: 'json', color: false, quiet: false, fieldsKnown: true },
      globals: {},
      client: () => Promise.reject(new Error('evaluate asked for a client')),
    }
    expect(await runEvaluate(host, { size: '300', seed: '2' })).toBe(0)
    await new Promise((r) => setImmediate(r))
    const r = JSON.parse(output().stdout) as { test: number; accuracy: number; calibration: unknown[] }
    expect(r.test).toBe(60)
    expect(r.calibration.length).toBeGreaterThan(0)
  })
})
