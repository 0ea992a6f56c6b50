/**
 * Seeding: the steps in file order, each found again by its marker (plan.ts) and then left as it
 * is ("exists"), changed where the service allows it ("updated"), or created ("created"). A step
 * that fails is listed and the run goes on; steps that need its results are not run. With
 * `dryRun`, the same decisions are made from reads only and nothing is written.
 */
import { basename } from 'node:path'
import type { Client } from '../../client/client.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { AppError } from '../../kernel/errors.js'
import type { BankAccount, CreateTransactionRequest, Transaction } from '../../domain/schemas.js'
import type { Statement } from '../../domain/statements/schemas.js'
import { generateRows } from './generate.js'
import {
  PLACEHOLDER_ID,
  accountName,
  contentKey,
  describePatch,
  diffAccount,
  diffKey,
  diffTransaction,
  fileSha256,
  findAccount,
  importOptions,
  keyName,
  prepare,
  seedRef,
  type World,
} from './plan.js'
import { envName, materialize, type AnyStep, type Kind, type Seed, type Step, type TransactionItem } from './schema.js'
import type { Results, StepRef } from './resolve.js'

export type StepStatus = 'created' | 'updated' | 'exists' | 'failed' | 'would create' | 'would update' | 'would create or update' | 'would fail'

export interface StepOutcome {
  step: string
  kind: Kind
  status: StepStatus
  /** The object's id (accounts, statements, keys). */
  id?: string
  detail: string
  counts?: { created: number; updated: number; exists: number; failed: number }
  errors?: string[]
}

export interface SeedReport {
  file: string
  dry_run: boolean
  steps: StepOutcome[]
  /** `NAME=value` pairs for --env-out: ids of the seeded objects, and keys created by this run. */
  env: Record<string, string>
  /** Keys that existed before this run, by env name, with their key_prefix: their value is not known any more. */
  keys_without_value: Record<string, string>
  failed: number
}

export interface SeedOptions {
  dryRun?: boolean
  now: Date
  /** Called after each step (progress on stderr). */
  onStep?: (o: StepOutcome) => void
}

/** Errors after which no later step can succeed: the run stops and the CLI exits with their code. */
const FATAL = new Set(['unreachable', 'unauthorized'])

function describeError(e: unknown): string {
  if (!(e instanceof AppError)) return (e as Error)?.message ?? String(e)
  const details = (e.details ?? []).map((d) => `${d.path}: ${d.message}`).filter((d) => !e.message.includes(d))
  return [e.message, ...details].join('; ')
}

const DURATION_MS: Record<string, number> = { s: 1e3, m: 6e4, h: 3.6e6, d: 8.64e7, w: 6.048e8 }

export class SeedRun {
  private readonly results: Results = {}
  private readonly failedSteps = new Set<string>()
  private readonly contents = new Map<string, Map<string, number>>()
  private readonly report: SeedReport
  private world!: World

  constructor(
    private readonly client: Client,
    private readonly seed: Seed,
    private readonly o: SeedOptions,
  ) {
    this.report = { file: seed.path, dry_run: Boolean(o.dryRun), steps: [], env: {}, keys_without_value: {}, failed: 0 }
  }

  /** Run every step; `fatal` is the error that stopped the run early, if any. */
  async run(): Promise<{ report: SeedReport; fatal?: AppError }> {
    this.world = await prepare(this.client, this.seed)
    let fatal: AppError | undefined
    for (const step of this.seed.steps) {
      let outcome: StepOutcome
      const blocked = step.refs.find((r) => this.failedSteps.has(`${r.ns}.${r.step}`))
      if (fatal) outcome = { step: step.name, kind: step.kind, status: 'failed', detail: `not run: ${fatal.message}` }
      else if (blocked) outcome = { step: step.name, kind: step.kind, status: 'failed', detail: `not run: it needs ${blocked.ns}.${blocked.step}, which failed` }
      else {
        try {
          outcome = await this.runStep(step)
        } catch (e) {
          outcome = { step: step.name, kind: step.kind, status: 'failed', detail: describeError(e) }
          if (e instanceof AppError && FATAL.has(e.code)) fatal = e
        }
      }
      if (outcome.status === 'failed' || outcome.status === 'would fail') {
        this.failedSteps.add(`${step.ns}.${step.name}`)
        this.report.failed++
      }
      this.report.steps.push(outcome)
      this.o.onStep?.(outcome)
    }
    return { report: this.report, fatal }
  }

  private setResult(step: AnyStep, values: Record<string, string | undefined>): void {
    const ns = this.results[step.ns] ?? {}
    ns[step.name] = values
    this.results[step.ns] = ns
  }

