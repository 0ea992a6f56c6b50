/** A rule's conditions in words (rule names, `finctl rules list`), without loading the rule schemas. */
import type { RuleConditions } from './rule-schemas.js'

const IN_WORDS: Array<[keyof RuleConditions, string, quoted: boolean]> = [
  ['description_contains', 'description contains', true],
  ['description_equals', 'description is', true],
  ['description_regex', 'description matches', true],
  ['merchant_contains', 'merchant contains', true],
  ['merchant_equals', 'merchant is', true],
  ['merchant_regex', 'merchant matches', true],
  ['min_amount', 'amount >=', false],
  ['max_amount', 'amount <=', false],
  ['bank_account_id', 'account', false],
  ['currency_code', 'currency', false],
]

/** A name for a rule created without one: its conditions in words. */
export function describeConditions(c: RuleConditions): string {
  const name = IN_WORDS.filter(([k]) => c[k] !== undefined)
    .map(([k, words, quoted]) => `${words} ${quoted ? `"${c[k]}"` : c[k]}`)
    .join(' and ')
  return name.length > 200 ? `${name.slice(0, 199)}…` : name
}
