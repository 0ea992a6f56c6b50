/**
 * The file's own account: a column that names the account each row belongs to (ING's `Rekening`,
 * Sparkasse's `Auftragskonto`, the IBAN on every row of a header-less easybank file). One file may
 * hold the rows of several of the user's accounts, and a file may be another account's: neither is
 * imported into the account asked for without a word (`accountRefusal`). As a statement upload
 * does, accounts are told apart by their numbers' ends (an account shows its last four characters).
 */

/** An account number as compared: letters and digits, upper case. */
export const accountKey = (text: string): string => text.replace(/[^0-9A-Za-z]/g, '').toUpperCase()

/** A number, not a name ("Checking"): only a number can say whose rows these are. */
export const isAccountNumber = (text: string): boolean => text.replace(/\D/g, '').length >= 4

export interface FileAccounts {
  /** The account column's name, for messages. */
  column: string
  /** Each account number the rows carry: as first written, how many rows, its first line. */
  numbers: Array<{ number: string; rows: number; line: number }>
}

/** Account numbers kept apart by the plan: past this, a file is refused anyway. */
export const MAX_ACCOUNTS = 20

/** Counts the account numbers of the plan's rows (numbers only: a name is no account number). */
export class AccountTally {
  private readonly seen = new Map<string, { number: string; rows: number; line: number }>()

  add(text: string, line: number): void {
    if (!isAccountNumber(text)) return
    const key = accountKey(text)
    const n = this.seen.get(key)
    if (n) n.rows++
    else if (this.seen.size < MAX_ACCOUNTS) this.seen.set(key, { number: text.trim(), rows: 1, line })
  }

  result(column: string): FileAccounts | undefined {
    return this.seen.size ? { column, numbers: [...this.seen.values()] } : undefined
  }
}

export interface AccountInfo {
  name: string
  /** The last four characters of its number, when it has one. */
  last4: string | null
}

const endsLike = (number: string, last4: string | null) => last4 !== null && last4 !== '' && accountKey(number).endsWith(accountKey(last4))

/**
 * Why the rows cannot go into `target` as they are, or undefined. `chosen`: --account-number, the
 * rows of that account only (then a file of several is no problem, and the user says where they go).
 */
export function accountRefusal(
  file: FileAccounts | undefined,
  target: AccountInfo,
  others: AccountInfo[],
  chosen?: string,
): string | undefined {
  if (!file || chosen !== undefined) return undefined
  const { numbers, column } = file
  if (numbers.length > 1) {
    const list = numbers.map((n) => `${n.number}: ${n.rows} ${n.rows === 1 ? 'row' : 'rows'}`).join(', ')
    return `the file holds the rows of ${numbers.length} accounts (${list}, in its column "${column}"): import one at a time with --account-number NUMBER (its last digits are enough) or --where "${column}=NUMBER"; nothing was imported`
  }
  const [{ number }] = numbers
  const owner = others.find((a) => endsLike(number, a.last4))
  if (target.last4 && !endsLike(number, target.last4))
    return `the file's rows are of account ${number} (its column "${column}"), but bank account "${target.name}" ends in ${target.last4}${owner ? `: they are bank account "${owner.name}"'s, import them there (--account "${owner.name}")` : ''}; to import them into "${target.name}" anyway, give --account-number ${number}; nothing was imported`
  if (!target.last4 && owner)
    return `the file's rows are of account ${number} (its column "${column}"), which is bank account "${owner.name}" (it ends in ${owner.last4}): import them there (--account "${owner.name}"), or give --account-number ${number} to import them into "${target.name}" anyway; nothing was imported`
  return undefined
}

/** Whether a row's account number is the one --account-number chose (its end is enough). */
export function isChosenAccount(text: string, chosen: string): boolean {
  const key = accountKey(chosen)
  return key !== '' && accountKey(text).endsWith(key)
}
