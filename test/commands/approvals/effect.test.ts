/**
 * A proposal's effect as the lines `approvals show` prints under the record (commands/approvals/effect.ts):
 * each step's diff in words, amounts in their currency's decimals, people by name, outside text
 * without control characters, and a long list cut with the count of the rest.
 */
import { describe, expect, it } from 'vitest'
import { effectLines } from '../../../commands/approvals/effect.js'
import type { Proposal } from '../../../src/domain/approvals/schemas.js'
import { hasControls } from '../../../src/kernel/terminal-text.js'

const base = {
  id: 'p1',
  target: 't',
  request: {},
  state: 'pending',
  proposed_by: 'user:u1',
  proposer_user_id: 'u1',
  created_at: '2026-11-27T10:00:00.000Z',
  decided_by: null,
  decided_at: null,
  reason: null,
  result: null,
} as const
const proposal = (kind: Proposal['kind'], effect: object) => ({ ...base, kind, effect }) as unknown as Proposal
const name = (id: string | null | undefined) => (id === 'user:u0' ? 'owner@acme.test' : (id ?? ''))

describe('effectLines', () => {
  it('a reopen: the lock date it moves, the close it undoes by whom, its figures in their currency', () => {
    const lines = effectLines(
      proposal('reopen', {
        month: '2026-10',
        lock_date: '2026-10-31',
        lock_date_after: '2026-09-30',
        close: { period: '2026-10', actor: 'user:u0', created_at: '2026-11-01T09:00:00Z', forced: true, reason: 'late bank file' },
        figures: [
          { bank_account_id: 'acc-1', currency_code: 'JPY', transactions: 1, total: '-1500' },
          { bank_account_id: 'acc-2', currency_code: 'KWD', transactions: 2, total: '12.345' },
        ],
      }),
      name,
    )
    expect(lines).toEqual([
      'lock date 2026-10-31 → 2026-09-30: 2026-10 opens for changes again',
      'the close it undoes: 2026-10 by owner@acme.test at 2026-11-01T09:00:00Z, forced (late bank file)',
      'its figures:',
      '  acc-1  1 transaction  -1500 JPY',
      '  acc-2  2 transactions  12.345 KWD',
    ])
  })

  it('a reopen that opens later closed months too names each of them', () => {
    const lines = effectLines(
      proposal('reopen', {
        month: '2026-09',
        lock_date: '2026-11-30',
        lock_date_after: '2026-08-31',
        opens: ['2026-09', '2026-10', '2026-11'],
      }),
      name,
    )
    expect(lines[0]).toBe('lock date 2026-11-30 → 2026-08-31: 2026-09, 2026-10 and 2026-11 open for changes again')
  })

  it('a people step: who is invited or promoted, and what the role approves', () => {
    expect(
      effectLines(proposal('people', { action: 'invite', email: 'ana@acme.test', role: 'owner', grants: 'every step' }), name),
    ).toEqual(['invites ana@acme.test as owner', 'as owner they approve every step'])
    const role = {
      action: 'role',
      user: { id: 'u1', email: 'bo@acme.test' },
      role_before: 'viewer',
      role_after: 'bookkeeper',
      grants: 'reverts',
    }
    expect(effectLines(proposal('people', role), name)[0]).toBe('makes bo@acme.test bookkeeper (now viewer)')
  })

  it('a bulk delete: the totals per currency and each row; a description cannot drive the terminal', () => {
    const lines = effectLines(
      proposal('bulk', {
        action: 'delete',
        rows: 2,
        threshold: 1,
        totals: [{ currency_code: 'EUR', rows: 2, amount: -7.5 }],
        transactions: [
          { id: 't1', transaction_date: '2026-05-01', amount: -2.5, currency_code: 'EUR', description: 'Coffee\u001b[2J\u0007' },
          { id: 't2', transaction_date: '2026-05-02', amount: -5, currency_code: 'EUR', description: 'Taxi' },
        ],
      }),
      name,
    )
    expect(lines[0]).toBe('deletes 2 transactions (over the threshold of 1): 2 in EUR, -7.50 EUR')
    expect(lines[1]).toMatch(/^ {2}t1 {2}2026-05-01 {2}-2\.50 EUR {2}Coffee/)
    expect(hasControls(lines.join(''))).toBe(false)
    expect(lines[2]).toBe('  t2  2026-05-02  -5.00 EUR  Taxi')
  })

  it('a bulk update: each field before and after; past 50 rows, the rest counted', () => {
    const transactions = Array.from({ length: 52 }, (_, i) => ({
      id: `t${i}`,
      transaction_date: '2026-05-01',
      changes: { category: { before: i ? 'Small' : null, after: 'Office' } },
    }))
    const lines = effectLines(proposal('bulk', { rows: 52, changed: 52, threshold: 10, transactions }), name)
    expect(lines[0]).toBe('changes 52 of 52 transactions (over the threshold of 10)')
    expect(lines[1]).toBe('  t0  2026-05-01  category (none) → Office')
    expect(lines[2]).toBe('  t1  2026-05-01  category Small → Office')
    expect(lines).toHaveLength(52)
    expect(lines.at(-1)).toMatch(/… and 2 more/)
  })

  it('a revert, a key and the policy', () => {
    const revert = effectLines(
      proposal('revert', {
        deleted: 1,
        unpaired: 0,
        statement: null,
        transactions: [
          {
            id: 't1',
            action: 'delete',
            transaction_date: '2026-06-02',
            amount: -10,
            currency_code: 'USD',
            description: 'One',
            edited: true,
          },
        ],
      }),
      name,
    )
    expect(revert).toEqual([
      'deletes 1 transaction, gives back 0 reconciled ones',
      '  delete  t1  2026-06-02  -10.00 USD  One  (changed by hand)',
    ])
    const key = effectLines(
      proposal('key-write', { key: { name: 'ci', key_prefix: 'fds_ab', expires_at: null }, scopes: ['read', 'write'] }),
      name,
    )
    expect(key).toEqual(['creates key ci (fds_ab…) with the scopes read, write, never expiring'])
    const policy = effectLines(
      proposal('policy', { before: [], after: ['reopen'], bulk_threshold_before: null, bulk_threshold_after: null }),
      name,
    )
    expect(policy).toEqual(['steps held for approval: (none) → reopen', 'bulk threshold: (none) → (none)'])
  })

  it("an agent's write: its reason quoted, the row, each field before → after; a note; a rule's run; an import's rows", () => {
    const row = { id: 't1', transaction_date: '2026-01-10', amount: -25.4, currency_code: 'USD', description: 'UBER \u001b[2J TRIP' }
    const agent = (request: object, effect: object) =>
      effectLines({ ...proposal('agent', effect), request } as unknown as Proposal, name, (id) => (id === 'acc-1' ? 'Operating' : id))
    expect(
      agent(
        { reason: 'rides are "travel"' },
        { action: 'update', transaction: row, changes: { category: { before: null, after: 'Travel' } } },
      ),
    ).toEqual([
      'the agent\'s reason: "rides are \\"travel\\""',
      'on t1  2026-01-10  -25.40 USD  UBER \\x1b[2J TRIP',
      '  category (none) → Travel',
    ])
    expect(agent({}, { action: 'note', transaction: row, note: 'PDF in the mail' })).toEqual([
      "the agent's reason: (none given)",
      'on t1  2026-01-10  -25.40 USD  UBER \\x1b[2J TRIP',
      '  note: "PDF in the mail"',
    ])
    const rule = agent(
      { reason: 'r' },
      {
        action: 'rule',
        rule: { name: 'uber', conditions: { description_contains: 'uber' }, actions: { category: 'Travel' } },
        apply: true,
        since: '2025-01-01',
        would_change: 2,
        transactions: [{ ...row, changes: { category: { before: null, after: 'Travel' } } }],
      },
    )
    expect(rule.slice(1)).toEqual([
      'creates rule "uber": when {"description_contains":"uber"}, set {"category":"Travel"}',
      'and runs it over the transactions dated 2025-01-01 or later: changes 2 transactions',
      '  t1  2026-01-10  -25.40 USD  UBER \\x1b[2J TRIP  category (none) → Travel',
    ])
    const imported = agent(
      { reason: 'r' },
      {
        action: 'import',
        batch: { id: 'b1', file_name: 'jan.csv', bank_account_id: 'acc-1' },
        rows: 2,
        first_date: '2026-01-20',
        last_date: '2026-01-21',
        totals: [{ currency_code: 'USD', rows: 2, amount: -55.5 }],
        transactions: [{ line: 2, transaction_date: '2026-01-20', amount: '-13.50', currency_code: 'USD', description: 'Coffee' }],
      },
    )
    expect(imported.slice(1)).toEqual([
      'lands 2 rows of "jan.csv" (import batch b1) on Operating, 2026-01-20 to 2026-01-21: 2 in USD, -55.50 USD',
      '  line 2  2026-01-20  -13.50 USD  Coffee',
    ])
  })
})
