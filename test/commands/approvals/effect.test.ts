/**
 * A proposal's effect as the lines `approvals show` prints under the record (commands/approvals/effect.ts):
 * each step's diff in words, amounts in their currency's decimals, people by name, outside text
 * without control characters, and a long list cut with the count of the rest.
 */
import { describe, expect, it } from 'vitest'
import { effectLines, resultWords } from '../../../commands/approvals/effect.js'
import type { StepEffect, StepName, StepRequest } from '../../../src/domain/approvals/registry.js'
import { Proposal, type ProposalOf } from '../../../src/domain/approvals/schemas.js'
import { hasControls } from '../../../src/kernel/terminal-text.js'

const base = {
  id: 'p1',
  target: 't',
  state: 'pending',
  proposed_by: 'user:u1',
  proposer_user_id: 'u1',
  created_at: '2026-11-27T10:00:00.000Z',
  decided_by: null,
  decided_at: null,
  reason: null,
  result: null,
} as const
/** A proposal as the API gives it: the effect and request typed by the step's schemas, and checked by them. */
function proposal<K extends StepName>(kind: K, effect: StepEffect<K>, request: StepRequest<K>): ProposalOf<K> {
  return Proposal.parse({ ...base, kind, request, effect }) as ProposalOf<K>
}
const name = (id: string | null | undefined) => (id === 'user:u0' ? 'owner@acme.test' : (id ?? ''))
const close = {
  id: 7,
  period: '2026-10',
  action: 'close' as const,
  lock_date: '2026-10-31',
  previous_lock_date: '2026-09-30',
  actor: 'user:u0',
  actor_name: null,
  created_at: '2026-11-01T09:00:00Z',
  forced: true,
  reason: 'late bank file',
  forced_over: null,
  chain_head: null,
}
const batch = {
  id: 'b1',
  kind: 'csv' as const,
  bank_account_id: 'acc-1',
  statement_id: null,
  file_name: 'jan.csv',
  file_sha256: null,
  options: {},
  actor: 'user:u1',
  state: 'completed' as const,
  read: 1,
  counts: { created: 1, existing: 0, reconciled: 0, rejected: 0 },
  created_at: '2026-11-01T09:00:00Z',
  finished_at: null,
  reverted_at: null,
  reverted_by: null,
}
const row = {
  id: 't1',
  transaction_date: '2026-01-10',
  amount: -25.4,
  currency_code: 'USD',
  description: 'UBER \u001b[2J TRIP',
  category: null,
  bank_account_id: 'acc-1',
  updated_at: '2026-01-10T08:00:00.000Z',
}
const agentAsk = (reason: string | null) => ({ reason, agent: { key_id: 'k1', name: 'bot', actor: 'key:k1' } })
const versions = { rows: 1, sha256: 'ab', listed: {} }
const reopenAsked = { month: '2026-10', reason: 'fix' }

