/**
 * Account names the accounting tools accept. finctl's own names (a bank account's, a category's)
 * become components every tool takes, beancount's rules being the strictest: a capital letter or a
 * digit first, then letters, digits and dashes, ASCII. Names given in an accounts map are checked
 * against the format's own rules instead, and refused with the reason.
 */
import type { JournalFormat } from './format.js'

const ROOTS = ['Assets', 'Liabilities', 'Equity', 'Income', 'Expenses'] as const

/** One component from any text: "Office supplies & co." -> "Office-Supplies-Co". */
export function component(text: string): string {
  const ascii = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ß/g, 'ss')
  const words = ascii.split(/[^A-Za-z0-9]+/).filter(Boolean)
  const out = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('-')
  return out || 'X'
}

const BEANCOUNT_COMPONENT = /^[A-Z0-9][A-Za-z0-9-]*$/

/** Why `name` is not an account name of `format`, or undefined when it is one. */
export function accountNameProblem(name: string, format: JournalFormat): string | undefined {
  const parts = name.split(':')
  if (parts.some((p) => p === '')) return 'has an empty component (two colons, or one at an end)'
  if (format === 'beancount') {
    if (!(ROOTS as readonly string[]).includes(parts[0])) return `must start with one of ${ROOTS.join(', ')}`
    if (parts.length < 2) return 'needs a component after the root (Assets:Bank)'
    const bad = parts.slice(1).find((p) => !BEANCOUNT_COMPONENT.test(p))
    if (bad !== undefined) return `component "${bad}" must start with a capital letter or a digit, then letters, digits or dashes`
    return undefined
  }
  // ledger and hledger: two spaces or a tab end an account name; ; starts a comment; brackets and
  // parentheses around it make a virtual posting; a leading * or ! is a status mark.
  if (/[\t\r\n;]/.test(name)) return 'must not hold a tab, a line break or ";"'
  if (/ {2}/.test(name)) return 'must not hold two spaces in a row'
  if (parts.some((p) => p !== p.trim())) return 'components must not start or end with a space'
  if (/^[([*!]|[)\]]$/.test(name)) return 'must not start with ( [ * ! or end with ) ]'
  if (/^-?\d/.test(name) || /@/.test(name)) return 'must not start with a number or hold "@"'
  return undefined
}

export function isRoot(name: string): boolean {
  return (ROOTS as readonly string[]).includes(name.split(':')[0])
}
