/**
 * A re-run after a close creates nothing and refuses nothing: rows already on the account count as
 * "already imported" whatever month they are dated in and whether it is closed since; only a new row
 * dated in a closed month is refused. Each path that writes rows of a file: `tx import`,
 * `statements upload`, `imports apply` of a reviewed batch; embedded and through `finctl serve`.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { monthEnd, previousMonth } from '../../../src/domain/accounts/period-lock.js'
import { TARGET_KINDS, type Target, openTarget } from '../../helpers/two-targets.js'

const today = new Date().toISOString().slice(0, 10)
const M = previousMonth(today.slice(0, 7))
const day = (d: number) => `${M}-${String(d).padStart(2, '0')}`

describe.each(TARGET_KINDS)('after a close, rows already there are "already imported" (%s)', (kind) => {
  let t: Target
  const csv = (name: string, rows: Array<[string, string, string]>) => {
    const path = t.sb.path(name)
    writeFileSync(path, `Date,Description,Amount\n${rows.map((r) => r.join(',')).join('\n')}\n`)
    return path
  }
  const account = async (name: string) =>
    (await t.json<{ id: string }>(['accounts', 'create', '--name', name, '--type', 'checking', '--currency', 'USD', '--json'])).id

  let csvAccount: string
  let statementAccount: string
  let reviewAccount: string
  let reviewBatch: string
  const SEVEN: Array<[string, string, string]> = [1, 2, 3, 4, 5, 6, 7].map((d) => [day(d), `Row ${d}`, `-${d}.25`])
  const STATEMENT: Array<[string, string, string]> = [
    [day(10), 'Rent', '-900.00'],
    [day(11), 'Invoice 7', '1200.00'],
  ]
  const REVIEWED: Array<[string, string, string]> = [
    [day(12), 'Paper', '-12.00'],
    [day(13), 'Ink', '-30.00'],
  ]

  beforeAll(async () => {
    t = await openTarget(kind, 'reruns')
    csvAccount = await account('Imports')
    statementAccount = await account('Statements')
    reviewAccount = await account('Reviews')
    const first = await t.run(['tx', 'import', csv('seven.csv', SEVEN), '--account', csvAccount, '--json'])
    expect(first.code, first.stderr).toBe(0)
    expect(JSON.parse(first.stdout)).toMatchObject({ created: 7 })
    // The statement's lines are on the account already, from a CSV import of the bank's export.
    await t.ok(['tx', 'import', csv('export.csv', STATEMENT), '--account', statementAccount])
    // A review staged before the close, its rows imported meanwhile by a plain import.
    const review = await t.json(['tx', 'import', csv('reviewed.csv', REVIEWED), '--account', reviewAccount, '--review', '--json'])
    reviewBatch = review.batch_id
    await t.ok(['tx', 'import', t.sb.path('reviewed.csv'), '--account', reviewAccount])
    await t.ok(['close', M, '--force', '--reason', 'reruns'])
  })
  afterAll(() => t?.close())

  it('tx import again: exit 0, "already imported 7", nothing rejected', async () => {
    const again = await t.run(['tx', 'import', t.sb.path('seven.csv'), '--account', csvAccount])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stdout).toMatch(/already imported\s+7/)
    expect(again.stdout).toMatch(/rejected\s+0/)
    expect(again.stderr).not.toContain('closed period')
    const json = await t.json(['tx', 'import', t.sb.path('seven.csv'), '--account', csvAccount, '--json'])
    expect(json).toMatchObject({ created: 0, already_imported: 7, rejected: 0 })
  })

  it('tx import: a new row dated in the closed month is refused (exit 8), the rows there are not', async () => {
    const r = await t.run(['tx', 'import', csv('eight.csv', [...SEVEN, [day(8), 'Row 8', '-8.25']]), '--account', csvAccount, '--json'])
    expect(r.code, r.stderr).toBe(8)
    const s = JSON.parse(r.stdout)
    expect(s).toMatchObject({ created: 0, already_imported: 7, rejected: 1 })
    expect(s.rejects).toEqual([expect.objectContaining({ line: 9, reason: expect.stringContaining(`the lock date is ${monthEnd(M)}`) })])
  })

  it('statements upload: lines a transaction of the closed month holds are already imported (exit 0)', async () => {
    const file = csv('statement.csv', [...STATEMENT, [today, 'Coffee', '-3.50']])
    const r = await t.run(['statements', 'upload', file, '--account', statementAccount, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'completed', transaction_count: 1, duplicate_count: 2 })
    const table = await t.run([
      'statements',
      'upload',
      csv('statement2.csv', [...STATEMENT, [today, 'Tea', '-2.50']]),
      '--account',
      statementAccount,
    ])
    expect(table.code, table.stderr).toBe(0)
    expect(table.stderr).toContain('1 transaction created, 0 reconciled, 2 already imported')
  })

  it('statements upload: a new line dated in the closed month still fails the statement (exit 6)', async () => {
    const r = await t.run([
      'statements',
      'upload',
      csv('late.csv', [...STATEMENT, [day(20), 'Late fee', '-5.00']]),
      '--account',
      statementAccount,
    ])
    expect(r.code).toBe(6)
    expect(r.stderr).toContain(`1 line is dated on or before the lock date ${monthEnd(M)}`)
  })

  it('imports apply of a reviewed batch whose rows are there: exit 0, all already there', async () => {
    const r = await t.run(['imports', 'apply', reviewBatch, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ state: 'completed', counts: { created: 0, existing: 2, rejected: 0 } })
  })
})
