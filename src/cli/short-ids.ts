/**
 * Ids people can type (docs/cli.md "Short ids"). Tables show an id's last 8 hex digits
 * (`shortId`): transaction and statement ids are UUIDv7, whose first 12 digits are the time they
 * were made, so the first 8 digits are shared by every row made within about 18 hours (an import's
 * million rows have one); the last ones are random. Every command that takes an id takes the whole
 * id, or any 6 or more of its hex digits from the start or from the end, when only one id has them:
 * - none: the usual "not found" (exit 5);
 * - several: exit 2, listing them.
 * Transactions are resolved by the service (`id_prefix` / `id_suffix` on the list: a range of the
 * id index, or a match over the company's rows), whatever their number; bank accounts (also by
 * name), keys, rules and statements, of which a company has far fewer, by their list.
 */
import type { Client } from '../client/client.js'
import type { BankAccount, Transaction } from '../domain/schemas.js'
import { AppError } from '../kernel/errors.js'
import { didYouMean } from '../kernel/near-names.js'
import type { IO } from './io.js'
import { showAmount } from './money.js'
import type { Printer } from './output.js'
import { printableLine } from './terminal-text.js'

/** The shortest part of an id a command takes. */
export const MIN_ID_PART = 6

const FULL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** What tables show of an id: its last 8 characters (random in every id finctl makes). */
export function shortId(id: string): string {
  return FULL_UUID.test(id) ? id.slice(-8) : id
}

/** The hex digits of a typed id part, lower case; undefined when it is not 6 to 32 hex digits (dashes aside). */
function idDigits(text: string): string | undefined {
  const hex = text.replaceAll('-', '').toLowerCase()
  return /^[0-9a-f]{6,32}$/.test(hex) && /^[0-9a-fA-F-]+$/.test(text) ? hex : undefined
}

/** Hex digits too few to name one id ("01a2"): refused before any request. */
const tooFewDigits = (text: string): boolean => /^[0-9a-fA-F-]+$/.test(text) && text.replaceAll('-', '').length < MIN_ID_PART

/** Whether `id` starts or ends with the hex digits `hex`. */
function matches(id: string, hex: string): boolean {
  const digits = id.replaceAll('-', '').toLowerCase()
  return digits.startsWith(hex) || digits.endsWith(hex)
}

function tooShort(what: string, text: string, flag: string): AppError {
  return new AppError(
    'usage',
    `${flag}: "${text}" is not ${what} id nor ${MIN_ID_PART} or more of its hex digits (the ${MIN_ID_PART}-character minimum keeps a typed id from matching many)`,
  )
}

function ambiguous<T>(what: string, text: string, flag: string, rows: T[], line: (r: T) => string, more = false): AppError {
  const count = more ? `more than ${rows.length}` : String(rows.length)
  return new AppError(
    'usage',
    `${flag}: "${text}" matches ${count} ${what}s; give more of the id:\n${rows.map((r) => `  ${line(r)}`).join('\n')}`,
  )
}

/** The full id of the transaction `text` names (a whole id, or a unique prefix or suffix of 6+ hex digits). */
export async function resolveTransactionId(client: Client, text: string, flag = 'ID'): Promise<string> {
  if (FULL_UUID.test(text)) return text
  if (tooFewDigits(text)) throw tooShort('a transaction', text, flag)
  const hex = idDigits(text)
  // No id at all: the service says it is not found, as for any unknown id.
  if (!hex) return text
  // At most 10 of each: more say only that the part is ambiguous.
  const [byStart, byEnd] = await Promise.all([
    client.transactions.list({ id_prefix: hex, limit: 10 }),
    client.transactions.list({ id_suffix: hex, limit: 10 }),
  ])
  const found = new Map<string, Transaction>()
  for (const t of [...byStart.data, ...byEnd.data]) found.set(t.id, t)
  const rows = [...found.values()]
  if (rows.length === 1) return rows[0].id
  if (rows.length === 0) throw new AppError('not_found', `transaction ${text} not found`)
  throw ambiguous(
    'transaction',
    text,
    flag,
    rows,
    (t) =>
      [t.id, t.transaction_date, showAmount(t.amount, t.currency_code, { group: true, code: true }), printableLine(t.description)].join(
        '  ',
      ),
    Boolean(byStart.pagination?.has_more || byEnd.pagination?.has_more),
  )
}

/** Full ids of several typed transaction ids (--ids), each resolved as resolveTransactionId does. */
export async function resolveTransactionIds(client: Client, texts: string[], flag: string): Promise<string[]> {
  if (texts.every((t) => FULL_UUID.test(t))) return texts
  const out: string[] = []
  for (const t of texts) out.push(await resolveTransactionId(client, t, flag))
  return out
}

/**
 * The id of the bank account `text` names: its whole id, its name (any case), or a unique
 * prefix or suffix of 6+ hex digits of its id. A whole id asks the service nothing (and opens no
 * client, when `client` is a function).
 */
