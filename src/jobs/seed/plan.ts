/**
 * Before the first write: read what the target already holds (company, bank accounts, API keys)
 * and check what can be checked without writing (each CSV file of an import step is read and
 * planned). Also the comparisons that decide whether an object "exists" or is "updated", shared
 * by the dry run and the real run.
 *
 * How seeded objects are found again (the marker lives in the service, not in a local file):
 * - bank account: by its name (exactly; `renamed_from` lists earlier names). Two accounts with the
 *   name: the step fails rather than guess.
 * - transaction: `import_ref` `seed.<step>.<n>`, unique per account in the service.
 * - statement: the file's SHA-256 among the account's statements (the service refuses the same
 *   file twice for an account, naming the first).
 * - API key: an active key with the name.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { Client } from '../../client/client.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { AppError } from '../../kernel/errors.js'
import { parseAmount, parseRate } from '../../kernel/money.js'
import type { BankAccount, Company, Transaction, UpdateBankAccountRequest, UpdateTransactionRequest } from '../../domain/schemas.js'
import type { ApiKey } from '../../domain/api-keys/schemas.js'
import type { CsvMapping } from '../../import/plan.js'
import type { Role } from '../../import/mapping.js'
import type { AccountSpec, ApiKeySpec, ImportSpec, Seed, StatementSpec, TransactionItem } from './schema.js'
import { materialize } from './schema.js'
import { SeedInvalid } from './validate.js'

/** Stands in for the id of an object a dry run would create. */
export const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000'

export interface World {
  company: Company
  accounts: BankAccount[]
  /** Active keys, when the file has api_key steps. */
  keys: ApiKey[]
}

/** Read the target and check the files; throws before anything is written. */
export async function prepare(client: Client, seed: Seed): Promise<World> {
  const needsKeys = seed.steps.some((s) => s.kind === 'api_key')
  if (needsKeys && !client.hasToken) {
    throw new AppError(
      'unauthorized',
      'api_key steps need the login token (key administration uses the JWT): run `finctl login` first, or give --token',
    )
  }
  const company = await client.company()
  const accounts = (await client.accounts.list()).data
  const keys = needsKeys ? await client.keys.list('active') : []
  const problems: Array<{ path: string; message: string }> = []
  const { planImport, ImportError } = await import('../../import/plan.js')
  for (const step of seed.steps) {
    if (step.kind !== 'import') continue
    const spec = materialize(step, {}, () => PLACEHOLDER_ID)
    try {
      await planImport(step.file!, importOptions(spec))
    } catch (e) {
      if (!(e instanceof ImportError)) throw e
      problems.push({ path: `${step.label} file`, message: `${step.file}: ${e.message}` })
    }
  }
  if (problems.length) throw new SeedInvalid(problems)
  return { company, accounts, keys }
}

// ---- accounts -------------------------------------------------------------------------------

export type AccountMatch =
  | { kind: 'none' }
  | { kind: 'found'; account: BankAccount; renamed: boolean }
  | { kind: 'ambiguous'; name: string; ids: string[] }

export function accountName(spec: AccountSpec): string {
  return spec.name ?? spec.account
}

export function findAccount(accounts: BankAccount[], spec: AccountSpec): AccountMatch {
  for (const [i, name] of [accountName(spec), ...(spec.renamed_from ?? [])].entries()) {
    const hits = accounts.filter((a) => a.name === name)
    if (hits.length > 1) return { kind: 'ambiguous', name, ids: hits.map((a) => a.id) }
    if (hits.length === 1) return { kind: 'found', account: hits[0], renamed: i > 0 }
  }
  return { kind: 'none' }
}

export interface AccountDiff {
  patch: UpdateBankAccountRequest
  /** Differences the service cannot change (the currency). */
  fixed: string[]
}

export function diffAccount(a: BankAccount, spec: AccountSpec): AccountDiff {
  const patch: UpdateBankAccountRequest = {}
  const fixed: string[] = []
  const name = accountName(spec)
  if (a.name !== name) patch.name = name
  if (spec.institution_name !== undefined && (a.institution_name ?? '') !== spec.institution_name)
    patch.institution_name = spec.institution_name
  if (a.account_type !== spec.account_type) patch.account_type = spec.account_type
  if (spec.status !== undefined && a.status !== spec.status) patch.status = spec.status
  if (a.currency_code !== spec.currency_code) fixed.push(`currency_code is ${a.currency_code}, the seed says ${spec.currency_code}`)
  // The service changes these too: an opening balance moving a closed month is refused there, with its reason.
  if (spec.opening_balance !== undefined) {
    const exp = currencyExponent(a.currency_code)
    const want = parseAmount(spec.opening_balance, exp)
    const have = parseAmount(String(a.opening_balance), exp)
    if (want.ok && have.ok && want.minor !== have.minor) patch.opening_balance = spec.opening_balance
  }
  if (spec.opening_balance_date !== undefined && a.opening_balance_date !== spec.opening_balance_date)
    patch.opening_balance_date = spec.opening_balance_date
  if (spec.account_number !== undefined && a.account_number_last4 !== spec.account_number.replace(/[\s-]/g, '').slice(-4))
    patch.account_number = spec.account_number
  return { patch, fixed }
}

