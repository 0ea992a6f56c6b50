/** The literal prefilter of rule patterns: what it reads, and that it never turns down a row RE2 matches. */
import { RE2JS } from 're2js'
import { describe, expect, it } from 'vitest'
import { generateDataset } from '../../src/domain/categorization/dataset.js'
import { mayMatch, requiredLiterals } from '../../src/domain/categorization/regex-literals.js'
import { applyRules, compileRule } from '../../src/domain/categorization/rule-matcher.js'

const BENCH_RULE = '^(pos|visa debit|card payment) .*(shell|chevron|bp)\\b'

describe('requiredLiterals', () => {
  it('finds the literals every match holds', () => {
    expect(requiredLiterals(BENCH_RULE)).toEqual([
      ['pos ', 'visa debit ', 'card payment '],
      ['shell', 'chevron', 'bp'],
    ])
    expect(requiredLiterals('Amazon Web Services')).toEqual([['amazon web services']])
    expect(requiredLiterals('uber\\s+eats')).toEqual([['uber'], ['eats']])
    expect(requiredLiterals('(ab|cd)(ef|gh)')).toEqual([['abef', 'abgh', 'cdef', 'cdgh']])
    expect(requiredLiterals('(foo|bar)+ x')).toEqual([['foo', 'bar'], [' x']])
    expect(requiredLiterals('[abc]def\\.com')).toEqual([['def.com']])
    expect(requiredLiterals('(?:tax|vat) refund')).toEqual([['tax refund', 'vat refund']])
  })

  it('knows nothing where a match may hold none (or the syntax is not read here)', () => {
    for (const p of ['', 'x*', 'a|b.*', 'a.c', '(?i)abc', '(?s)abc', 'caf\u00e9', '\\Qab\\E', '\\x41bc', 'ab?', '(ab)?cd?', 'a{0,3}'])
      expect(requiredLiterals(p), p).toBeNull()
  })
})

describe('mayMatch', () => {
  const patterns = [
    BENCH_RULE,
    'uber\\s+eats',
    '(ab|cd)(ef|gh)',
    '^amazon',
    'web services$',
    'shell\\b',
    '(?:tax|vat) refund',
    'sk[a-z]+ks',
    'kss+',
    'pos .*kiosk',
    'stripe|square',
    '\\bbp\\b',
    '[0-9]+ acme',
  ]
  const texts = [
    ...generateDataset({ size: 4000, seed: 5 }).map((r) => r.description),
    // RE2 folds U+212A (Kelvin) with k and U+017F (long s) with s: the prefilter must let them through.
    'POS \u212Aiosk 12',
    'pos kio\u017Fk',
    'POS 4411 SHELL OIL',
    'Visa Debit CHEVRON 0099',
    'card payment \u00c9tienne BP',
    'CARD PAYMENT b\u00e9p',
    'Uber   EATS',
    'uber\teats',
    'TAX REFUND',
    '\u017F\u212Aabc\u212As',
    'k\u017F\u017F',
    'KSS',
    'AbEf',
    'x web services',
    '  pos  shell',
    '123 ACME',
  ]

  it('never turns down a row the engine matches, and turns most rows down', () => {
    let turnedDown = 0
    let checked = 0
    for (const p of patterns) {
      const sets = requiredLiterals(p)
      expect(sets, p).not.toBeNull()
      const re = RE2JS.compile(p, RE2JS.CASE_INSENSITIVE)
      for (const t of texts) {
        checked++
        if (mayMatch(sets, t)) continue
        turnedDown++
        expect(re.test(t), `${p} on ${JSON.stringify(t)}`).toBe(false)
      }
    }
    expect(turnedDown / checked).toBeGreaterThan(0.8)
  })

  it('lets the case-folded matches through', () => {
    const sets = requiredLiterals('pos .*kiosk')
    expect(mayMatch(sets, 'POS \u212Aiosk 12')).toBe(true)
    expect(mayMatch(sets, 'pos kio\u017Fk')).toBe(true)
    expect(mayMatch(sets, 'pos kiosc')).toBe(false)
    expect(RE2JS.compile('pos .*kiosk', RE2JS.CASE_INSENSITIVE).test('pos kio\u017Fk')).toBe(true)
  })

  it('gives the rules the outcomes of the engine alone', () => {
    const rows = generateDataset({ size: 4000, seed: 6 }).map((r) => ({
      description: r.description,
      merchant_name: r.description.split(' ')[0],
      amount: r.amount_minor,
      currency_code: 'USD',
      bank_account_id: 'a',
    }))
    let matched = 0
    for (const p of patterns) {
      const desc = compileRule('d', { description_regex: p }, { category: 'D' })
      const merch = compileRule('m', { merchant_regex: p }, { category: 'M' })
      expect(desc.descLiterals, p).not.toBeNull()
      const re = RE2JS.compile(p, RE2JS.CASE_INSENSITIVE)
      for (const r of rows) {
        const want = re.test(r.description)
        if (want) matched++
        expect(applyRules([desc], r).category, `${p} on ${r.description}`).toBe(want ? 'D' : undefined)
        expect(applyRules([merch], r).category).toBe(re.test(r.merchant_name) ? 'M' : undefined)
      }
    }
    expect(matched).toBeGreaterThan(50)
  })
})