  private env(step: AnyStep, field: string, value: string | undefined): void {
    if (value !== undefined && value !== PLACEHOLDER_ID) this.report.env[envName(step.ns, step.name, field)] = value
  }

  /** Dry run: a step's references to objects not created yet stand in as placeholders. */
  private spec<K extends Kind>(step: Step<K>) {
    const placeholder = this.o.dryRun ? (r: StepRef) => (r.field === 'id' ? PLACEHOLDER_ID : `(${r.ns}.${r.step}.${r.field})`) : undefined
    return materialize(step, this.results, placeholder)
  }

  private runStep(step: AnyStep): Promise<StepOutcome> {
    switch (step.kind) {
      case 'account':
        return this.account(step)
      case 'transactions':
        return this.transactions(step)
      case 'import':
        return this.importCsv(step)
      case 'statement':
        return this.statement(step)
      case 'api_key':
        return this.apiKey(step)
    }
  }

  // ---- bank accounts ----------------------------------------------------------------------------

  private async account(step: Step<'account'>): Promise<StepOutcome> {
    const spec = this.spec(step)
    const base = { step: step.name, kind: step.kind }
    const match = findAccount(this.world.accounts, spec)
    const dry = this.o.dryRun
    if (match.kind === 'ambiguous') {
      return { ...base, status: dry ? 'would fail' : 'failed', detail: `${match.ids.length} bank accounts are named "${match.name}" (${match.ids.join(', ')}): the seed cannot tell which is its own; rename all but one` }
    }
    let account: BankAccount | undefined
    let outcome: StepOutcome
    if (match.kind === 'none') {
      if (dry) {
        this.setResult(step, { id: undefined, name: accountName(spec), currency_code: spec.currency_code })
        return { ...base, status: 'would create', detail: `bank account "${accountName(spec)}" (${spec.account_type}, ${spec.currency_code})` }
      }
      account = await this.client.accounts.create({
        name: accountName(spec),
        account_type: spec.account_type,
        currency_code: spec.currency_code,
        institution_name: spec.institution_name,
        account_number: spec.account_number,
        opening_balance: spec.opening_balance,
        opening_balance_date: spec.opening_balance_date,
      })
      this.world.accounts.push(account)
      if (spec.status !== undefined && spec.status !== account.status) account = await this.replaceAccount(account.id, { status: spec.status })
      outcome = { ...base, status: 'created', id: account.id, detail: `bank account "${account.name}" (${account.account_type}, ${account.currency_code})` }
    } else {
      account = match.account
      const diff = diffAccount(account, spec)
      if (diff.fixed.length) {
        return { ...base, status: dry ? 'would fail' : 'failed', id: account.id, detail: `bank account "${account.name}" differs where the service cannot change it: ${diff.fixed.join('; ')}` }
      }
      const changes = describePatch(diff.patch)
      if (!changes) outcome = { ...base, status: 'exists', id: account.id, detail: `bank account "${account.name}"` }
      else if (dry) outcome = { ...base, status: 'would update', id: account.id, detail: `bank account "${account.name}": ${changes}` }
      else {
        account = await this.replaceAccount(account.id, diff.patch)
        outcome = { ...base, status: 'updated', id: account.id, detail: `bank account "${account.name}": ${changes}` }
      }
    }
    const name = outcome.status === 'would update' ? accountName(spec) : account.name
    this.setResult(step, { id: account.id, name, currency_code: account.currency_code })
    this.env(step, 'id', account.id)
    return outcome
  }

  private async replaceAccount(id: string, patch: Parameters<Client['accounts']['update']>[1]): Promise<BankAccount> {
    const updated = await this.client.accounts.update(id, patch)
    this.world.accounts = this.world.accounts.map((a) => (a.id === id ? updated : a))
    return updated
  }

  private async accountById(id: string): Promise<BankAccount> {
    const known = this.world.accounts.find((a) => a.id === id)
    if (known) return known
    return this.client.accounts.get(id).catch((e: unknown) => {
      if (e instanceof AppError && e.code === 'not_found') throw new AppError('not_found', `account: no bank account ${id}`)
      throw e
    })
  }

  // ---- transactions -------------------------------------------------------------------------------

