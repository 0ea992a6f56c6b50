/**
 * Categorization rules, the matcher. `applyRules` runs for every imported row, so everything that
 * can be done once per rule (lower-cased needles, compiled regexes, amount bounds per currency
 * exponent) is done by `compileRules`, once a process. A row without the literals a regex needs
 * never reaches it (./regex-literals.ts). Regexes run on RE2 (re2js): linear in the text, never
 * backtracking; patterns are capped in length and in compiled size, so one match costs at most
 * size x text length.
 */
import { RE2JS, RE2JSException } from 're2js'
import type { CategorizationRuleRow } from '../../store/schema.js'
import { currencyExponent, isCurrency } from '../../kernel/currencies.js'
import { validation } from '../../kernel/errors.js'
import { mayMatchLower, requiredLiterals } from './regex-literals.js'
import { MAX_PATTERN_SIZE, minorBound, parseDecimal, type RuleActions, type RuleConditions } from './rule-schemas.js'

/** Compile a case-insensitive pattern, or say why it cannot be used. */
function compilePattern(pattern: string): RE2JS | string {
  let re: RE2JS
  try {
    re = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE)
  } catch (e) {
    if (!(e instanceof RE2JSException)) throw e
    const why = (e as RE2JSException & { error?: string }).error ?? e.message
    return `is not a valid regular expression (RE2 syntax): ${why}`
  }
  const size = re.programSize()
  return size > MAX_PATTERN_SIZE
    ? `is too complex (${size} instructions, at most ${MAX_PATTERN_SIZE}): use fewer or smaller repetitions`
    : re
}

/** Refuse a rule whose patterns RE2 cannot compile or that compile too large (a 400 naming the field). */
export function checkPatterns(c: RuleConditions, path = 'conditions'): void {
  for (const field of ['description_regex', 'merchant_regex'] as const) {
    const p = c[field]
    if (p === undefined) continue
    const r = compilePattern(p)
    if (typeof r === 'string') throw validation(`${path}.${field}`, r)
  }
}

// ---- the matcher ----------------------------------------------------------------------------

export interface CompiledRule {
  readonly id: string
  readonly accountId: string | null
  readonly currency: string | null
  /** Inclusive bounds in minor units, by currency exponent (0 to 4). */
  readonly min: readonly number[] | null
  readonly max: readonly number[] | null
  /** Lower-cased, trimmed needles. */
  readonly descEquals: string | null
  readonly descContains: string | null
  readonly descRegex: RE2JS | null
  /** Literals the regex needs (./regex-literals.ts): a row without them never runs the engine. */
  readonly descLiterals: string[][] | null
  readonly merchEquals: string | null
  readonly merchContains: string | null
  readonly merchRegex: RE2JS | null
  readonly merchLiterals: string[][] | null
  readonly category: string | undefined
  readonly accounting_category: string | undefined
  readonly cash_flow_category: string | undefined
  readonly merchant_name: string | undefined
  readonly tags: readonly string[]
}

/** A transaction row as rules see it (a stored or a new row will do). */
export interface RuleInput {
  description: string
  merchant_name?: string | null
  /** Minor units of currency_code (PostgreSQL may hand a bigint back as text). */
  amount: number | string
  currency_code: string
  bank_account_id: string
}

export interface RuleOutcome {
  category?: string
  accounting_category?: string
  cash_flow_category?: string
  merchant_name?: string
  add_tags: string[]
  rule_ids: string[]
}

const EXPONENTS = [0, 1, 2, 3, 4]
const SET_FIELDS = ['category', 'accounting_category', 'cash_flow_category', 'merchant_name'] as const
const bounds = (v: string | number | undefined, round: 'ceil' | 'floor') => {
  if (v === undefined) return null
  const d = parseDecimal(v)
  if (!d) throw new Error(`stored rule amount ${String(v)} is not a decimal`)
  return EXPONENTS.map((exp) => minorBound(d, exp, round))
}
const lower = (s: string | undefined) => (s === undefined ? null : s.trim().toLowerCase())
const regex = (p: string | undefined) => {
  if (p === undefined) return null
  const r = compilePattern(p)
  if (typeof r === 'string') throw new Error(`stored rule pattern ${r}`)
  return r
}

export function compileRule(id: string, c: RuleConditions, a: RuleActions): CompiledRule {
  return {
    id,
    accountId: c.bank_account_id ?? null,
    currency: c.currency_code ?? null,
    min: bounds(c.min_amount, 'ceil'),
    max: bounds(c.max_amount, 'floor'),
    descEquals: lower(c.description_equals),
    descContains: lower(c.description_contains),
    descRegex: regex(c.description_regex),
    descLiterals: c.description_regex === undefined ? null : requiredLiterals(c.description_regex),
    merchEquals: lower(c.merchant_equals),
    merchContains: lower(c.merchant_contains),
    merchRegex: regex(c.merchant_regex),
    merchLiterals: c.merchant_regex === undefined ? null : requiredLiterals(c.merchant_regex),
    category: a.category,
    accounting_category: a.accounting_category,
    cash_flow_category: a.cash_flow_category,
    merchant_name: a.merchant_name,
    tags: a.tags ?? [],
  }
}

