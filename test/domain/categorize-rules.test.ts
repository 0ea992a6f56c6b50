/** The pure rule matcher: each condition kind, exact amount bounds, precedence, tags, safe regexes. */
import { describe, expect, it } from 'vitest'
import {
  applyRules,
  applyRulesInto,
  checkPatterns,
  compileRules,
  type RuleInput,
  type RuleOutcome,
} from '../../src/domain/categorization/rule-matcher.js'
import { CreateRuleRequest, RuleConditions } from '../../src/domain/categorization/rule-schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { zodDetails } from '../../src/domain/validation.js'
import type { CategorizationRuleRow } from '../../src/store/schema.js'

const ACCOUNT = '0190a1b2-0000-7000-8000-000000000001'
const OTHER_ACCOUNT = '0190a1b2-0000-7000-8000-000000000002'

let n = 0
function rule(conditions: object, actions: object, o: { position?: number; active?: boolean; id?: string } = {}): CategorizationRuleRow {
  n++
  return {
    id: o.id ?? `r${n}`,
    company_id: 'c',
    position: o.position ?? n,
    name: `rule ${n}`,
    conditions: JSON.stringify(RuleConditions.parse(conditions)),
    actions: JSON.stringify(actions),
    is_active: o.active === false ? 0 : 1,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  }
}

function row(o: Partial<RuleInput> = {}): RuleInput {
  return {
    description: 'Card payment AWS EMEA',
    merchant_name: 'Amazon Web Services',
    amount: -12_345,
    currency_code: 'USD',
    bank_account_id: ACCOUNT,
    ...o,
  }
}

/** The category one rule with these conditions gives the row, or undefined. */
function hits(conditions: object, r: RuleInput): boolean {
  return applyRules(compileRules([rule(conditions, { category: 'X' })]), r).category === 'X'
}

describe('conditions', () => {
  it('description contains / equals: case-insensitive, needle and text trimmed', () => {
    expect(hits({ description_contains: 'aws' }, row())).toBe(true)
    expect(hits({ description_contains: '  PAYMENT aws ' }, row())).toBe(true)
    expect(hits({ description_contains: 'azure' }, row())).toBe(false)
    expect(hits({ description_equals: 'card payment aws emea' }, row({ description: '  Card Payment AWS EMEA ' }))).toBe(true)
    expect(hits({ description_equals: 'card payment aws' }, row())).toBe(false)
    expect(hits({ description_contains: 'äpfel' }, row({ description: 'ÄPFEL Markt' }))).toBe(true)
  })

  it('merchant contains / equals / regex see the merchant as given; no merchant fails them', () => {
    expect(hits({ merchant_contains: 'web serv' }, row())).toBe(true)
    expect(hits({ merchant_equals: 'AMAZON WEB SERVICES' }, row())).toBe(true)
    expect(hits({ merchant_equals: 'Amazon' }, row())).toBe(false)
    expect(hits({ merchant_regex: '^amazon\\b' }, row())).toBe(true)
    expect(hits({ merchant_regex: '^web' }, row())).toBe(false)
    for (const c of [{ merchant_contains: 'a' }, { merchant_equals: 'a' }, { merchant_regex: '.*' }])
      expect(hits(c, row({ merchant_name: null }))).toBe(false)
  })

  it('description regex: RE2 syntax, case-insensitive, matches anywhere unless anchored', () => {
    expect(hits({ description_regex: 'aws\\s+emea' }, row())).toBe(true)
    expect(hits({ description_regex: '^card' }, row())).toBe(true)
    expect(hits({ description_regex: '^aws' }, row())).toBe(false)
    expect(hits({ description_regex: '(aws|gcp) emea$' }, row())).toBe(true)
  })

  it('account and currency', () => {
    expect(hits({ bank_account_id: ACCOUNT }, row())).toBe(true)
    expect(hits({ bank_account_id: OTHER_ACCOUNT }, row())).toBe(false)
    expect(hits({ currency_code: 'USD' }, row())).toBe(true)
    expect(hits({ currency_code: 'EUR' }, row())).toBe(false)
  })

  it('every condition given must hold', () => {
    const c = { description_contains: 'aws', merchant_contains: 'amazon', currency_code: 'USD', bank_account_id: ACCOUNT, max_amount: '0' }
    expect(hits(c, row())).toBe(true)
    expect(hits(c, row({ amount: 1 }))).toBe(false)
    expect(hits(c, row({ merchant_name: 'Google' }))).toBe(false)
  })
})