  private async transactions(step: Step<'transactions'>): Promise<StepOutcome> {
    const spec = this.spec(step)
    const base = { step: step.name, kind: step.kind }
    const isNew = spec.bank_account_id === PLACEHOLDER_ID
    const currency = isNew ? (step.currency ?? this.world.company.base_currency) : (await this.accountById(spec.bank_account_id)).currency_code
    let rows: TransactionItem[]
    try {
      rows = spec.items ?? generateRows(spec.generate!, currencyExponent(currency)).map((r) => ({ ...r, exchange_rate: spec.generate!.exchange_rate }) as TransactionItem)
    } catch (e) {
      return { ...base, status: this.o.dryRun ? 'would fail' : 'failed', detail: (e as Error).message }
    }
    const n = rows.length
    if (this.o.dryRun) return this.planTransactions(step, rows, spec.bank_account_id, currency, isNew)

    const requests: CreateTransactionRequest[] = rows.map((r, i) => ({ ...r, bank_account_id: spec.bank_account_id, import_ref: seedRef(step.name, i + 1) }))
    const ids: Array<string | undefined> = new Array(n)
    const existing = new Map<string, number>()
    const errors: string[] = []
    let created = 0
    for (let start = 0; start < n; start += 1000) {
      const chunk = requests.slice(start, start + 1000)
      const res = await this.client.transactions.batch(chunk)
      const dup = new Map(res.duplicates.map((d) => [d.index, d.id]))
      const bad = new Map(res.errors.map((e) => [e.index, e]))
      let next = 0
      chunk.forEach((_, i) => {
        const at = start + i
        if (dup.has(i)) {
          ids[at] = dup.get(i)
          existing.set(dup.get(i)!, at)
        } else if (bad.has(i)) {
          const e = bad.get(i)!
          errors.push(`row ${at + 1}: ${describeError(new AppError('validation_error', e.message, { details: e.details }))}`)
        } else {
          ids[at] = res.created[next++]?.id
          created++
        }
      })
    }
    let updated = 0
    let patchFailed = 0
    if (existing.size) {
      for await (const t of this.accountTransactions(spec.bank_account_id, new Set(existing.keys()))) {
        const at = existing.get(t.id)!
        const patch = diffTransaction(t, rows[at], currency)
        if (!Object.keys(patch).length) continue
        try {
          await this.client.transactions.update(t.id, patch)
          updated++
        } catch (e) {
          errors.push(`row ${at + 1} (${t.id}): ${describeError(e)}`)
          patchFailed++
        }
      }
    }
    const counts = { created, updated, exists: existing.size - updated - patchFailed, failed: errors.length }
    const status: StepStatus = counts.failed ? 'failed' : created ? 'created' : updated ? 'updated' : 'exists'
    const kept = ids.filter((x): x is string => Boolean(x))
    this.setResult(step, { count: String(n), ids: kept.join(',') })
    this.env(step, 'ids', kept.join(','))
    const detail = `${n} transactions: ${counts.created} created, ${counts.updated} updated, ${counts.exists} unchanged${counts.failed ? `, ${counts.failed} failed` : ''}`
    return { ...base, status, detail, counts, ...(errors.length ? { errors } : {}) }
  }

  /** The account's transactions among `ids`, page by page, until all are found. */
  private async *accountTransactions(account: string, ids: Set<string>): AsyncGenerator<Transaction> {
    let left = ids.size
    for await (const page of this.client.pages<Transaction>('/api-v1/transactions', { bank_account_id: account, limit: 1000, sort: 'created_at' })) {
      for (const t of page.data) {
        if (!ids.has(t.id)) continue
        yield t
        if (--left === 0) return
      }
    }
  }

  /**
   * Dry run: import_ref cannot be read back, so rows are matched with the account's transactions by
   * their content (date, amount, description). An unmatched row is new, or a changed one that the
   * real run updates.
   */
  private async planTransactions(step: Step<'transactions'>, rows: TransactionItem[], account: string, currency: string, isNew: boolean): Promise<StepOutcome> {
    const base = { step: step.name, kind: step.kind }
    this.setResult(step, { count: String(rows.length), ids: undefined })
    if (isNew) return { ...base, status: 'would create', detail: `${rows.length} transactions`, counts: { created: rows.length, updated: 0, exists: 0, failed: 0 } }
    const have = await this.contentIndex(account)
    const same = takeMatches(have, rows, currency)
    const other = rows.length - same
    return {
      ...base,
      status: other ? 'would create or update' : 'exists',
      detail: `${rows.length} transactions: ${same} found by date, amount and description${other ? `, ${other} new or changed` : ''}`,
    }
  }

  /** Dry run: the account's transactions by content, read once per account and shared by its steps. */
  private async contentIndex(account: string): Promise<Map<string, number>> {
    let index = this.contents.get(account)
    if (index) return index
    index = new Map<string, number>()
    for await (const page of this.client.pages<Transaction>('/api-v1/transactions', { bank_account_id: account, limit: 1000 })) {
      for (const t of page.data) {
        const k = contentKey(t.transaction_date, t.amount, t.description, t.currency_code)
        index.set(k, (index.get(k) ?? 0) + 1)
      }
    }
    this.contents.set(account, index)
    return index
  }

