/**
 * `--json FIELDS`, `--jq EXPR` and `--template TPL` (as gh's): what a command prints as JSON, cut to
 * some fields, filtered by jq, or formatted by a template (template.ts). The fields each command
 * prints are listed here, checked against the service's schemas by a test, so that a wrong field is
 * refused before any request and completion can offer them.
 */
import { AppError } from '../kernel/errors.js'
import { TRANSACTION_FIELDS } from '../kernel/transaction-fields.js'
import { jsonText } from './terminal-text.js'
import { wholeNumber } from './flags.js'
import { Interrupted } from './interrupt.js'

/** How long a --jq filter may run unless --jq-timeout says otherwise. */
export const JQ_TIMEOUT_SECONDS = 10

const TRANSACTION = TRANSACTION_FIELDS
const EVENT = ['id', 'type', 'company_id', 'created_at', 'sequence', 'object_id', 'actor', 'data'] as const
const WEBHOOK = [
  'id',
  'url',
  'description',
  'events',
  'status',
  'disabled_reason',
  'cursor',
  'failed_attempts',
  'next_attempt_at',
  'failing_since',
  'created_at',
  'updated_at',
] as const
const SEND_RESULT = ['endpoint_id', 'url', 'ok', 'status_code', 'error', 'duration_ms'] as const
const BANK_ACCOUNT = [
  'id',
  'name',
  'institution_name',
  'account_type',
  'account_number_last4',
  'currency_code',
  'status',
  'opening_balance',
  'opening_balance_date',
  'opening_exchange_rate',
  'opening_exchange_rate_date',
  'current_balance',
  'unconverted_transactions',
  'transactions_before_opening',
  'created_at',
  'updated_at',
] as const
const API_KEY = [
  'id',
  'name',
  'key_prefix',
  'scopes',
  'description',
  'last_used_at',
  'usage_count',
  'rate_limit_per_minute',
  'rate_limit_per_day',
  'is_active',
  'expires_at',
  'revoked_at',
  'created_at',
  'created_by',
  'rolled_to',
  'rolled_from',
  'grace_ends_at',
  'agent',
] as const
const STATEMENT = [
  'id',
  'bank_account_id',
  'file_name',
  'format',
  'file_sha256',
  'file_size',
  'file_kept',
  'file_note',
  'status',
  'period_start',
  'period_end',
  'opening_balance',
  'closing_balance',
  'currency_code',
  'balance_check',
  'line_count',
  'transaction_count',
  'duplicate_count',
  'matched_count',
  'error',
  'warnings',
  'created_at',
  'processed_at',
  // On the upload's answer only (the import batch it opened).
  'batch_id',
] as const
const RULE = ['id', 'name', 'position', 'conditions', 'actions', 'is_active', 'created_at', 'updated_at'] as const

/**
 * The fields of the JSON each command prints (of each item, for a list), by command path. A command
 * not listed here has its fields checked against what it prints.
 */
export const JSON_FIELDS: Record<string, readonly string[]> = {
  'tx list': TRANSACTION,
  'tx create': TRANSACTION,
  'tx update': TRANSACTION,
  'tx get': [...TRANSACTION, 'bank_account', 'statement', 'documents', 'history', 'notes'],
  'accounts transactions': TRANSACTION,
  'accounts list': BANK_ACCOUNT,
  'accounts get': BANK_ACCOUNT,
  'accounts create': BANK_ACCOUNT,
  'accounts update': BANK_ACCOUNT,
  'keys list': API_KEY,
  'keys show': API_KEY,
  // Listed so that a wrong field is refused before the key is made: its only showing would be lost.
  'keys create': [...API_KEY, 'key'],
  'keys roll': ['key', 'previous'],
  'rates list': ['date', 'currency', 'rate', 'source', 'created_at'],
  'events list': EVENT,
  'events get': EVENT,
  'logs tail': [
    'id',
    'request_id',
    'created_at',
    'method',
    'path',
    'endpoint',
    'status',
    'response_time_ms',
    'key_id',
    'key_prefix',
    'via',
  ],
  'events resend': SEND_RESULT,
  'webhooks list': WEBHOOK,
  'webhooks update': WEBHOOK,
  'webhooks create': [...WEBHOOK, 'secret'],
  'webhooks get': [...WEBHOOK, 'recent_attempts'],
  'webhooks test': SEND_RESULT,
  'statements list': STATEMENT,
  'statements get': STATEMENT,
  'statements transactions': TRANSACTION,
  'rules list': RULE,
  'rules get': RULE,
  'rules create': RULE,
  'rules update': RULE,
  'reports summary': [
    'currency',
    'from',
    'to',
    'bank_account_id',
    'income',
    'expenses',
    'net',
    'transaction_count',
    'pending_count',
    'unreconciled_count',
    'transfers',
    'by_accounting_category',
    'by_category',
    'top_merchants',
    'accounts',
    'unconverted_opening_balances',
  ],
  'reports cash-flow': [
    'currency',
    'from',
    'to',
    'interval',
    'bank_account_id',
    'opening_balance',
    'opened',
    'closing_balance',
    'totals',
    'by_category',
    'transfers',
    'periods',
    'unconverted_opening_balances',
  ],
}

/** Every field some command prints: a word after `--json` that is one of them is taken as fields. */
const ANY_FIELD = new Set(Object.values(JSON_FIELDS).flat())

export interface Shape {
  fields?: string[]
  jq?: string
  /** --jq-timeout, in seconds (default JQ_TIMEOUT_SECONDS). */
  jqTimeout?: number
  template?: string
}