describe('amount bounds: inclusive, exact in minor units of the row currency', () => {
  it('two-decimal currency, strings and numbers', () => {
    expect(hits({ min_amount: '-123.45' }, row())).toBe(true)
    expect(hits({ min_amount: '-123.44' }, row())).toBe(false)
    expect(hits({ max_amount: -123.45 }, row())).toBe(true)
    expect(hits({ max_amount: -123.46 }, row())).toBe(false)
    expect(hits({ min_amount: -200, max_amount: '-100' }, row())).toBe(true)
    expect(hits({ min_amount: '0' }, row())).toBe(false)
    // 0.1 + 0.2 style: 0.3 as a number is exactly 30 cents
    expect(hits({ min_amount: 0.3, max_amount: 0.3 }, row({ amount: 30 }))).toBe(true)
  })

  it('three-decimal (BHD) and zero-decimal (JPY) currencies', () => {
    const bhd = row({ currency_code: 'BHD', amount: -1_234 }) // -1.234 BHD
    expect(hits({ min_amount: '-1.234', max_amount: '-1.234' }, bhd)).toBe(true)
    expect(hits({ max_amount: '-1.235' }, bhd)).toBe(false)
    expect(hits({ min_amount: '-1.233' }, bhd)).toBe(false)
    const jpy = row({ currency_code: 'JPY', amount: -500 })
    expect(hits({ min_amount: '-500', max_amount: '-500' }, jpy)).toBe(true)
    expect(hits({ max_amount: '-501' }, jpy)).toBe(false)
  })

  it('rule values with more decimals than the currency compare exactly', () => {
    // -123.45 USD vs bounds between cents
    expect(hits({ min_amount: '-123.455' }, row())).toBe(true)
    expect(hits({ min_amount: '-123.449' }, row())).toBe(false)
    expect(hits({ max_amount: '-123.445' }, row())).toBe(true)
    expect(hits({ max_amount: '-123.4501' }, row())).toBe(false)
    expect(hits({ min_amount: '-123.450000000' }, row())).toBe(true)
    // JPY 100 against 99.5 .. 100.5; and 100.0001 excludes it from below
    const jpy = row({ currency_code: 'JPY', amount: 100 })
    expect(hits({ min_amount: '99.5', max_amount: '100.5' }, jpy)).toBe(true)
    expect(hits({ min_amount: '100.0001' }, jpy)).toBe(false)
    expect(hits({ max_amount: '99.9999' }, jpy)).toBe(false)
    // positive rows too: 0.001 USD is above 0 cents but below 1 cent
    expect(hits({ min_amount: '0.001' }, row({ amount: 1 }))).toBe(true)
    expect(hits({ min_amount: '0.001' }, row({ amount: 0 }))).toBe(false)
    expect(hits({ max_amount: '0.009' }, row({ amount: 1 }))).toBe(false)
  })

  it('large amounts stay exact (15 digits)', () => {
    const big = row({ amount: 999_999_999_999_999 })
    expect(hits({ min_amount: '9999999999999.99' }, big)).toBe(true)
    expect(hits({ min_amount: '9999999999999.991' }, big)).toBe(false)
  })
})

describe('several rules', () => {
  it('for each field the first matching rule (lowest position) wins; tags are unioned; rule_ids name contributors', () => {
    const rows = [
      rule({ description_contains: 'aws' }, { category: 'Cloud', tags: ['infra', 'monthly'] }, { position: 2, id: 'b' }),
      rule(
        { merchant_contains: 'amazon' },
        { category: 'Shopping', accounting_category: 'operating_expenses', tags: ['amazon'] },
        { position: 1, id: 'a' },
      ),
      rule({ currency_code: 'USD' }, { category: 'Other', cash_flow_category: 'operations', tags: ['monthly'] }, { position: 3, id: 'c' }),
      rule({ description_contains: 'aws' }, { category: 'Never', tags: ['infra'] }, { position: 4, id: 'd' }),
      rule({ description_contains: 'azure' }, { merchant_name: 'Microsoft' }, { position: 5, id: 'e' }),
    ]
    expect(applyRules(compileRules(rows), row())).toEqual({
      category: 'Shopping',
      accounting_category: 'operating_expenses',
      cash_flow_category: 'operations',
      add_tags: ['amazon', 'infra', 'monthly'],
      rule_ids: ['a', 'b', 'c'],
    })
  })

  it('inactive rules are skipped; no match gives nothing', () => {
    const rows = [
      rule({ description_contains: 'aws' }, { category: 'Off', tags: ['off'] }, { position: 1, active: false }),
      rule({ description_contains: 'aws' }, { category: 'On' }, { position: 2, id: 'on' }),
    ]
    expect(compileRules(rows)).toHaveLength(1)
    expect(applyRules(compileRules(rows), row())).toEqual({ category: 'On', add_tags: [], rule_ids: ['on'] })
    expect(applyRules(compileRules(rows), row({ description: 'Rent' }))).toEqual({ add_tags: [], rule_ids: [] })
    expect(applyRules([], row())).toEqual({ add_tags: [], rule_ids: [] })
  })
})

