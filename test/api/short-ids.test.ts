/**
 * Short ids on the list route (docs/cli.md "Short ids"): `id_prefix` (a range of the id
 * index) and `id_suffix` (a match over the company's rows), through both transports on both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { AppError } from '../../src/kernel/errors.js'
import type { Transaction } from '../../src/domain/schemas.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

describe.each(MATRIX)('short ids over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client
  const made: Transaction[] = []

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Acme')
    c = h.client({ apiKey: a.key })
    for (let i = 0; i < 6; i++) {
      made.push(
        await c.transactions.create({
          bank_account_id: a.accountId,
          transaction_date: '2026-01-05',
          description: `row ${i}`,
          amount: `-${i + 1}.00`,
        }),
      )
    }
  })
  afterAll(() => h?.close())

  it('id_suffix finds the one transaction whose id ends so (the last 8 characters, or 6, dashes or not, any case)', async () => {
    for (const t of made) {
      const { data } = await c.transactions.list({ id_suffix: t.id.slice(-8) })
      expect(data.map((x) => x.id)).toEqual([t.id])
    }
    const { data } = await c.transactions.list({ id_suffix: made[2].id.slice(-6).toUpperCase() })
    expect(data.map((x) => x.id)).toContain(made[2].id)
    const dashed = await c.transactions.list({ id_suffix: made[3].id.slice(-17) })
    expect(dashed.data.map((x) => x.id)).toEqual([made[3].id])
  })

  it('id_prefix is a range of the id: a UUIDv7 prefix of its time matches all made together; a long one, one', async () => {
    const all = await c.transactions.list({ id_prefix: made[0].id.slice(0, 8) })
    expect(all.data.length).toBeGreaterThanOrEqual(1)
    for (const t of all.data) expect(t.id.startsWith(made[0].id.slice(0, 8))).toBe(true)
    const one = await c.transactions.list({ id_prefix: made[4].id.slice(0, 28) })
    expect(one.data.map((x) => x.id)).toEqual([made[4].id])
    const none = await c.transactions.list({ id_prefix: 'ffffffffff' })
    expect(none.data).toEqual([])
  })

  it("never matches another company's transactions", async () => {
    const b = await h.tenant('Beta')
    const { data } = await h.client({ apiKey: b.key }).transactions.list({ id_suffix: made[0].id.slice(-8) })
    expect(data).toEqual([])
  })

  it('refuses fewer than 6 hex digits, or other characters, with 400 naming the field', async () => {
    for (const bad of ['abc12', 'xyzxyzxyz', '1234567890123456789012345678901234']) {
      const e = await c.transactions.list({ id_suffix: bad }).then(
        () => undefined,
        (err: unknown) => err,
      )
      expect(e).toBeInstanceOf(AppError)
      expect((e as AppError).status).toBe(400)
      expect(JSON.stringify((e as AppError).details)).toContain('id_suffix')
    }
  })
})