/** Rules compiled in this process, by id, conditions and actions: an import loads the rules for each batch. */
const compiled = new Map<string, CompiledRule>()
/** A few companies' rules (each keeps at most 1,000); past it the map starts again. */
const MAX_COMPILED = 4_000

/** The active rules, in position order, each compiled once. */
export function compileRules(rows: CategorizationRuleRow[]): CompiledRule[] {
  return rows
    .filter((r) => Number(r.is_active) === 1)
    .sort((x, y) => x.position - y.position || (x.id < y.id ? -1 : 1))
    .map((r) => {
      const key = `${r.id}\u0000${r.conditions}\u0000${r.actions}`
      let c = compiled.get(key)
      if (!c) {
        c = compileRule(r.id, JSON.parse(r.conditions) as RuleConditions, JSON.parse(r.actions) as RuleActions)
        if (compiled.size >= MAX_COMPILED) compiled.clear()
        compiled.set(key, c)
      }
      return c
    })
}

/**
 * What the rules set on one row: for each field the first matching rule that sets it wins; tags
 * of every matching rule are added; `rule_ids` are the rules that contributed something. Merchant
 * conditions see the row's merchant_name as given; a row without one fails them.
 */
export function applyRules(rules: readonly CompiledRule[], row: RuleInput): RuleOutcome {
  return applyRulesInto(rules, row, { add_tags: [], rule_ids: [] })
}

/** `applyRules` into `out`, emptied first (an import's path: no object a row). */
export function applyRulesInto(rules: readonly CompiledRule[], row: RuleInput, out: RuleOutcome): RuleOutcome {
  out.category = out.accounting_category = out.cash_flow_category = out.merchant_name = undefined
  if (out.add_tags.length) out.add_tags = []
  if (out.rule_ids.length) out.rule_ids = []
  // Each text lower-cased once, for the needles and the regexes' literals alike (the same
  // text: lower-casing and trimming commute, checked over every code point).
  let descLow: string | undefined
  let merchLow: string | undefined
  let desc: string | undefined
  let merch: string | undefined
  let exp = -2
  let amount: number | undefined
  for (const r of rules) {
    if (r.accountId !== null && r.accountId !== row.bank_account_id) continue
    if (r.currency !== null && r.currency !== row.currency_code) continue
    if (r.min !== null || r.max !== null) {
      if (exp === -2) exp = isCurrency(row.currency_code) ? currencyExponent(row.currency_code) : -1
      if (exp < 0) continue
      amount ??= Number(row.amount)
      if (r.min !== null && amount < r.min[exp]) continue
      if (r.max !== null && amount > r.max[exp]) continue
    }
    if (r.descEquals !== null || r.descContains !== null) {
      descLow ??= row.description.toLowerCase()
      desc ??= descLow.trim()
      if (r.descEquals !== null && desc !== r.descEquals) continue
      if (r.descContains !== null && !desc.includes(r.descContains)) continue
    }
    if (r.descRegex !== null) {
      descLow ??= row.description.toLowerCase()
      if (!(mayMatchLower(r.descLiterals, descLow) && r.descRegex.test(row.description))) continue
    }
    if (r.merchEquals !== null || r.merchContains !== null || r.merchRegex !== null) {
      if (row.merchant_name == null) continue
      if (r.merchEquals !== null || r.merchContains !== null) {
        merchLow ??= row.merchant_name.toLowerCase()
        merch ??= merchLow.trim()
        if (r.merchEquals !== null && merch !== r.merchEquals) continue
        if (r.merchContains !== null && !merch.includes(r.merchContains)) continue
      }
      if (r.merchRegex !== null) {
        merchLow ??= row.merchant_name.toLowerCase()
        if (!(mayMatchLower(r.merchLiterals, merchLow) && r.merchRegex.test(row.merchant_name))) continue
      }
    }
    let contributed = false
    for (const f of SET_FIELDS) {
      const value = r[f]
      if (value !== undefined && out[f] === undefined) {
        out[f] = value
        contributed = true
      }
    }
    for (const t of r.tags) {
      if (out.add_tags.includes(t)) continue
      out.add_tags.push(t)
      contributed = true
    }
    if (contributed) out.rule_ids.push(r.id)
  }
  return out
}