describe('one outcome for many rows (an import)', () => {
  it('applyRulesInto a reused outcome gives what applyRules gives, row after row', () => {
    const rules = compileRules([
      rule({ description_contains: 'aws' }, { category: 'Cloud', tags: ['infra'] }),
      rule({ description_regex: '^card payment .*(emea|shell)' }, { merchant_name: 'Card', tags: ['card'] }),
      rule({ merchant_equals: 'shell' }, { accounting_category: 'fuel' }),
    ])
    const rows = [
      row(),
      row({ description: 'SEPA transfer' }),
      row({ description: '  CARD PAYMENT SHELL 42 ', merchant_name: ' Shell ' }),
      row({ description: 'Card payment ſhell', merchant_name: 'SHELL' }),
      row({ description: 'nothing' }),
    ]
    const out: RuleOutcome = { add_tags: [], rule_ids: [] }
    for (const r of [...rows, ...[...rows].reverse()]) expect({ ...applyRulesInto(rules, r, out) }).toEqual(applyRules(rules, r))
  })

  it('lower-casing and trimming commute on every code point (each text is lower-cased once, then trimmed)', () => {
    let differ = 0
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c)
      for (const t of [ch, ` ${ch}`, `${ch}\u00a0`, `AΣ${ch}`, `${ch}AΣ `, `AΣ\u3000${ch}`])
        if (t.trim().toLowerCase() !== t.toLowerCase().trim()) differ++
    }
    expect(differ).toBe(0)
  })
})

describe('compiled once per process', () => {
  it('the same rule row gives the same compiled rule; a changed condition or action compiles anew', () => {
    const r = rule({ description_regex: '^pos .*shell' }, { category: 'Fuel' }, { id: 'fuel' })
    const [first] = compileRules([r])
    expect(compileRules([{ ...r, position: 7 }])[0]).toBe(first)
    const moved = compileRules([{ ...r, conditions: JSON.stringify({ description_regex: '^pos .*bp' }) }])[0]
    expect(moved).not.toBe(first)
    expect(applyRules([moved], row({ description: 'POS 12 BP' })).category).toBe('Fuel')
    expect(applyRules([first], row({ description: 'POS 12 BP' })).category).toBeUndefined()
    const renamed = compileRules([{ ...r, actions: JSON.stringify({ category: 'Car' }) }])[0]
    expect(applyRules([renamed], row({ description: 'pos 1 shell' })).category).toBe('Car')
  })
})

describe('regex safety and validation', () => {
  // A backtracking engine would not finish these in a lifetime; how soon they finish: test/timing/bounded-waits.test.ts.
  it('a pathological pattern on a 50,000-character text finishes (linear time)', () => {
    const rules = compileRules([
      rule({ description_regex: '(a+)+$' }, { category: 'X' }),
      rule({ merchant_regex: '(.*a){20}$' }, { tags: ['t'] }),
    ])
    const text = `${'a'.repeat(50_000)}!`
    const r = applyRules(rules, row({ description: text, merchant_name: text }))
    expect(r.category).toBeUndefined()
    expect(r.add_tags).toEqual([])
  })

  it('refuses invalid, too long and too complex patterns, naming the field', () => {
    const paths = (conditions: object) => {
      const r = CreateRuleRequest.safeParse({ conditions, actions: { category: 'X' } })
      if (!r.success) return zodDetails(r.error).map((d) => `${d.path}: ${d.message}`)
      try {
        checkPatterns(r.data.conditions)
        return []
      } catch (e) {
        expect(e).toBeInstanceOf(AppError)
        return ((e as AppError).details ?? []).map((d) => `${d.path}: ${d.message}`)
      }
    }
    expect(paths({ description_regex: '(unclosed' })).toEqual([
      expect.stringMatching(/^conditions\.description_regex: is not a valid regular expression .*missing closing \)/),
    ])
    expect(paths({ merchant_regex: '(?<=x)y' })).toEqual([
      expect.stringMatching(/^conditions\.merchant_regex: is not a valid regular expression/),
    ])
    expect(paths({ description_regex: 'a'.repeat(501) })).toEqual(['conditions.description_regex: must be at most 500 characters'])
    expect(paths({ description_regex: '.{1000}'.repeat(3) })).toEqual([
      expect.stringMatching(/^conditions\.description_regex: is too complex/),
    ])
    expect(paths({ description_regex: 'aws|amazon' })).toEqual([])
  })

  it('refuses empty conditions or actions, bad amounts, min above max and unknown fields', () => {
    const paths = (body: object) => {
      const r = CreateRuleRequest.safeParse(body)
      return r.success ? [] : zodDetails(r.error).map((d) => d.path)
    }
    expect(paths({ conditions: {}, actions: { category: 'X' } })).toEqual(['conditions'])
    expect(paths({ conditions: { currency_code: 'USD' }, actions: {} })).toEqual(['actions'])
    expect(paths({ conditions: { min_amount: '1e3' }, actions: { category: 'X' } })).toEqual(['conditions.min_amount'])
    expect(paths({ conditions: { max_amount: 'ten' }, actions: { category: 'X' } })).toEqual(['conditions.max_amount'])
    expect(paths({ conditions: { min_amount: '10.001', max_amount: 10 }, actions: { category: 'X' } })).toEqual(['conditions.max_amount'])
    expect(paths({ conditions: { currency_code: 'usd', colour: 'red' }, actions: { accounting_category: 'food' } }).sort()).toEqual([
      'actions.accounting_category',
      'conditions.colour',
      'conditions.currency_code',
    ])
    expect(paths({ conditions: { description_contains: '   ' }, actions: { tags: [] } }).sort()).toEqual([
      'actions.tags',
      'conditions.description_contains',
    ])
  })
})
