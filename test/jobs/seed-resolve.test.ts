import { describe, expect, it } from 'vitest'
import { resolveStatic, resolveSteps, shiftDate, UnresolvedRef, type KnownStep } from '../../src/jobs/seed/resolve.js'

const now = new Date('2026-03-31T15:00:00Z')
const known: KnownStep[] = [{ ns: 'accounts', name: 'operating', fields: ['id', 'name', 'currency_code'] }]

describe('resolveStatic', () => {
  it('fills in env variables and generators, and leaves step references for later', () => {
    let n = 0
    const r = resolveStatic(
      { a: '${env.CUR}', b: 'on ${today}', c: '${date:-30d}', d: '${uuid}', e: ['${accounts.operating.id}'], f: 7, g: '${now}' },
      { env: { CUR: 'EUR' }, now, known, uuid: () => `u${++n}` },
    )
    expect(r.errors).toEqual([])
    expect(r.value).toEqual({
      a: 'EUR',
      b: 'on 2026-03-31',
      c: '2026-03-01',
      d: 'u1',
      e: ['${accounts.operating.id}'],
      f: 7,
      g: '2026-03-31T15:00:00.000Z',
    })
    expect(r.refs).toEqual([{ ns: 'accounts', step: 'operating', field: 'id', path: 'e[0]' }])
  })

  it('names the field of an unset variable, an unknown step, an unknown field and an unknown generator', () => {
    const r = resolveStatic(
      {
        currency_code: '${env.NOPE}',
        bank_account_id: '${accounts.savings.id}',
        x: { y: '${accounts.operating.iban}' },
        z: '${tomorrow}',
        w: '${date:30}',
      },
      { env: {}, now, known },
    )
    expect(r.errors).toEqual([
      { path: 'currency_code', message: expect.stringContaining('environment variable NOPE is not set') },
      {
        path: 'bank_account_id',
        message: expect.stringContaining('no accounts step "savings" before this one (earlier accounts steps: operating)'),
      },
      { path: 'x.y', message: expect.stringContaining('accounts steps give id, name, currency_code, not "iban"') },
      { path: 'z', message: expect.stringContaining('unknown reference') },
      { path: 'w', message: expect.stringContaining('relative date') },
    ])
  })

  it('$${ is a literal ${, kept through both passes', () => {
    const r = resolveStatic({ d: 'cost $${env.X} and $${accounts.nope.id}' }, { env: {}, now, known })
    expect(r.errors).toEqual([])
    expect(resolveSteps(r.value, {})).toEqual({ d: 'cost ${env.X} and ${accounts.nope.id}' })
  })
})

describe('resolveSteps', () => {
  it('replaces references with results, and fails on a missing one unless a placeholder is given', () => {
    const v = { id: '${accounts.operating.id}', label: 'in ${accounts.operating.currency_code}' }
    expect(resolveSteps(v, { accounts: { operating: { id: 'A1', currency_code: 'USD' } } })).toEqual({ id: 'A1', label: 'in USD' })
    expect(() => resolveSteps(v, {})).toThrow(UnresolvedRef)
    expect(resolveSteps(v, {}, (r) => `<${r.field}>`)).toEqual({ id: '<id>', label: 'in <currency_code>' })
  })
})

describe('shiftDate', () => {
  it('moves by days, weeks, months (clamped to the month end) and years', () => {
    expect(shiftDate(now, -1, 30, 'd')).toBe('2026-03-01')
    expect(shiftDate(now, 1, 2, 'w')).toBe('2026-04-14')
    expect(shiftDate(now, -1, 1, 'm')).toBe('2026-02-28')
    expect(shiftDate(new Date('2024-02-29T00:00:00Z'), 1, 1, 'y')).toBe('2025-02-28')
  })
})