export function describePatch(patch: object): string {
  return (
    Object.entries(patch)
      // An account number is shown by its end, as the service keeps it.
      .map(([k, v]) =>
        k === 'account_number' && typeof v === 'string'
          ? `account number → ending ${v.replace(/[\s-]/g, '').slice(-4)}`
          : `${k} → ${Array.isArray(v) ? v.join(',') : JSON.stringify(v)}`,
      )
      .join(', ')
  )
}

// ---- transactions -----------------------------------------------------------------------------

/** The import_ref of the n-th (1-based) transaction of a step: its identity in the service. */
export function seedRef(step: string, n: number): string {
  return `seed.${step}.${n}`
}

/** Fields the seed gives that differ from the transaction as it is; fields left out are left as they are. */
export function diffTransaction(t: Transaction, want: TransactionItem, currency: string): UpdateTransactionRequest {
  const patch: UpdateTransactionRequest = {}
  if (t.transaction_date !== want.transaction_date) patch.transaction_date = want.transaction_date
  if (want.posted_date !== undefined && t.posted_date !== want.posted_date) patch.posted_date = want.posted_date
  if (t.description !== want.description) patch.description = want.description
  const exp = currencyExponent(want.currency_code ?? currency)
  const a = parseAmount(want.amount, exp)
  const b = parseAmount(String(t.amount), exp)
  if (!a.ok || !b.ok || a.minor !== b.minor) patch.amount = want.amount
  if (want.currency_code !== undefined && t.currency_code !== want.currency_code) patch.currency_code = want.currency_code
  if (want.exchange_rate !== undefined && parseRate(want.exchange_rate) !== parseRate(t.exchange_rate))
    patch.exchange_rate = want.exchange_rate
  for (const f of ['category', 'accounting_category', 'cash_flow_category', 'merchant_name'] as const) {
    if (want[f] !== undefined && t[f] !== want[f]) (patch as Record<string, unknown>)[f] = want[f]
  }
  if (want.tags !== undefined && JSON.stringify(t.tags) !== JSON.stringify(want.tags)) patch.tags = want.tags
  return patch
}

/** A row's content, for the dry run (which cannot read import_ref): date, amount in minor units, description. */
export function contentKey(date: string, amount: string | number, description: string, currency: string): string {
  const r = parseAmount(amount, currencyExponent(currency))
  return `${date}\u0000${r.ok ? r.minor : String(amount)}\u0000${description}`
}

// ---- imports and statements -------------------------------------------------------------------

const ROLE_ALIASES: Record<string, Role> = { transaction_date: 'date' }

/** CSV reading options of an import or statement step, as the importer takes them. */
export function importOptions(spec: ImportSpec | StatementSpec): CsvMapping {
  const map: Array<[Role, string]> = []
  for (const [field, cols] of Object.entries(spec.map ?? {})) {
    for (const col of Array.isArray(cols) ? cols : [cols]) map.push([ROLE_ALIASES[field] ?? (field as Role), col])
  }
  return {
    map: map.length ? map : undefined,
    delimiter: spec.delimiter,
    encoding: spec.encoding,
    dateFormat: spec.date_format,
    decimalComma: spec.decimal_comma,
    skipLines: spec.skip_lines,
    noHeader: spec.no_header,
    ...(spec.no_layout ? { layouts: false as const } : {}),
    where: spec.where ? Object.entries(spec.where) : undefined,
    invertSign: spec.invert_sign,
    indicatorDebit: 'indicator_debit' in spec ? spec.indicator_debit : undefined,
  }
}

export async function fileSha256(path: string): Promise<{ bytes: Buffer; sha: string }> {
  const bytes = await readFile(path)
  return { bytes, sha: createHash('sha256').update(bytes).digest('hex') }
}

// ---- API keys ---------------------------------------------------------------------------------

export function keyName(spec: ApiKeySpec): string {
  return spec.name ?? spec.api_key
}

/** What differs between an existing key and the seed (keys cannot be changed, only revoked). */
export function diffKey(k: ApiKey, spec: ApiKeySpec): string[] {
  const out: string[] = []
  const have = [...k.scopes].sort().join(',')
  const want = [...new Set(spec.scopes)].sort().join(',')
  if (have !== want) out.push(`scopes ${have} (the seed says ${want})`)
  if (spec.rate_limit_per_minute !== undefined && k.rate_limit_per_minute !== spec.rate_limit_per_minute)
    out.push(`rate_limit_per_minute ${k.rate_limit_per_minute} (the seed says ${spec.rate_limit_per_minute})`)
  if (spec.rate_limit_per_day !== undefined && k.rate_limit_per_day !== spec.rate_limit_per_day)
    out.push(`rate_limit_per_day ${k.rate_limit_per_day} (the seed says ${spec.rate_limit_per_day})`)
  if (spec.description !== undefined && k.description !== spec.description)
    out.push(`description "${k.description}" (the seed says "${spec.description}")`)
  return out
}