export async function resolveAccountId(client: Client | (() => Promise<Client>), text: string, flag = '--account'): Promise<string> {
  if (FULL_UUID.test(text)) return text
  const { data } = await (typeof client === 'function' ? await client() : client).accounts.list()
  rememberAccounts(data)
  return pickAccount(data, text, flag).id
}

export function pickAccount(accounts: BankAccount[], text: string, flag: string): BankAccount {
  const byName = accounts.filter((a) => a.name.toLowerCase() === text.trim().toLowerCase())
  if (byName.length === 1) return byName[0]
  const line = (a: BankAccount) => `${a.id}  ${a.name}  ${a.currency_code}  ${a.status}`
  if (byName.length > 1) throw ambiguous('bank account', text, flag, byName, line)
  const hex = idDigits(text)
  if (!hex)
    throw new AppError(
      'not_found',
      `${flag}: no bank account is named "${text}"${didYouMean(
        accounts.map((a) => a.name),
        text,
      )} (see finctl accounts list; an id needs 6+ hex digits)`,
    )
  return pickOne('bank account', accounts, hex, text, flag, line)
}

/** The one of `rows` whose id starts or ends with the digits of `text`. */
function pickOne<T extends { id: string }>(what: string, rows: T[], hex: string, text: string, flag: string, line: (r: T) => string): T {
  const found = rows.filter((r) => matches(r.id, hex))
  if (found.length === 1) return found[0]
  if (found.length === 0) throw new AppError('not_found', `${what} ${text} not found`)
  throw ambiguous(what, text, flag, found, line)
}

/** The id of one of a short list's records (keys, rules) that `text` names: whole, or a unique prefix or suffix of 6+ hex digits. */
export async function resolveListedId<T extends { id: string }>(
  what: string,
  text: string,
  list: () => Promise<T[]>,
  line: (r: T) => string,
  flag = 'ID',
): Promise<string> {
  if (FULL_UUID.test(text)) return text
  if (tooFewDigits(text)) throw tooShort(`a ${what}`, text, flag)
  const hex = idDigits(text)
  if (!hex) return text
  return pickOne(what, await list(), hex, text, flag, line).id
}

/** Names of bank accounts by id, for the account column of transaction tables (columns.ts). */
export const accountNames = new Map<string, string>()

/** Remember accounts' names, so that transaction tables show them rather than ids. */
export function rememberAccounts(accounts: ReadonlyArray<{ id: string; name: string }>): void {
  for (const a of accounts) accountNames.set(a.id, a.name)
}

/** Whether a list query's --account is a name or a short id (not a whole id): the accounts' list resolves it. */
export function accountByName(query: { bank_account_id?: unknown }): boolean {
  return typeof query.bank_account_id === 'string' && !/^[0-9a-f-]{36}$/i.test(query.bank_account_id)
}

/** Tables, tab-separated rows and CSV name each row's account (JSON has its id alone). */
export function namesAccounts(printer: Printer): boolean {
  return printer.format === 'table' || printer.format === 'csv'
}

/**
 * The --account of a list query as an id (it may be a name or a short id), and the accounts' names
 * remembered for a table, tab-separated rows or CSV (their account column): one list of the accounts serves both.
 */
export async function accountsFor(
  ctx: { printer: Printer; io: IO },
  client: Client,
  query: { bank_account_id?: unknown },
  flag = '--account',
): Promise<void> {
  const named = accountByName(query)
  const table = namesAccounts(ctx.printer)
  if (!named && !table) return
  const { data } = await client.accounts.list()
  rememberAccounts(data)
  if (named) query.bank_account_id = pickAccount(data, String(query.bank_account_id), flag).id
}

/** How many of the rows a bulk change touches its question shows. */
const SHOWN = 5

/** The first rows a bulk change touches, a line each (date, amount, description), for its question; ids alone are fetched (at most SHOWN). */
export async function firstRows(client: Client, targets: Array<Pick<Transaction, 'id'> & Partial<Transaction>>): Promise<string> {
  const first: Array<Transaction | string> = []
  for (const t of targets.slice(0, SHOWN)) {
    if (t.amount !== undefined) first.push(t as Transaction)
    // An id the service does not know is named by the bulk request itself (all or nothing).
    else
      first.push(
        await client.transactions
          .get(t.id)
          .catch((e: unknown) => (e instanceof AppError && e.code === 'not_found' ? t.id : Promise.reject(e))),
      )
  }
  const lines = first.map((t) =>
    typeof t === 'string'
      ? `  ${t}  (not found)`
      : `  ${shortId(t.id)}  ${t.transaction_date}  ${showAmount(t.amount, t.currency_code, { group: true, code: true })}  ${printableLine(t.description)}`,
  )
  if (targets.length > SHOWN) lines.push(`  ... and ${targets.length - SHOWN} more`)
  return `\n${lines.join('\n')}\n`
}