const FIELD_LIST = /^[A-Za-z_][A-Za-z0-9_]*(,[A-Za-z_][A-Za-z0-9_]*)*$/

/**
 * Whether the word after a bare `--json` is its FIELDS: a comma-separated list of names, and, when the
 * command takes arguments of its own (`tx get --json ID`), one with a comma or a known field.
 */
export function isFieldsWord(word: string, commandTakesArguments: boolean): boolean {
  if (!FIELD_LIST.test(word)) return false
  return !commandTakesArguments || word.includes(',') || ANY_FIELD.has(word)
}

function unknownFields(names: string[], valid: readonly string[]): AppError {
  return new AppError(
    'usage',
    `--json: unknown field${names.length > 1 ? 's' : ''} ${names.map((n) => `"${n}"`).join(', ')}; the fields are:\n  ${valid.join('\n  ')}`,
  )
}

/**
 * The shape the global flags ask for, checked before any request: fields known for the command
 * (`path`, e.g. "tx list"), not both --jq and --template. Undefined when output is left as it is.
 */
export function shapeOf(
  o: { json?: boolean | string; jq?: string; jqTimeout?: string; template?: string },
  path: string,
): Shape | undefined {
  const fields = typeof o.json === 'string' && o.json !== '' ? o.json.split(',').map((f) => f.trim()) : undefined
  if (fields && !fields.every((f) => FIELD_LIST.test(f)))
    throw new AppError('usage', `--json takes field names separated by commas, such as id,amount (got "${o.json}")`)
  if (o.jq !== undefined && o.template !== undefined) throw new AppError('usage', 'give --jq or --template, not both')
  if (o.jqTimeout !== undefined && o.jq === undefined) throw new AppError('usage', '--jq-timeout goes with --jq')
  const jqTimeout = wholeNumber(o.jqTimeout, '--jq-timeout', { max: 86_400 })
  if (!fields && o.jq === undefined && o.template === undefined) return undefined
  const valid = JSON_FIELDS[path]
  const unknown = fields && valid ? fields.filter((f) => !valid.includes(f)) : []
  if (unknown.length && valid) throw unknownFields(unknown, valid)
  return { fields: fields ? [...new Set(fields)] : undefined, jq: o.jq, jqTimeout, template: o.template }
}

function pick(record: unknown, fields: string[]): unknown {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return record
  const r = record as Record<string, unknown>
  return Object.fromEntries(fields.map((f) => [f, r[f] ?? null]))
}

/** The fields of what is printed (a list's items, or the record), for a command not in JSON_FIELDS. */
function checkAgainst(value: unknown, fields: string[]): void {
  const items = Array.isArray(value) ? value : [value]
  const seen = new Set<string>()
  for (const item of items) if (item && typeof item === 'object') for (const k of Object.keys(item)) seen.add(k)
  // An empty list shows no field to check against.
  if (seen.size === 0) return
  const unknown = fields.filter((f) => !seen.has(f))
  if (unknown.length) throw unknownFields(unknown, [...seen])
}

/** Only the fields asked for, of each item of a list or of the one record. */
export function pickFields(value: unknown, fields: string[]): unknown {
  return Array.isArray(value) ? value.map((v) => pick(v, fields)) : pick(value, fields)
}

/** The text `--json FIELDS`, `--jq` or `--template` make of the JSON value a command prints. */
export async function shapedText(value: unknown, shape: Shape, checkFields: boolean): Promise<string> {
  if (shape.fields && checkFields) checkAgainst(value, shape.fields)
  const v = shape.fields ? pickFields(value, shape.fields) : value
  if (shape.jq !== undefined) return runJq(v, shape.jq, shape.jqTimeout ?? JQ_TIMEOUT_SECONDS)
  if (shape.template !== undefined) {
    const { runTemplate } = await import('./template.js')
    return runTemplate(shape.template, v)
  }
  return `${jsonText(JSON.stringify(v, null, 2))}\n`
}

/**
 * jq itself, compiled to WebAssembly (jq-wasm), on a thread of its own (jq-thread.ts), loaded only
 * here: strings come out raw (`-r`), as gh's --jq prints them. A filter jq cannot compile is a usage
 * error; one that fails on the data, runs past its time or out of memory, exit 1; Ctrl-C, 130;
 * SIGTERM, 143.
 */
async function runJq(value: unknown, filter: string, seconds: number): Promise<string> {
  const { JQ_MEMORY_MB, JQ_OUTPUT_MB, JqStopped, runJqBounded } = await import('./jq-thread.js')
  try {
    const out = await runJqBounded(JSON.stringify(value), filter, ['-r'], { timeoutMs: seconds * 1000 })
    return out === '' || out.endsWith('\n') ? out : `${out}\n`
  } catch (e) {
    if (e instanceof JqStopped) {
      if (e.reason === 'signal') throw new Interrupted(e.signal!, `--jq: the filter was stopped by ${e.signal}`)
      if (e.reason === 'time')
        throw new AppError(
          'filter_failed',
          `--jq: the filter ran longer than ${seconds} s; give --jq-timeout ${Math.max(60, seconds * 6)} to wait longer`,
        )
      if (e.reason === 'output') throw new AppError('filter_failed', `--jq: the filter's output passed its limit of ${JQ_OUTPUT_MB} MB`)
      throw new AppError('filter_failed', `--jq: the filter ran out of memory (limit ${JQ_MEMORY_MB} MB)`)
    }
    const message = String((e as Error).message ?? e).trim()
    if (/compile error/.test(message)) throw new AppError('usage', `--jq: ${message.replace(/\njq: \d+ compile errors?$/, '')}`)
    throw new AppError('filter_failed', `--jq: ${message}`)
  }
}
