/**
 * Which statement of a file belongs to the bank account, and the statement it makes: a file may
 * hold several accounts (pick the one whose number ends like the account's, or the one named by
 * `account_number`) and several periods of one account (MT940 :28C: pages, CAMT <Stmt>s), merged
 * into one statement: the overall period, the first opening and the last closing balance.
 */
import { currencyExponent } from '../../kernel/currencies.js'
import { MAX_MINOR, formatMinor } from '../../kernel/money.js'
import type { ParsedUpload, StatementLine, StatementPart } from './parse.js'
import { StatementFileError } from './parse.js'
import type { BalanceCheck } from './schemas.js'
import { count } from '../../kernel/words.js'

export interface AccountInfo {
  name: string
  currency: string
  /** Last four characters of the account number, when the account has one. */
  last4: string | null
}

export interface SelectedStatement {
  accountHint?: string
  periodStart: string | null
  periodEnd: string | null
  openingBalance: number | null
  closingBalance: number | null
  balanceCheck: BalanceCheck
  lines: StatementLine[]
  /** Sum of every line, exact (a bigint: 100,000 lines of 15 digits exceed a double). */
  sum: bigint
  warnings: string[]
}

const key = (hint: string | undefined) => (hint ?? '').replace(/[^0-9A-Za-z]/g, '').toUpperCase()
const digits = (text: string) => text.replace(/\D/g, '').length

interface Group {
  hint?: string
  parts: StatementPart[]
}

function describeGroups(groups: Group[]): string {
  return groups
    .map(
      (g) =>
        `${g.hint ?? '(unnamed)'}: ${count(
          g.parts.reduce((n, p) => n + p.lines.length, 0),
          'line',
        )}`,
    )
    .join('; ')
}

function pick(upload: ParsedUpload, account: AccountInfo, accountNumber: string | undefined): Group {
  const byKey = new Map<string, Group>()
  for (const part of upload.parts) {
    const k = key(part.accountHint)
    const g = byKey.get(k) ?? { hint: part.accountHint, parts: [] }
    g.parts.push(part)
    byKey.set(k, g)
  }
  const groups = [...byKey.values()]
  if (groups.length === 0) return { parts: [] }
  if (accountNumber !== undefined) {
    const want = key(accountNumber)
    const found = groups.filter((g) => want !== '' && key(g.hint).endsWith(want))
    if (found.length === 1) return found[0]
    const why = found.length === 0 ? `holds no account ${accountNumber}` : `holds several accounts ending in ${accountNumber}`
    throw new StatementFileError(`the file ${why}; it holds: ${describeGroups(groups)}`)
  }
  const last4 = key(account.last4 ?? '')
  if (groups.length === 1) {
    const [g] = groups
    const k = key(g.hint)
    // Names such as a QIF "!Account My Cash" are not numbers: only a number can contradict the account.
    if (last4 && digits(k) >= 4 && !k.endsWith(last4)) {
      throw new StatementFileError(
        `the file is a statement of account ${g.hint}, but bank account "${account.name}" ends in ${account.last4}: upload it to the right account, or give account_number to import it here anyway`,
      )
    }
    return g
  }
  const found = last4 ? groups.filter((g) => key(g.hint).endsWith(last4)) : []
  if (found.length === 1) return found[0]
  const why = !last4
    ? `bank account "${account.name}" has no account number to choose by`
    : found.length === 0
      ? `none of them ends in ${account.last4} like bank account "${account.name}"`
      : `several of them end in ${account.last4} like bank account "${account.name}"`
  throw new StatementFileError(
    `the file holds statements of ${groups.length} accounts (${describeGroups(groups)}) and ${why}: give account_number to choose one`,
  )
}

/** Lines named in a statement's error; all of them are its warnings. */
const NAMED_IN_ERROR = 3

/**
 * A statement is imported whole or not at all (its balance check needs every line): a transaction
 * line that cannot be read fails it, naming the lines.
 */
