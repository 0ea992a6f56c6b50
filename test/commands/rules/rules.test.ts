/**
 * `finctl rules list | get | create | update | delete | test | apply` in process
 * (test/helpers/in-process-cli.ts; moved from test/e2e, which it needed nothing of), in its own
 * FINCTL_CONFIG_DIR, without a terminal: tables and --json, usage errors (exit 2), what the
 * service refuses (6), a rule not found (5).
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tsv } from '../../helpers/cli.js'
import { InProcessSandbox, fastKey } from '../../helpers/in-process-cli.js'

interface Rule {
  id: string
  name: string
  position: number
  conditions: Record<string, unknown>
  actions: Record<string, unknown>
  is_active: boolean
}

interface Tx {
  id: string
  category: string | null
  accounting_category: string | null
  tags: string[]
  history?: Array<{ action: string; changes: Record<string, { before: unknown; after: unknown }> }>
}

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10)

describe('rules', () => {
  let sb: InProcessSandbox
  const tx: Record<'aws' | 'awsSmall' | 'rent', string> = { aws: '', awsSmall: '', rent: '' }
  let aws: Rule
  let travel: Rule

  beforeAll(async () => {
    sb = new InProcessSandbox('rules')
    await sb.ok(['init', '--company', 'Rules Co', '--currency', 'USD', '--password-stdin', '--no-input'], { input: 'password-for-rules\n' })
    await fastKey(sb)
    const account = await sb.json<{ id: string }>([
      'accounts',
      'create',
      '--name',
      'Operating',
      '--type',
      'checking',
      '--currency',
      'USD',
      '--json',
    ])
    const rows: Array<[keyof typeof tx, number, string, string]> = [
      ['aws', 3, 'AWS EMEA invoice', '-10.01'],
      ['awsSmall', 4, 'AWS EMEA invoice', '-10.00'],
      ['rent', 5, 'Rent', '-900.00'],
    ]
    for (const [key, age, description, amount] of rows) {
      tx[key] = (
        await sb.json<{ id: string }>([
          'tx',
          'create',
          '--account',
          account.id,
          '--date',
          daysAgo(age),
          '--description',
          description,
          `--amount=${amount}`,
          '--tags',
          'imported',
          '--json',
        ])
      ).id
    }
  })
  afterAll(() => sb?.cleanup())

  it('create: conditions and --set (kebab-case too) become the rule; a position inserts it', async () => {
    aws = await sb.json<Rule>([
      'rules',
      'create',
      '--matches',
      '^aws emea',
      '--max-amount',
      '-10.005',
      '--set',
      'category=Cloud',
      '--set',
      'accounting-category=operating-expenses',
      '--set',
      'tags=infra,monthly',
      '--json',
    ])
    expect(aws).toMatchObject({
      name: 'description matches "^aws emea" and amount <= -10.005',
      position: 1,
      conditions: { description_regex: '^aws emea', max_amount: '-10.005' },
      actions: { category: 'Cloud', accounting_category: 'operating_expenses', tags: ['infra', 'monthly'] },
      is_active: true,
    })
    const r = await sb.run([
      'rules',
      'create',
      '--name',
      'Travel',
      '--merchant-contains',
      'uber',
      '--currency',
      'usd',
      '--set',
      'category=Travel',
      '--position',
      '1',
      '--json',
    ])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('at position 1')
    travel = JSON.parse(r.stdout) as Rule
    expect(travel.conditions).toEqual({ merchant_contains: 'uber', currency_code: 'USD' })
  })

  it('list: in run order, as JSON and as a table off a terminal', async () => {
    const listed = await sb.json<Rule[]>(['rules', 'list', '--json'])
    expect(listed.map((r) => [r.position, r.id])).toEqual([
      [1, travel.id],
      [2, aws.id],
    ])
    const [header, ...rows] = tsv((await sb.ok(['rules', 'list'])).stdout)
    expect(header).toEqual(['#', 'ID', 'NAME', 'ACTIVE', 'CONDITIONS', 'ACTIONS'])
    expect(rows).toEqual([
      ['1', travel.id, 'Travel', 'yes', 'merchant contains "uber" and currency USD', 'category=Travel'],
      ['2', aws.id, aws.name, 'yes', aws.name, 'category=Cloud accounting_category=operating_expenses tags=infra,monthly'],
    ])
  })

  it('test: a table of what would change with from -> to, a summary on stderr, and nothing changed', async () => {
    const r = await sb.ok(['rules', 'test', aws.id])
    const [header, ...rows] = tsv(r.stdout)
    expect(header).toEqual(['ID', 'DATE', 'DESCRIPTION', 'AMOUNT', 'CATEGORY', 'OTHER CHANGES'])
    expect(rows).toEqual([
      [
        tx.aws,
        daysAgo(3),
        'AWS EMEA invoice',
        '-10.01 USD',
        '(none) → Cloud',
        'accounting_category: (none) → operating_expenses; tags: imported → imported,infra,monthly',
      ],
    ])
    expect(r.stderr).toBe(
      `rule '${aws.name}' since ${daysAgo(90)} (--since 90d: 90 days before today): 3 transactions scanned, 1 matches, 1 would change\n`,
    )
    const data = await sb.json(['rules', 'test', aws.id, '--since', daysAgo(3), '--json'])
    expect(data).toMatchObject({
      rule: { id: aws.id },
      since: daysAgo(3),
      scanned: 1,
      matched: 1,
      would_change: 1,
      changes: [{ transaction: { id: tx.aws }, changes: { category: { from: null, to: 'Cloud' } } }],
    })
    const t = await sb.json<Tx>(['tx', 'get', tx.aws, '--json'])
    expect(t).toMatchObject({ category: null, tags: ['imported'] })
    expect(t.history!.map((e) => e.action)).toEqual(['create'])
  })

  it('apply: needs --yes without a terminal; with it, changes the rows (audited) and reports counts', async () => {
    const refused = await sb.run(['rules', 'apply', aws.id])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--yes')
    expect((await sb.json<Tx>(['tx', 'get', tx.aws, '--json'])).category).toBeNull()

    const r = await sb.run(['rules', 'apply', aws.id, '--yes', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({ since: daysAgo(90), only_empty: false, matched: 1, updated: 1, transaction_ids: [tx.aws] })
    expect(r.stderr).toContain('updated 1 of 1 matching transaction since')
    const t = await sb.json<Tx>(['tx', 'get', tx.aws, '--json'])
    expect(t).toMatchObject({ category: 'Cloud', accounting_category: 'operating_expenses', tags: ['imported', 'infra', 'monthly'] })
    expect(t.history!.map((e) => e.action)).toEqual(['create', 'bulk_update'])
    expect(t.history![1].changes.category).toEqual({ before: null, after: 'Cloud' })
    for (const other of [tx.awsSmall, tx.rent]) expect((await sb.json<Tx>(['tx', 'get', other, '--json'])).category).toBeNull()
    // Again: it matches, but there is nothing left to change.
    const again = await sb.ok(['rules', 'test', aws.id])
    expect(again.stderr).toContain('1 matches, 0 would change')
  })

  it('update: moves, disables; delete needs --yes, then the rule is gone', async () => {
    expect(await sb.json<Rule>(['rules', 'update', aws.id, '--position', '1', '--disable', '--json'])).toMatchObject({
      id: aws.id,
      position: 1,
      is_active: false,
    })
    expect((await sb.json<Rule[]>(['rules', 'list', '--json'])).map((r) => r.id)).toEqual([aws.id, travel.id])
    expect((await sb.json<Rule>(['rules', 'get', aws.id, '--json'])).is_active).toBe(false)

    const refused = await sb.run(['rules', 'delete', travel.id])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--yes')
    expect(await sb.json(['rules', 'delete', travel.id, '--yes', '--json'])).toEqual({ id: travel.id, deleted: true })
    const [gone, listed] = await Promise.all([sb.run(['rules', 'get', travel.id]), sb.json<Rule[]>(['rules', 'list', '--json'])])
    expect(gone.code).toBe(5)
    expect(listed.map((r) => [r.position, r.id])).toEqual([[1, aws.id]])
  })

  it('bad flags exit 2 and send nothing; what the service refuses exits 6 naming the field', async () => {
    const usage = await Promise.all([
      sb.run(['rules', 'create', '--set', 'category=X']),
      sb.run(['rules', 'create', '--description-contains', 'x']),
      sb.run(['rules', 'create', '--description-contains', 'x', '--set', 'colour=red']),
      sb.run(['rules', 'create', '--description-contains', 'x', '--set', 'category']),
      sb.run(['rules', 'create', '--description-contains', 'x', '--set', 'category=X', '--position', 'first']),
      sb.run(['rules', 'update', aws.id]),
      sb.run(['rules', 'update', aws.id, '--disable', '--enable']),
      sb.run(['rules', 'test', aws.id, '--limit', '0']),
      sb.run(['rules', 'list', '--bogus']),
    ])
    for (const r of usage) expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' })
    expect(usage[0].stderr).toContain('give at least one condition')
    expect(usage[2].stderr).toContain('a rule cannot set colour')

    // An amount that is none is the CLI's to judge (exit 2, the value named); the rest the service's (6).
    const ten = await sb.run(['rules', 'create', '--min-amount', 'ten', '--set', 'category=X'])
    expect([ten.code, ten.stdout]).toEqual([2, ''])
    expect(ten.stderr).toContain('--min-amount ten: not a decimal amount')
    const invalid = await Promise.all([
      sb.run(['rules', 'create', '--matches', '(unclosed', '--set', 'category=X']),
      sb.run(['rules', 'create', '--description-contains', 'x', '--set', 'accounting_category=food']),
      sb.run(['rules', 'create', '--min-amount', '12345678901234567890', '--set', 'category=X']),
      sb.run(['rules', 'test', aws.id, '--since', 'yesterday']),
    ])
    for (const r of invalid) expect(r.code, r.stderr).toBe(6)
    expect(invalid[0].stderr).toContain('--matches')
    expect(invalid[1].stderr).toContain('--set accounting_category')
    expect(invalid[2].stderr).toContain('--min-amount')
    for (const r of invalid) expect(r.stderr).not.toMatch(/conditions\.|actions\./)
    expect(invalid[3].stderr).toContain('since')
    expect((await sb.run(['rules', 'test', randomUUID()])).code).toBe(5)
    expect((await sb.json<Rule[]>(['rules', 'list', '--json'])).map((r) => r.id)).toEqual([aws.id])
  })
})
