/**
 * src/cli/user-words.ts: the service's field names turned into the flags of the running command.
 * The e2e test walks every command; this one pins the rules one by one.
 */
import { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { commandPath, flagFor, inUserWords, statementReasonInUserWords } from '../../src/cli/user-words.js'
import { AppError } from '../../src/kernel/errors.js'

/** finctl with `tx create`, `tx bulk-update`, `statements upload FILE`, `keys usage`, `api`. */
function tree() {
  const root = new Command('finctl').option('--profile <name>')
  const tx = root.command('tx')
  const create = tx
    .command('create')
    .option('--account <id>')
    .option('--date <date>')
    .option('--amount <decimal>')
    .option('--merchant-name <name>')
    .option('--currency <code>')
  const bulk = tx.command('bulk-update').option('--set <field=value>').option('--account <id>')
  const upload = root.command('statements').command('upload').argument('<file>').option('--statement-account <n>').option('--format <f>')
  const usage = root.command('keys').command('usage').argument('[id]').option('--recent <n>')
  const api = root.command('api')
  return { create, bulk, upload, usage, api }
}
const answered = (message: string, details: Array<{ path: string; message: string }>) =>
  new AppError('validation_error', message, { details, requestId: 'req_1' })

describe('flagFor', () => {
  const t = tree()

  it('a field under another flag name, when the command has that flag', () => {
    expect(flagFor(t.create, 'bank_account_id')).toBe('--account')
    expect(flagFor(t.create, 'transaction_date')).toBe('--date')
    expect(flagFor(t.create, 'currency_code')).toBe('--currency')
  })

  it('a field under its own name in kebab case; nested and indexed paths by their last field', () => {
    expect(flagFor(t.create, 'merchant_name')).toBe('--merchant-name')
    expect(flagFor(t.create, 'transactions[3].amount')).toBe('--amount')
    expect(flagFor(t.create, 'items.0.amount')).toBe('--amount')
  })

  it('never a flag the command lacks: the field in words instead', () => {
    expect(flagFor(t.create, 'opening_balance_date')).toBe('opening balance date')
    expect(flagFor(t.upload, 'bank_account_id')).toBe('bank account id')
  })

  it("the command's own words first: statements upload's --statement-account and FILE, keys usage's --recent", () => {
    expect(flagFor(t.upload, 'account_number')).toBe('--statement-account')
    expect(flagFor(t.upload, 'content_base64')).toBe('FILE')
    expect(flagFor(t.usage, 'limit')).toBe('--recent')
  })

  it('fields of updates. and actions. are --set FIELD where the command has --set', () => {
    expect(flagFor(t.bulk, 'updates.category')).toBe('--set category')
    expect(flagFor(t.bulk, 'bank_account_id')).toBe('--account')
    expect(flagFor(t.create, 'updates.category')).toBe('category')
  })

  it('an argument by its name in capitals; the body as a whole is "the request"', () => {
    expect(flagFor(t.usage, 'id')).toBe('ID')
    expect(flagFor(t.create, '(body)')).toBe('the request')
    expect(flagFor(t.create, '')).toBe('the request')
  })

  it('commandPath is the words after finctl', () => {
    expect(commandPath(t.bulk)).toBe('tx bulk-update')
    expect(commandPath(t.upload)).toBe('statements upload')
  })
})

describe('inUserWords', () => {
  const t = tree()

  it('a message that restates its details is rebuilt from them, in flags, as a sentence', () => {
    const e = answered('invalid body: transaction_date must be a date written YYYY-MM-DD; amount is required', [
      { path: 'transaction_date', message: 'must be a date written YYYY-MM-DD' },
      { path: 'amount', message: 'is required' },
    ])
    expect(inUserWords(e, t.create)).toEqual({ message: '--date must be a date written YYYY-MM-DD; --amount is required', lines: [] })
  })

  it('a single "field: message" becomes the flag and the message; other wording gets a colon', () => {
    expect(
      inUserWords(answered('bank_account_id: no such account', [{ path: 'bank_account_id', message: 'no such account' }]), t.create),
    ).toEqual({ message: '--account: no such account', lines: [] })
  })

  it('a message of its own keeps its words, fields in it become flags, the details follow as lines', () => {
    const e = answered('`transaction_date` is in the future; check currency_code', [
      { path: 'transaction_date', message: 'must not be after today' },
    ])
    expect(inUserWords(e, t.create)).toEqual({
      message: '--date is in the future; check --currency',
      lines: ['--date must not be after today'],
    })
  })

  it('leaves alone: errors without details, local errors (no request id), and finctl api', () => {
    expect(inUserWords(new AppError('validation_error', 'amount is required'), t.create)).toBeUndefined()
    expect(
      inUserWords(new AppError('validation_error', 'x', { details: [{ path: 'amount', message: 'is required' }] }), t.create),
    ).toBeUndefined()
    expect(inUserWords(answered('amount: is required', [{ path: 'amount', message: 'is required' }]), t.api)).toBeUndefined()
    expect(inUserWords(answered('amount: is required', [{ path: 'amount', message: 'is required' }]), undefined)).toBeUndefined()
  })

  it('the same detail twice is one line', () => {
    const d = { path: 'transactions[0].amount', message: 'is required' }
    const e = answered('2 rows are not valid', [d, { ...d, path: 'transactions[1].amount' }])
    expect(inUserWords(e, t.create)).toEqual({ message: '2 rows are not valid', lines: ['--amount is required'] })
  })
})

describe('statementReasonInUserWords', () => {
  it('names --statement-account and --exchange-rate', () => {
    expect(statementReasonInUserWords('the file holds 2 accounts: give account_number; exchange_rate is required')).toBe(
      'the file holds 2 accounts: give --statement-account NUMBER; --exchange-rate is required',
    )
  })
})

describe('one table for the CLI and the import thread', () => {
  it("tx import's row reasons (its own thread, no command at hand) name each field as its errors do", async () => {
    const { inImportWords } = await import('../../src/jobs/import/send.js')
    const txImport = new Command('finctl')
      .command('tx')
      .command('import')
      .argument('<file>')
      .option('--account <id>')
      .option('--force')
      .option('--set <field=value>')
      .option('--map <field=Column>')
    for (const field of ['transaction_date', 'bank_account_id', 'force', 'exchange_rate', 'transactions']) {
      const words = flagFor(txImport, field)
      expect(inImportWords(`\`${field}\` is wrong`), field).toBe(`${words} is wrong`)
    }
    expect(flagFor(txImport, 'transaction_date')).toBe('date')
    expect(inImportWords('transaction_date must be a date; see --force')).toBe('date must be a date; see --force')
  })
})