describe('effectLines', () => {
  it('a reopen: the lock date it moves, the close it undoes by whom, its figures in their currency', () => {
    const effect = {
      month: '2026-10',
      lock_date: '2026-10-31',
      lock_date_after: '2026-09-30',
      opens: ['2026-10'],
      close,
      figures: [
        { bank_account_id: 'acc-1', currency_code: 'JPY', transactions: 1, total: '-1500' },
        { bank_account_id: 'acc-2', currency_code: 'KWD', transactions: 2, total: '12.345' },
      ],
      rows: 3,
    }
    expect(effectLines(proposal('reopen', effect, reopenAsked), name)).toEqual([
      'lock date 2026-10-31 → 2026-09-30: 2026-10 opens for changes again',
      'the close it undoes: 2026-10 by owner@acme.test at 2026-11-01T09:00:00Z, forced (late bank file)',
      'its figures:',
      '  acc-1  1 transaction  -1500 JPY',
      '  acc-2  2 transactions  12.345 KWD',
    ])
  })

  it('a reopen that opens later closed months too names each of them; one proposed before they were recorded, its month', () => {
    const effect = {
      month: '2026-09',
      lock_date: '2026-11-30',
      lock_date_after: '2026-08-31',
      opens: ['2026-09', '2026-10', '2026-11'],
      close: null,
      figures: null,
      rows: null,
    }
    expect(effectLines(proposal('reopen', effect, reopenAsked), name)).toEqual([
      'lock date 2026-11-30 → 2026-08-31: 2026-09, 2026-10 and 2026-11 open for changes again',
    ])
    const older = { month: '2026-09', lock_date_after: '2026-08-31', close: null, figures: null, rows: null }
    expect(effectLines(proposal('reopen', older, reopenAsked), name)).toEqual(['lock date  → 2026-08-31: 2026-09 opens for changes again'])
  })

  it('a people step: who is invited or promoted, and what the role approves', () => {
    const invite = proposal(
      'people',
      { action: 'invite', email: 'ana@acme.test', role: 'owner', grants: 'every step' },
      { action: 'invite', email: 'ana@acme.test', role: 'owner' },
    )
    expect(effectLines(invite, name)).toEqual(['invites ana@acme.test as owner', 'as owner they approve every step'])
    const role = proposal(
      'people',
      { action: 'role', user: { id: 'u1', email: 'bo@acme.test' }, role_before: 'viewer', role_after: 'bookkeeper', grants: 'reverts' },
      { action: 'role', user_id: 'u1', email: 'bo@acme.test', role: 'bookkeeper', previous_role: 'viewer' },
    )
    expect(effectLines(role, name)).toEqual(['makes bo@acme.test bookkeeper (now viewer)', 'as bookkeeper they approve reverts'])
  })

  it('a bulk delete: the totals per currency and each row; a description cannot drive the terminal', () => {
    const deleted = (id: string, date: string, amount: number, description: string) => ({
      id,
      transaction_date: date,
      amount,
      currency_code: 'EUR',
      description,
      category: null,
      bank_account_id: 'acc-1',
      updated_at: '2026-05-03T00:00:00.000Z',
    })
    const p = proposal(
      'bulk',
      {
        action: 'delete',
        rows: 2,
        threshold: 1,
        totals: [{ currency_code: 'EUR', rows: 2, amount: -7.5 }],
        transactions: [deleted('t1', '2026-05-01', -2.5, 'Coffee\u001b[2J\u0007'), deleted('t2', '2026-05-02', -5, 'Taxi')],
      },
      { action: 'delete', transaction_ids: ['t1', 't2'] },
    )
    const lines = effectLines(p, name)
    expect(lines[0]).toBe('deletes 2 transactions (over the threshold of 1): 2 in EUR, -7.50 EUR')
    expect(lines[1]).toMatch(/^ {2}t1 {2}2026-05-01 {2}-2\.50 EUR {2}Coffee/)
    expect(hasControls(lines.join(''))).toBe(false)
    expect(lines[2]).toBe('  t2  2026-05-02  -5.00 EUR  Taxi')
  })

  it('a bulk update: each field before and after; past 50 rows, the rest counted', () => {
    const transactions = Array.from({ length: 52 }, (_, i) => ({
      id: `t${i}`,
      transaction_date: '2026-05-01',
      updated_at: '2026-05-01T00:00:00.000Z',
      changes: { category: { before: i ? 'Small' : null, after: 'Office' } },
    }))
    const request = { transaction_ids: transactions.map((t) => t.id), updates: { category: 'Office' } }
    const lines = effectLines(proposal('bulk', { rows: 52, changed: 52, threshold: 10, transactions }, request), name)
    expect(lines[0]).toBe('changes 52 of 52 transactions (over the threshold of 10)')
    expect(lines[1]).toBe('  t0  2026-05-01  category (none) → Office')
    expect(lines[2]).toBe('  t1  2026-05-01  category Small → Office')
    expect(lines).toHaveLength(52)
    expect(lines.at(-1)).toMatch(/… and 2 more/)
  })

  it('a run of rules over the threshold: which rules, from when, how many match', () => {
    const run = { action: 'rules' as const, rule_id: null, since: '2026-01-01', only_empty: true }
    const transactions = [
      {
        id: 't1',
        transaction_date: '2026-02-01',
        updated_at: '2026-02-01T00:00:00.000Z',
        changes: { category: { before: null, after: 'Rent' } },
      },
    ]
    const p = proposal('bulk', { ...run, matched: 3, rows: 1, changed: 1, threshold: 0, transactions, versions }, run)
    expect(effectLines(p, name)).toEqual([
      'runs the active rules over the transactions dated 2026-01-01 or later, filling empty fields only: 3 match',
      'changes 1 of 1 transaction (over the threshold of 0)',
      '  t1  2026-02-01  category (none) → Rent',
    ])
  })

  it('a revert, a key, its roll and the policy', () => {
    const reverted = {
      id: 't1',
      action: 'delete' as const,
      transaction_date: '2026-06-02',
      amount: -10,
      currency_code: 'USD',
      description: 'One',
      edited: true,
    }
    const revert = proposal(
      'revert',
      { batch, dry_run: true, deleted: 1, unpaired: 0, transactions: [reverted], refused: [], statement: null, documents: [], versions },
      { batch_id: 'b1', include_edited: true },
    )
    expect(effectLines(revert, name)).toEqual([
      'deletes 1 transaction, gives back 0 reconciled ones',
      '  delete  t1  2026-06-02  -10.00 USD  One  (changed by hand)',
    ])
    const key = {
      id: 'k2',
      name: 'ci',
      key_prefix: 'fds_ab',
      scopes: ['read' as const, 'write' as const],
      description: '',
      last_used_at: null,
      usage_count: 0,
      rate_limit_per_minute: 60,
      rate_limit_per_day: 10000,
      is_active: false,
      expires_at: null,
      revoked_at: null,
      created_at: null,
      created_by: 'u1',
      rolled_to: null,
      rolled_from: null,
      grace_ends_at: null,
      agent: false,
    }
    const asked = { name: 'ci', scopes: ['read', 'write'], expires_at: null, key_prefix: 'fds_ab' }
    expect(effectLines(proposal('key-write', { key, scopes: ['read', 'write'] }, asked), name)).toEqual([
      'creates key ci (fds_ab…) with the scopes read, write, never expiring',
    ])
    const rolls = { id: 'k1', name: 'ci-old', key_prefix: 'fds_zz' }
    const roll = proposal(
      'key-write',
      { key, scopes: ['read', 'write'], rolls, grace_seconds: 60 },
      { ...asked, rolls: 'k1', grace_seconds: 60 },
    )
    expect(effectLines(roll, name)[1]).toBe('rolls key ci-old (fds_zz…): the old key is revoked 60 s after the approval')
    const policy = proposal(
      'policy',
      { before: [], after: ['reopen'], bulk_threshold_before: null, bulk_threshold_after: null },
      { require_approval: ['reopen'], bulk_threshold: null },
    )
    expect(effectLines(policy, name)).toEqual(['steps held for approval: (none) → reopen', 'bulk threshold: (none) → (none)'])
  })

  it("an agent's write: its reason quoted, the row, each field before → after; a note; a rule's run; an import's rows", () => {
    const account = (id: string) => (id === 'acc-1' ? 'Operating' : id)
    const update = proposal(
      'agent',
      { action: 'update', transaction: row, changes: { category: { before: null, after: 'Travel' } } },
      { action: 'update', transaction_id: 't1', updates: { category: 'Travel' }, ...agentAsk('rides are "travel"') },
    )
    expect(effectLines(update, name, account)).toEqual([
      'the agent\'s reason: "rides are \\"travel\\""',
      'on t1  2026-01-10  -25.40 USD  UBER \\x1b[2J TRIP',
      '  category (none) → Travel',
    ])
    const note = proposal(
      'agent',
      { action: 'note', transaction: row, note: 'PDF in the mail' },
      { action: 'note', transaction_id: 't1', text: 'PDF in the mail', ...agentAsk(null) },
    )
    expect(effectLines(note, name, account)).toEqual([
      "the agent's reason: (none given)",
      'on t1  2026-01-10  -25.40 USD  UBER \\x1b[2J TRIP',
      '  note: "PDF in the mail"',
    ])
    const rule = { name: 'uber', conditions: { description_contains: 'uber' }, actions: { category: 'Travel' } }
    const window = { apply: true, since: '2025-01-01', only_empty: false }
    const ruled = proposal(
      'agent',
      {
        action: 'rule',
        rule,
        ...window,
        matched: 2,
        would_change: 2,
        transactions: [{ ...row, changes: { category: { before: null, after: 'Travel' } } }],
        versions,
      },
      { action: 'rule', rule, ...window, ...agentAsk('r') },
    )
    expect(effectLines(ruled, name, account).slice(1)).toEqual([
      'creates rule "uber": when {"description_contains":"uber"}, set {"category":"Travel"}',
      'and runs it over the transactions dated 2025-01-01 or later: changes 2 transactions',
      '  t1  2026-01-10  -25.40 USD  UBER \\x1b[2J TRIP  category (none) → Travel',
    ])
    const imported = proposal(
      'agent',
      {
        action: 'import',
        batch: { id: 'b1', file_name: 'jan.csv', bank_account_id: 'acc-1', bank_account: 'Operating', rejected: 0, expires_at: null },
        rows: 2,
        versions,
        first_date: '2026-01-20',
        last_date: '2026-01-21',
        totals: [{ currency_code: 'USD', rows: 2, amount: -55.5 }],
        transactions: [{ line: 2, transaction_date: '2026-01-20', amount: '-13.50', currency_code: 'USD', description: 'Coffee' }],
      },
      { action: 'import', batch_id: 'b1', ...agentAsk('r') },
    )
    expect(effectLines(imported, name, account).slice(1)).toEqual([
      'lands 2 rows of "jan.csv" (import batch b1) on Operating, 2026-01-20 to 2026-01-21: 2 in USD, -55.50 USD',
      '  line 2  2026-01-20  -13.50 USD  Coffee',
    ])
  })

  it("an agent's other write: the request as it will be made, its body, the rows it is bound to, the books when it reads them", () => {
    const asked = {
      action: 'request' as const,
      method: 'POST',
      route: 'POST /api-v1/transactions/bulk-update',
      path: '/api-v1/transactions/bulk-update',
      query: '',
      content_type: 'application/json',
      body: { json: { transaction_ids: ['t1'], updates: { category: 'Office \u001b[2J' } } },
      accepts: ['write'],
      ...agentAsk('tidy'),
    }
    const effect = { action: 'request' as const, route: asked.route, named: [], books: { audit_id: 42 } }
    expect(effectLines(proposal('agent', effect, asked), name)).toEqual([
      'the agent\'s reason: "tidy"',
      'asks POST /api-v1/transactions/bulk-update: done as you when you approve it',
      '  body: {"transaction_ids":["t1"],"updates":{"category":"Office \\u001b[2J"}}',
      'bound to the books as they stand (audit entry #42): any change to them fails it',
    ])
    const deletion = {
      ...asked,
      method: 'DELETE',
      route: 'DELETE /api-v1/bank-accounts/{id}',
      path: '/api-v1/bank-accounts/acc-9',
      body: { base64: 'AAEC', bytes: 3 },
      content_type: 'application/octet-stream',
    }
    const named = [
      { resource: 'transactions', id: 't1', version: 'v', row },
      { resource: 'bank_accounts', id: 'acc-9', version: 'v', row: { id: 'acc-9', name: 'Old' } },
      { resource: 'exchange_rates', id: '2026-01-02/EUR', version: 'absent', row: null },
    ]
    expect(
      effectLines(proposal('agent', { action: 'request' as const, route: deletion.route, named, books: null }, deletion), name).slice(1),
    ).toEqual([
      'asks DELETE /api-v1/bank-accounts/acc-9: done as you when you approve it',
      '  body: 3 bytes of application/octet-stream',
      'on t1  2026-01-10  -25.40 USD  UBER \\x1b[2J TRIP',
      'on bank accounts acc-9: {"id":"acc-9","name":"Old"}',
      'on exchange rates 2026-01-02/EUR (none yet)',
    ])
  })

  it('an approved revert or bulk step says what it did in words; another step leaves its fields to the record', () => {
    const bulk = proposal(
      'bulk',
      { rows: 1, changed: 1, threshold: 0, transactions: [] },
      { transaction_ids: ['t1'], updates: { category: 'Office' } },
    )
    expect(resultWords({ ...bulk, state: 'approved', result: { updated: 1, transaction_ids: ['t1'] } })).toEqual(['updated 1 transaction'])
    const policy = proposal(
      'policy',
      { before: [], after: [], bulk_threshold_before: null, bulk_threshold_after: null },
      { require_approval: [], bulk_threshold: null },
    )
    expect(resultWords({ ...policy, state: 'approved', result: { require_approval: [] } })).toBeNull()
  })
})
