/** Categorization rules (CRUD, order, test, apply) through both transports on both stores. */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { CategorizationRule, RuleApplyResult, RuleTestResult } from '../../src/domain/categorization/rule-schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import type { Transaction } from '../../src/domain/schemas.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const PATH = '/api-v1/categorization-rules'

async function rejects(p: Promise<unknown>, code: string, status: number): Promise<AppError> {
  const e = await p.then(
    () => new Error('expected an error'),
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(AppError)
  expect({ code: (e as AppError).code, status: (e as AppError).status }).toEqual({ code, status })
  return e as AppError
}

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10)

/** Typed calls of the rules routes (the CLI's client has no methods for them). */
function rules(c: Client) {
  const one = (id: string) => `${PATH}/${encodeURIComponent(id)}`
  return {
    list: () => c.request<CategorizationRule[]>('GET', PATH).then((r) => r.data),
    create: (body: object) => c.request<CategorizationRule>('POST', PATH, { body }),
    get: (id: string) => c.request<CategorizationRule>('GET', one(id)).then((r) => r.data),
    update: (id: string, body: object) => c.request<CategorizationRule>('PATCH', one(id), { body }).then((r) => r.data),
    delete: (id: string) => c.request<{ id: string; deleted: true }>('DELETE', one(id)).then((r) => r.data),
    test: (id: string, query: Record<string, string | number> = {}) =>
      c.request<RuleTestResult>('GET', `${one(id)}/test`, { query }).then((r) => r.data),
    apply: (id: string, body: object = {}) => c.request<RuleApplyResult>('POST', `${one(id)}/apply`, { body }).then((r) => r.data),
    testAll: (query: Record<string, string | number> = {}) =>
      c.request<RuleTestResult>('GET', `${PATH}/test`, { query }).then((r) => r.data),
    applyAll: (body: object = {}) => c.request<RuleApplyResult>('POST', `${PATH}/apply`, { body }).then((r) => r.data),
  }
}

