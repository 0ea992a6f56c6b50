/**
 * How soon a bounded wait ends: each test's functional half (what ends, with which error) is in the
 * suite, named beside each test here; these bound its time, twice the bound it once had in the suite
 * or more, for a machine other work keeps busy.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyRules, compileRules } from '../../src/domain/categorization/rule-matcher.js'
import { RuleConditions } from '../../src/domain/categorization/rule-schemas.js'
import { StatementFileError } from '../../src/domain/statements/parse.js'
import { parseInWorker } from '../../src/domain/statements/worker.js'
import { NOT_NOW, Turns } from '../../src/store/sqlite/turns.js'
import { InProcessSandbox } from '../helpers/in-process-cli.js'
import { HOSTILE } from '../import/statements/hostile.js'

describe('bounded waits, timed', () => {
  // test/store/writers.test.ts: gives up with its error once the bound has passed.
  it('a writer waiting its turn gives up within 2 s of a bound of 60 ms', async () => {
    const turns = new Turns(60, (waited) => new Error(`waited ${Math.round(waited)}`))
    const started = performance.now()
    await expect(turns.take(() => NOT_NOW)).rejects.toThrow(/^waited \d+$/)
    expect(performance.now() - started).toBeLessThan(2000)
  })

  // test/domain/categorize-rules.test.ts: a pathological pattern finishes, matching nothing.
  it('two pathological patterns on a 50,000-character text take under 3 s', () => {
    const rows = [
      { description_regex: '(a+)+$', actions: { category: 'X' } },
      { merchant_regex: '(.*a){20}$', actions: { tags: ['t'] } },
    ].map(({ actions, ...conditions }, i) => ({
      id: `r${i}`,
      company_id: 'c',
      position: i,
      name: `rule ${i}`,
      conditions: JSON.stringify(RuleConditions.parse(conditions)),
      actions: JSON.stringify(actions),
      is_active: 1,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    }))
    const text = `${'a'.repeat(50_000)}!`
    const started = performance.now()
    const r = applyRules(compileRules(rows), {
      description: text,
      merchant_name: text,
      amount: -1,
      currency_code: 'USD',
      bank_account_id: '0190a1b2-0000-7000-8000-000000000001',
    })
    expect(performance.now() - started).toBeLessThan(3000)
    expect(r.category).toBeUndefined()
  })

  // test/domain/statement-worker.test.ts: past its time, the worker is stopped.
  it('a parse worker with a limit of 50 ms is stopped within 20 s', async () => {
    const file = new TextEncoder().encode(HOSTILE.find((h) => h.name === 'ofx-sgml: many tiny records')!.make(40_000))
    const target = { fileName: 'hostile.ofx', format: 'ofx' as const, currency: 'EUR', exponent: 2 }
    const started = performance.now()
    const err = await parseInWorker(file, target, {}, { heapMb: 512, timeoutMs: 50 }).catch((e: Error) => e)
    expect(err).toBeInstanceOf(StatementFileError)
    expect(performance.now() - started).toBeLessThan(20_000)
  })
})

// test/commands/near-names.test.ts: a target that never answers offers no names.
describe('a Tab against a target that never answers, timed', () => {
  const sb = new InProcessSandbox('complete-timing')
  const silent = createServer(() => {})
  beforeAll(async () => {
    await sb.ok(['init', '--no-input'])
    await new Promise<void>((res) => silent.listen(0, '127.0.0.1', res))
  })
  afterAll(() => {
    silent.closeAllConnections()
    silent.close()
    sb.cleanup()
  })

  it('gives up within 10 s', async () => {
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
    const started = performance.now()
    const r = await sb.ok(['__complete', '--', '--base-url', url, '--api-key', `fds_${'a'.repeat(43)}`, 'tx', 'list', '--account', ''])
    expect(r.stdout.split('\n').filter((l) => l && !l.startsWith(':'))).toEqual([])
    expect(performance.now() - started).toBeLessThan(10_000)
  })
})