  // ---- CSV imports ----------------------------------------------------------------------------------

  private async importCsv(step: Step<'import'>): Promise<StepOutcome> {
    const spec = this.spec(step)
    const base = { step: step.name, kind: step.kind }
    const file = step.file!
    const options = importOptions(spec)
    if (this.o.dryRun && spec.bank_account_id === PLACEHOLDER_ID) {
      const { planImport } = await import('../../import/csv-import.js')
      const plan = await planImport(file, options)
      this.setResult(step, { read: String(plan.dataRows), created: undefined })
      return { ...base, status: 'would create', detail: `${basename(file)}: ${plan.dataRows} rows into a new account` }
    }
    const [{ runImport }, { discardRejects }] = await Promise.all([import('../import/import-runner.js'), import('../import/reject-list.js')])
    const set = spec.set ?? {}
    const constants = { ...set, ...(set.currency_code ? { currency_code: set.currency_code.toUpperCase() } : {}) }
    const s = await runImport(this.client, file, { ...options, accountId: spec.bank_account_id, constants, dryRun: this.o.dryRun, concurrency: 2, previewRows: 5000 })
    // The first 20 are enough here: the rows past the kept ones are not read back.
    discardRejects(s.rejects_spill)
    const errors = s.rejects.slice(0, 20).map((r) => `line ${r.line}: ${r.reason}`)
    if (s.rejected > errors.length) errors.push(`... and ${s.rejected - errors.length} more rejected rows`)
    this.setResult(step, { read: String(s.read), created: String(s.created) })
    if (this.o.dryRun) {
      // Like transactions: rows are matched with the account's transactions by their content.
      const valid = s.read - s.rejected
      const same = s.preview && s.preview.length === valid ? takeMatches(await this.contentIndex(spec.bank_account_id), s.preview, s.currency) : 0
      const status: StepStatus = s.rejected ? 'would fail' : same === valid ? 'exists' : 'would create'
      const detail = `${basename(file)}: ${s.read} rows, ${valid - same} new${same ? `, ${same} found by date, amount and description` : ''}${s.rejected ? `, ${s.rejected} rejected` : ''}`
      return { ...base, status, detail, ...(errors.length ? { errors } : {}) }
    }
    const counts = { created: s.created, updated: 0, exists: s.already_imported, failed: s.rejected }
    const status: StepStatus = s.rejected ? 'failed' : s.created ? 'created' : 'exists'
    return { ...base, status, detail: `${basename(file)}: ${s.read} rows: ${s.created} created, ${s.already_imported} imported before${s.rejected ? `, ${s.rejected} rejected` : ''}`, counts, ...(errors.length ? { errors } : {}) }
  }

  // ---- statements -------------------------------------------------------------------------------------

  private async statement(step: Step<'statement'>): Promise<StepOutcome> {
    const spec = this.spec(step)
    const base = { step: step.name, kind: step.kind }
    const file = step.file!
    const { bytes, sha } = await fileSha256(file)
    if (this.o.dryRun && spec.bank_account_id === PLACEHOLDER_ID) {
      this.setResult(step, { id: undefined, status: undefined })
      return { ...base, status: 'would create', detail: `statement ${basename(file)} into a new account` }
    }
    await this.accountById(spec.bank_account_id)
    let found: Statement | undefined
    for await (const page of this.client.pages<Statement>('/api-v1/statements', { bank_account_id: spec.bank_account_id, limit: 1000 })) {
      found = page.data.find((s) => s.file_sha256 === sha && s.status !== 'failed')
      if (found) break
    }
    if (!found && this.o.dryRun) {
      this.setResult(step, { id: undefined, status: undefined })
      return { ...base, status: 'would create', detail: `statement ${basename(file)}` }
    }
    if (!found) {
      try {
        const uploaded = await this.client.statements.upload({
          bank_account_id: spec.bank_account_id,
          file_name: basename(file),
          format: spec.format,
          content_base64: bytes.toString('base64'),
          date_format: spec.date_format,
          encoding: spec.encoding,
          delimiter: spec.delimiter,
          account_number: spec.account_number,
          map: spec.map ? Object.entries(spec.map).flatMap(([f, cols]) => (Array.isArray(cols) ? cols : [cols]).map((c) => `${f === 'transaction_date' ? 'date' : f}=${c}`)) : undefined,
          where: spec.where ? Object.entries(spec.where).map(([c, v]) => `${c}=${v}`) : undefined,
          decimal_comma: spec.decimal_comma,
          skip_lines: spec.skip_lines,
          invert_sign: spec.invert_sign,
          exchange_rate: spec.exchange_rate,
        })
        const s = await this.client.statements.wait(uploaded.id)
        this.setResult(step, { id: s.id, status: s.status })
        this.env(step, 'id', s.id)
        if (s.status === 'failed') return { ...base, status: 'failed', id: s.id, detail: `statement ${basename(file)} failed: ${s.error ?? 'no reason given'}` }
        return {
          ...base,
          status: 'created',
          id: s.id,
          detail: `statement ${basename(file)}: ${s.transaction_count - s.matched_count} transactions created, ${s.matched_count} reconciled, ${s.duplicate_count} imported before`,
        }
      } catch (e) {
        // Uploaded meanwhile (another run): the service names the first statement.
        const first = e instanceof AppError && e.code === 'conflict' ? /statement ([0-9a-f-]{36})/.exec(e.message)?.[1] : undefined
        if (!first) throw e
        found = await this.client.statements.get(first)
      }
    }
    this.setResult(step, { id: found.id, status: found.status })
    this.env(step, 'id', found.id)
    return { ...base, status: 'exists', id: found.id, detail: `statement ${basename(file)} (${found.status}, uploaded ${found.created_at})` }
  }

