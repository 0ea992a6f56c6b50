/** What the verbs of `finctl accounts` share: an account as a record shows it, and the note on balances that leave rows out. */
import { showAmount, unconvertedNote } from '../../src/cli/money.js'
import { say } from '../../src/cli/output.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import type { VerbHost } from '../../src/cli/runner.js'
import type { BankAccount } from '../../src/domain/schemas.js'
import { count } from '../../src/kernel/words.js'

type Out = Pick<VerbHost, 'io' | 'printer'>

/** In a table, balances in fixed decimals with the currency (as `accounts list` shows them); JSON stays as the service sends it. */
export function shown(host: Out, a: BankAccount): object {
  warnUnconverted(host, [a])
  if (host.printer.format !== 'table') return a
  const group = host.io.isStdoutTTY
  return {
    ...a,
    opening_balance: showAmount(a.opening_balance, a.currency_code, { group, code: true }),
    current_balance: showAmount(a.current_balance, a.currency_code, { group, code: true }),
    unconverted_transactions: (a.unconverted_transactions ?? [])
      .map((u) => `${u.count} in ${u.currency_code} (${showAmount(u.amount, u.currency_code, { group, code: true })})`)
      .join(', '),
  }
}

/** Balances that leave transactions out say so on stderr, whatever the format (not silenced by --quiet). */
export function warnUnconverted(host: Out, accounts: BankAccount[]): void {
  for (const a of accounts) {
    const text = unconvertedNote(a, a.unconverted_transactions ?? [])
    if (text) say(host.io, `note: ${text}`)
    const held = a.transactions_before_opening ?? 0
    if (held > 0)
      say(
        host.io,
        `note: ${count(held, 'transaction')} of "${printableLine(a.name)}" ${held === 1 ? 'is' : 'are'} dated before its opening date ${a.opening_balance_date}: its opening balance holds ${held === 1 ? 'it, so it counts' : 'them, so they count'} only in balances before that date (finctl accounts update ${a.id} --opening-balance-date DATE --opening-balance AMOUNT moves it)`,
      )
  }
}