function refuseUnreadable(parts: StatementPart[], format: ParsedUpload['format']): void {
  const unread = parts.flatMap((p) => p.unreadable ?? [])
  if (unread.length === 0) return
  const named = unread.map((u) => (u.line === undefined ? u.reason : `line ${u.line}: ${u.reason}`))
  const more = named.length > NAMED_IN_ERROR ? `; and ${named.length - NAMED_IN_ERROR} more (all in the statement's warnings)` : ''
  const what = unread.length === 1 ? '1 transaction line' : `${unread.length} transaction lines`
  throw new StatementFileError(
    `${what} of the statement cannot be read${format === 'csv' ? ' with this mapping' : ''}, and a statement is imported whole, so nothing was imported: ${named.slice(0, NAMED_IN_ERROR).join('; ')}${more}`,
    named,
  )
}

function checkAmount(minor: number, what: string): void {
  if (!Number.isSafeInteger(minor) || Math.abs(minor) > MAX_MINOR) throw new StatementFileError(`${what} is too large`)
}

/** The statement of `account` in a parsed file; throws StatementFileError when there is none to take. */
export function selectStatement(upload: ParsedUpload, account: AccountInfo, accountNumber?: string): SelectedStatement {
  const group = pick(upload, account, accountNumber)
  refuseUnreadable(group.parts, upload.format)
  const warnings = [...upload.warnings]
  const others = upload.parts.filter((p) => !group.parts.includes(p))
  if (others.length)
    warnings.push(
      `the file also holds statements of other accounts, not imported: ${[...new Set(others.map((p) => p.accountHint ?? '(unnamed)'))].join(', ')}`,
    )
  const lines: StatementLine[] = []
  let periodStart: string | null = null
  let periodEnd: string | null = null
  let sum = 0n
  for (const part of group.parts) {
    if (part.currency && part.currency !== account.currency) {
      throw new StatementFileError(
        `the statement is in ${part.currency} but bank account "${account.name}" is in ${account.currency}: upload it to an account in ${part.currency}`,
      )
    }
    for (const d of [part.periodStart, part.periodEnd]) {
      if (d && (periodStart === null || d < periodStart)) periodStart = d
      if (d && (periodEnd === null || d > periodEnd)) periodEnd = d
    }
    for (const l of part.lines) {
      const where = l.line ? `line ${l.line}` : `the line of ${l.date}`
      if (l.currency !== account.currency) {
        throw new StatementFileError(
          `${where} is in ${l.currency} but bank account "${account.name}" is in ${account.currency}: a statement's lines must all be in the account's currency`,
        )
      }
      checkAmount(l.amountMinor, `the amount of ${where}`)
      if (periodStart === null || l.date < periodStart) periodStart = l.date
      if (periodEnd === null || l.date > periodEnd) periodEnd = l.date
      sum += BigInt(l.amountMinor)
      lines.push(l)
    }
  }
  const first = group.parts[0]
  const last = group.parts[group.parts.length - 1]
  const opening = first?.openingBalance ?? null
  const closing = last?.closingBalance ?? null
  if (opening !== null) checkAmount(opening, 'the opening balance')
  if (closing !== null) checkAmount(closing, 'the closing balance')
  const balanceCheck: BalanceCheck =
    opening === null || closing === null ? 'unavailable' : BigInt(opening) + sum === BigInt(closing) ? 'ok' : 'mismatch'
  if (balanceCheck === 'mismatch') {
    // The difference, so that a person sees how far off the file is (it starts "balance check mismatch").
    const e = currencyExponent(account.currency)
    const m = (minor: bigint | number) => `${formatMinor(minor, e)} ${account.currency}`
    const computed = BigInt(opening!) + sum
    warnings.push(
      `balance check mismatch: the file's closing balance is ${m(closing!)}, its opening balance ${m(opening!)} and its lines (${m(sum)}) make ${m(computed)}: a difference of ${m(BigInt(closing!) - computed)}`,
    )
  }
  return {
    accountHint: group.hint,
    periodStart,
    periodEnd,
    openingBalance: opening,
    closingBalance: closing,
    balanceCheck,
    lines,
    sum,
    warnings,
  }
}