  // ---- API keys -----------------------------------------------------------------------------------------

  private async apiKey(step: Step<'api_key'>): Promise<StepOutcome> {
    const spec = this.spec(step)
    const base = { step: step.name, kind: step.kind }
    const name = keyName(spec)
    const key = this.world.keys.find((k) => k.name === name)
    if (key) {
      this.setResult(step, { id: key.id, name, key_prefix: key.key_prefix })
      const diff = diffKey(key, spec)
      if (diff.length) {
        return {
          ...base,
          status: this.o.dryRun ? 'would fail' : 'failed',
          id: key.id,
          detail: `API key "${name}" (${key.key_prefix}…) exists with ${diff.join(', ')}: a key cannot be changed; revoke it (finctl keys revoke ${key.id}) and seed again`,
        }
      }
      this.env(step, 'id', key.id)
      this.report.keys_without_value[envName(step.ns, step.name, 'key')] = key.key_prefix
      return { ...base, status: 'exists', id: key.id, detail: `API key "${name}" (${key.key_prefix}…): it existed before, so its value is not known` }
    }
    if (this.o.dryRun) {
      this.setResult(step, { id: undefined, name, key_prefix: undefined })
      return { ...base, status: 'would create', detail: `API key "${name}" (${spec.scopes.join(',')})` }
    }
    let expiresAt = spec.expires_at
    if (spec.expires_in) {
      const m = /^(\d+)\s*([smhdw])$/i.exec(spec.expires_in)!
      expiresAt = new Date(this.o.now.getTime() + Number(m[1]) * DURATION_MS[m[2].toLowerCase()]).toISOString()
    } else if (expiresAt && /^\d{4}-\d{2}-\d{2}$/.test(expiresAt)) expiresAt = `${expiresAt}T00:00:00Z`
    const created = await this.client.keys.create({
      name,
      scopes: [...new Set(spec.scopes)],
      description: spec.description,
      expires_at: expiresAt,
      rate_limit_per_minute: spec.rate_limit_per_minute,
      rate_limit_per_day: spec.rate_limit_per_day,
    })
    const { key: secret, ...record } = created
    this.world.keys.push(record)
    this.setResult(step, { id: created.id, name, key_prefix: created.key_prefix })
    this.env(step, 'id', created.id)
    this.env(step, 'key', secret)
    return { ...base, status: 'created', id: created.id, detail: `API key "${name}" (${created.key_prefix}…, ${created.scopes.join(',')})` }
  }
}

/** How many rows have a transaction of the same content left in `have` (each match used up once). */
function takeMatches(have: Map<string, number>, rows: Array<{ transaction_date: string; amount: string | number; description: string; currency_code?: string }>, currency: string): number {
  let same = 0
  for (const r of rows) {
    const k = contentKey(r.transaction_date, r.amount, r.description, r.currency_code ?? currency)
    const left = have.get(k) ?? 0
    if (left > 0) {
      have.set(k, left - 1)
      same++
    }
  }
  return same
}

export function runSeed(client: Client, seed: Seed, o: SeedOptions): Promise<{ report: SeedReport; fatal?: AppError }> {
  return new SeedRun(client, seed, o).run()
}