describe.each(MATRIX)('categorization rules over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let b: Tenant
  let ca: Client
  let ra: ReturnType<typeof rules>
  let rb: ReturnType<typeof rules>
  const tx: Record<string, Transaction> = {}

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Acme')
    b = await h.tenant('Beta')
    ca = h.client({ apiKey: a.key })
    ra = rules(ca)
    rb = rules(h.client({ apiKey: b.key }))
    const specs: Array<[string, number, string, string, Partial<Transaction>]> = [
      ['aws', 3, 'AWS EMEA invoice', '-10.01', { tags: ['cloud'] }],
      ['aws_cent_less', 4, 'aws emea invoice', '-10.00', {}],
      ['aws_done', 5, 'AWS EMEA credits', '-50.00', { category: 'Cloud', accounting_category: 'operating_expenses', tags: ['infra'] }],
      ['aws_old', 200, 'AWS EMEA invoice', '-99.00', {}],
      ['rent', 6, 'Rent', '-900.00', {}],
    ]
    for (const [key, age, description, amount, extra] of specs) {
      const { category, accounting_category, tags } = extra
      tx[key] = await ca.transactions.create({
        bank_account_id: a.accountId,
        transaction_date: daysAgo(age),
        description,
        amount,
        category: category ?? undefined,
        accounting_category: accounting_category ?? undefined,
        tags,
      })
    }
  })
  afterAll(async () => {
    await h?.close()
  })

  describe('create, list, order', () => {
    it('creates a rule last, named after its conditions, active, amounts as decimal text', async () => {
      const r = await ra.create({
        conditions: { description_contains: 'Coffee', max_amount: -0.5 },
        actions: { category: 'Food', tags: ['x', 'x', 'y'] },
      })
      expect(r.status).toBe(201)
      expect(r.data).toMatchObject({
        name: 'description contains "Coffee" and amount <= -0.5',
        position: 1,
        conditions: { description_contains: 'Coffee', max_amount: '-0.5' },
        actions: { category: 'Food', tags: ['x', 'y'] },
        is_active: true,
      })
      expect(await ra.get(r.data.id)).toEqual(r.data)
      await ra.delete(r.data.id)
    })

    it('keeps positions dense: insert at a position, move both ways, delete closes the gap', async () => {
      const names = async () => (await ra.list()).map((r) => `${r.position}:${r.name}`)
      const made: Record<string, CategorizationRule> = {}
      for (const name of ['A', 'B', 'C'])
        made[name] = (await ra.create({ name, conditions: { currency_code: 'EUR' }, actions: { tags: [name] } })).data
      expect(await names()).toEqual(['1:A', '2:B', '3:C'])
      made.D = (await ra.create({ name: 'D', position: 1, conditions: { currency_code: 'EUR' }, actions: { tags: ['D'] } })).data
      made.E = (await ra.create({ name: 'E', position: 99, conditions: { currency_code: 'EUR' }, actions: { tags: ['E'] } })).data
      expect(await names()).toEqual(['1:D', '2:A', '3:B', '4:C', '5:E'])
      expect((await ra.update(made.D.id, { position: 4 })).position).toBe(4)
      expect(await names()).toEqual(['1:A', '2:B', '3:C', '4:D', '5:E'])
      await ra.update(made.E.id, { position: 2 })
      expect(await names()).toEqual(['1:A', '2:E', '3:B', '4:C', '5:D'])
      await ra.update(made.A.id, { position: 1000 })
      expect(await names()).toEqual(['1:E', '2:B', '3:C', '4:D', '5:A'])
      await ra.delete(made.B.id)
      await rejects(ra.get(made.B.id), 'not_found', 404)
      expect(await names()).toEqual(['1:E', '2:C', '3:D', '4:A'])
      for (const r of [made.A, made.C, made.D, made.E]) await ra.delete(r.id)
      expect(await ra.list()).toEqual([])
    })

    it('concurrent creates get distinct, dense positions', async () => {
      const made = await Promise.all(
        Array.from({ length: 6 }, (_, i) => ra.create({ name: `c${i}`, conditions: { currency_code: 'EUR' }, actions: { tags: ['c'] } })),
      )
      expect(made.map((r) => r.data.position).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6])
      for (const r of made) await ra.delete(r.data.id)
    })

    it('PATCH replaces conditions and actions whole, renames, disables; an empty PATCH changes nothing', async () => {
      const r = (
        await ra.create({
          name: 'P',
          conditions: { description_contains: 'x', currency_code: 'USD' },
          actions: { category: 'X', tags: ['t'] },
        })
      ).data
      const u = await ra.update(r.id, {
        name: 'P2',
        conditions: { merchant_equals: 'Acme' },
        actions: { accounting_category: 'revenue' },
        is_active: false,
      })
      expect(u).toMatchObject({
        id: r.id,
        name: 'P2',
        position: r.position,
        conditions: { merchant_equals: 'Acme' },
        actions: { accounting_category: 'revenue' },
        is_active: false,
      })
      expect(u.conditions).toEqual({ merchant_equals: 'Acme' })
      expect(u.actions).toEqual({ accounting_category: 'revenue' })
      expect(await ra.update(r.id, {})).toEqual(u)
      await ra.delete(r.id)
    })
  })

  describe('validation', () => {
    it('answers 400 naming each bad field', async () => {
      const paths = async (body: object) => (await rejects(ra.create(body), 'validation_error', 400)).details!.map((d) => d.path).sort()
      expect(await paths({ conditions: { description_regex: '(unclosed' }, actions: { category: 'X' } })).toEqual([
        'conditions.description_regex',
      ])
      expect(await paths({ conditions: { merchant_regex: 'x'.repeat(501) }, actions: { category: 'X' } })).toEqual([
        'conditions.merchant_regex',
      ])
      expect(await paths({ conditions: {}, actions: {} })).toEqual(['actions', 'conditions'])
      expect(
        await paths({ conditions: { min_amount: '5', max_amount: '-5', currency_code: 'XYZ' }, actions: { cash_flow_category: 'nope' } }),
      ).toEqual(['actions.cash_flow_category', 'conditions.currency_code', 'conditions.max_amount'])
      expect(
        await paths({ name: '', position: 0, conditions: { bank_account_id: 'nope' }, actions: { category: 'X' }, colour: 1 }),
      ).toEqual(['colour', 'conditions.bank_account_id', 'name', 'position'])
      expect(await paths({ conditions: { currency_code: 'USD' } })).toEqual(['actions'])
      const e = await rejects(ra.create({ conditions: { description_regex: '(a' }, actions: { category: 'X' } }), 'validation_error', 400)
      expect(e.message).toContain('conditions.description_regex')
      const r = (await ra.create({ conditions: { currency_code: 'EUR' }, actions: { tags: ['v'] } })).data
      expect((await rejects(ra.update(r.id, { conditions: { description_regex: '*' } }), 'validation_error', 400)).details![0].path).toBe(
        'conditions.description_regex',
      )
      expect((await rejects(ra.test(r.id, { since: 'yesterday' }), 'validation_error', 400)).details![0].path).toBe('since')
      expect((await rejects(ra.test(r.id, { limit: 0 }), 'validation_error', 400)).details![0].path).toBe('limit')
      expect((await rejects(ra.apply(r.id, { since: '2026-02-30' }), 'validation_error', 400)).details![0].path).toBe('since')
      await ra.delete(r.id)
      expect(await ra.list()).toEqual([])
    })

    it("refuses a condition on another company's bank account (404 naming the field)", async () => {
      const e = await rejects(ra.create({ conditions: { bank_account_id: b.accountId }, actions: { category: 'X' } }), 'not_found', 404)
      expect(e.details).toEqual([{ path: 'conditions.bank_account_id', message: 'no such bank account' }])
      const own = (await ra.create({ conditions: { bank_account_id: a.accountId }, actions: { category: 'X' } })).data
      expect(own.conditions.bank_account_id).toBe(a.accountId)
      await ra.delete(own.id)
    })
  })

  describe('limits', () => {
    it('a company keeps at most 1,000 rules: the next create is a 409, and nothing is added', async () => {
      const full = await h.tenant('Full')
      const at = new Date().toISOString()
      const conditions = JSON.stringify({ currency_code: 'EUR' })
      const actions = JSON.stringify({ tags: ['x'] })
      await h.store.db
        .insertInto('categorization_rules')
        .values(
          Array.from({ length: 1000 }, (_, i) => ({
            id: randomUUID(),
            company_id: full.companyId,
            position: i + 1,
            name: `r${i}`,
            conditions,
            actions,
            is_active: 1,
            created_at: at,
            updated_at: at,
          })),
        )
        .execute()
      const fr = rules(h.client({ apiKey: full.key }))
      const e = await rejects(fr.create({ conditions: { currency_code: 'EUR' }, actions: { tags: ['y'] } }), 'conflict', 409)
      expect(e.message).toContain('at most 1000 rules')
      expect(await fr.list()).toHaveLength(1000)
    })
  })

  describe('another company', () => {
    it("gets 404 for every route of A's rule and never sees it listed", async () => {
      const r = (await ra.create({ name: 'secret rule', conditions: { description_contains: 'aws' }, actions: { category: 'Hijack' } }))
        .data
      await rejects(rb.get(r.id), 'not_found', 404)
      await rejects(rb.update(r.id, { name: 'hijacked' }), 'not_found', 404)
      await rejects(rb.test(r.id), 'not_found', 404)
      await rejects(rb.apply(r.id), 'not_found', 404)
      await rejects(rb.delete(r.id), 'not_found', 404)
      expect(await rb.list()).toEqual([])
      await rejects(ra.get(randomUUID()), 'not_found', 404)
      expect(await ra.get(r.id)).toEqual(r)
      expect((await ca.transactions.get(tx.aws.id)).category).toBeNull()
      await ra.delete(r.id)
    })
  })

  describe('test and apply', () => {
    let rule: CategorizationRule
    beforeAll(async () => {
      rule = (
        await ra.create({
          name: 'AWS',
          conditions: { description_regex: '^aws emea', max_amount: '-10.005' },
          actions: { category: 'Cloud', accounting_category: 'operating_expenses', tags: ['infra'] },
        })
      ).data
    })

    it('test lists what would change (from -> to), counts matches that change nothing, and changes nothing', async () => {
      const before = (await ca.transactions.list({ limit: 1000 })).data
      const t = await ra.test(rule.id)
      expect(t).toMatchObject({ rule: { id: rule.id }, since: daysAgo(90), scanned: 4, matched: 2, would_change: 1 })
      expect(t.changes).toEqual([
        {
          transaction: tx.aws,
          changes: {
            category: { from: null, to: 'Cloud' },
            accounting_category: { from: null, to: 'operating_expenses' },
            tags: { from: ['cloud'], to: ['cloud', 'infra'] },
          },
          rule_ids: [rule.id],
        },
      ])
      const older = await ra.test(rule.id, { since: daysAgo(365), limit: 1 })
      expect(older).toMatchObject({ since: daysAgo(365), scanned: 5, matched: 3, would_change: 2 })
      expect(older.changes.map((c) => c.transaction.id)).toEqual([tx.aws_old.id])
      expect((await ra.test(rule.id, { since: '400d' })).would_change).toBe(2)
      // Nothing was changed, not even updated_at; no audit entry was written.
      expect((await ca.transactions.list({ limit: 1000 })).data).toEqual(before)
      expect((await ca.transactions.get(tx.aws.id)).history.map((e) => e.action)).toEqual(['create'])
    })

    it('a disabled rule can still be tested', async () => {
      await ra.update(rule.id, { is_active: false })
      expect((await ra.test(rule.id)).would_change).toBe(1)
      await ra.update(rule.id, { is_active: true })
    })

    it('apply changes the rows through the audited bulk update and reports counts; again changes nothing', async () => {
      const r = await ra.apply(rule.id, { since: '365d' })
      expect(r).toEqual({ since: daysAgo(365), only_empty: false, matched: 3, updated: 2, transaction_ids: [tx.aws_old.id, tx.aws.id] })
      const d = await ca.transactions.get(tx.aws.id)
      expect(d).toMatchObject({ category: 'Cloud', accounting_category: 'operating_expenses', tags: ['cloud', 'infra'] })
      expect(d.history.map((e) => e.action)).toEqual(['create', 'bulk_update'])
      expect(d.history[1]).toMatchObject({
        actor: `key:${a.keyId}`,
        changes: {
          category: { before: null, after: 'Cloud' },
          accounting_category: { before: null, after: 'operating_expenses' },
          tags: { before: ['cloud'], after: ['cloud', 'infra'] },
        },
      })
      // Matched but already as the rule says: untouched, no history entry.
      const done = await ca.transactions.get(tx.aws_done.id)
      expect(done).toMatchObject({ category: 'Cloud', accounting_category: 'operating_expenses', tags: ['infra'] })
      expect(done.history.map((e) => e.action)).toEqual(['create'])
      // One cent more than the bound, and an unrelated row: untouched.
      expect((await ca.transactions.get(tx.aws_cent_less.id)).category).toBeNull()
      expect((await ca.transactions.get(tx.rent.id)).category).toBeNull()
      expect(await ra.apply(rule.id, { since: '365d' })).toEqual({
        since: daysAgo(365),
        only_empty: false,
        matched: 3,
        updated: 0,
        transaction_ids: [],
      })
      expect((await ra.test(rule.id, { since: '365d' })).would_change).toBe(0)
    })

    it('apply without a body uses the last 90 days', async () => {
      const r = await h.raw('POST', `${PATH}/${rule.id}/apply`, { headers: { 'x-api-key': a.key } })
      expect(r.status).toBe(200)
      expect(((await r.json()) as { data: RuleApplyResult }).data).toMatchObject({ since: daysAgo(90), matched: 2, updated: 0 })
    })
  })

  describe('only_empty, and all rules in one pass', () => {
    it('only_empty keeps a category set by hand and fills the empty fields; all rules run in their order, the first setting a field winning', async () => {
      const made = async (description: string, category?: string) =>
        ca.transactions.create({ bank_account_id: a.accountId, transaction_date: daysAgo(1), description, amount: '-4.50', category })
      const hand = await made('Lunch meals shop', 'Coffee')
      const open = await made('Dinner meals shop')
      const meals = (
        await ra.create({
          conditions: { description_contains: 'meals shop' },
          actions: { category: 'Meals', accounting_category: 'operating_expenses' },
        })
      ).data
      const shop = (await ra.create({ conditions: { description_contains: 'shop' }, actions: { category: 'Shopping', tags: ['shop'] } }))
        .data
      try {
        // By default a rule replaces what it sets, and says how many rows hold another value now.
        const replacing = await ra.test(meals.id, { since: '2d' })
        expect(replacing).toMatchObject({ only_empty: false, matched: 2, would_change: 2, would_replace: 1 })
        expect(replacing.changes.find((c) => c.transaction.id === hand.id)?.changes.category).toEqual({ from: 'Coffee', to: 'Meals' })

        const t = await ra.testAll({ since: '2d', only_empty: 'true' })
        expect(t).toMatchObject({ rules: 3, only_empty: true, matched: 2, would_change: 2, would_replace: 0 })
        expect(t.rule).toBeUndefined()
        const byId = new Map(t.changes.map((c) => [c.transaction.id, c]))
        expect(byId.get(hand.id)).toMatchObject({
          changes: { accounting_category: { from: null, to: 'operating_expenses' }, tags: { from: [], to: ['shop'] } },
          rule_ids: [meals.id, shop.id],
        })
        expect(byId.get(hand.id)?.changes.category).toBeUndefined()
        expect(byId.get(open.id)?.changes.category).toEqual({ from: null, to: 'Meals' })

        const r = await ra.applyAll({ since: '2d', only_empty: true })
        expect(r).toMatchObject({ since: daysAgo(2), only_empty: true, matched: 2, updated: 2 })
        expect(await ca.transactions.get(hand.id)).toMatchObject({
          category: 'Coffee',
          accounting_category: 'operating_expenses',
          tags: ['shop'],
        })
        expect(await ca.transactions.get(open.id)).toMatchObject({
          category: 'Meals',
          accounting_category: 'operating_expenses',
          tags: ['shop'],
        })
        expect((await ra.testAll({ since: '2d', only_empty: 'true' })).would_change).toBe(0)
      } finally {
        await ra.delete(shop.id)
        await ra.delete(meals.id)
      }
    })

    it('a bad only_empty is a 400 naming it, on one rule and on all', async () => {
      const [first] = await ra.list()
      expect((await rejects(ra.testAll({ only_empty: 'yes' }), 'validation_error', 400)).details![0].path).toBe('only_empty')
      expect((await rejects(ra.test(first.id, { only_empty: '1' }), 'validation_error', 400)).details![0].path).toBe('only_empty')
      expect((await rejects(ra.applyAll({ only_empty: 'yes' }), 'validation_error', 400)).details![0].path).toBe('only_empty')
      expect((await rejects(ra.apply(first.id, { only_empty: 1 }), 'validation_error', 400)).details![0].path).toBe('only_empty')
    })
  })

  describe('scopes', () => {
    it('read may list, get and test; write may create, change, apply and delete; transactions neither', async () => {
      const admin = h.client({ token: a.token })
      const limits = { rate_limit_per_minute: 1_000_000, rate_limit_per_day: 100_000_000 }
      const keyed = async (scopes: Array<'read' | 'write' | 'transactions'>) =>
        rules(h.client({ apiKey: (await admin.keys.create({ name: scopes.join(), scopes, ...limits })).key }))
      const [read, write, txOnly] = [await keyed(['read']), await keyed(['write']), await keyed(['transactions'])]
      const body = { conditions: { currency_code: 'EUR' }, actions: { tags: ['s'] } }
      const made = (await write.create(body)).data
      expect((await read.get(made.id)).id).toBe(made.id)
      expect((await read.list()).map((r) => r.id)).toContain(made.id)
      expect((await read.test(made.id)).matched).toBe(0)
      const refused = [
        () => read.create(body),
        () => read.update(made.id, { name: 'x' }),
        () => read.apply(made.id),
        () => read.delete(made.id),
        () => write.list(),
        () => write.get(made.id),
        () => write.test(made.id),
        () => txOnly.list(),
        () => txOnly.test(made.id),
        () => txOnly.create(body),
        () => txOnly.apply(made.id),
        () => txOnly.delete(made.id),
      ]
      for (const call of refused) await rejects(call(), 'forbidden', 403)
      expect((await write.update(made.id, { name: 'renamed' })).name).toBe('renamed')
      expect((await write.apply(made.id)).matched).toBe(0)
      expect(await write.delete(made.id)).toEqual({ id: made.id, deleted: true })
    })
  })
})
