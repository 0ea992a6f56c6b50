/**
 * A table column's currency is the currency of every value in it: a header that names a currency
 * ("AMOUNT USD") holds amounts in that currency alone; a column of several says "amount" and each
 * value carries its code. Every table of amounts on a terminal, over a company in USD with an
 * account in EUR, embedded and through `finctl serve`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TARGET_KINDS, type Target, openTarget } from '../../helpers/two-targets.js'

const today = new Date().toISOString().slice(0, 10)
const CODE = /\b[A-Z]{3}\b/g

/** Each column of a box-drawn table whose header ends with a currency code, and its cells' foreign codes. */
function foreignCodes(table: string): string[] {
  const rows = table.split('\n').filter((l) => l.startsWith('│'))
  if (!rows.length) return []
  const cells = (l: string) => l.split('│').map((c) => c.trim())
  const header = cells(rows[0])
  const out: string[] = []
  header.forEach((h, i) => {
    const code = /\b([A-Z]{3})$/.exec(h)?.[1]
    if (!code || h === code) return
    for (const r of rows.slice(1)) for (const c of cells(r)[i]?.match(CODE) ?? []) if (c !== code) out.push(`${h}: ${cells(r)[i]}`)
  })
  return out
}

describe.each(TARGET_KINDS)('a column of one currency holds that currency alone (%s)', (kind) => {
  let t: Target
  beforeAll(async () => {
    t = await openTarget(kind, 'columns')
    const usd = (await t.json(['accounts', 'create', '--name', 'Dollars', '--type', 'checking', '--currency', 'USD', '--json'])).id
    const eur = (await t.json(['accounts', 'create', '--name', 'Euros', '--type', 'checking', '--currency', 'EUR', '--json'])).id
    await t.ok(['tx', 'create', '--account', usd, '--date', today, '--amount', '1200.00', '--description', 'Invoice 7'])
    await t.ok([
      'tx',
      'create',
      '--account',
      eur,
      '--date',
      today,
      '--amount',
      '28558.31',
      '--description',
      'Invoice 8',
      '--exchange-rate',
      '1.10',
    ])
  })
  afterAll(() => t?.close())

  it('reports summary, cash-flow, accounts list, tx list and close status on a terminal', async () => {
    const commands = [
      ['reports', 'summary', '--from', today, '--to', today],
      ['reports', 'cash-flow', '--from', today, '--to', today],
      ['accounts', 'list'],
      ['tx', 'list'],
      ['close', 'status'],
    ]
    for (const args of commands) {
      const r = await t.run(args, { tty: { stdout: true }, columns: 160, env: { NO_COLOR: '1' } })
      expect([0, 12], `${args.join(' ')}: ${r.stderr}`).toContain(r.code)
      expect(foreignCodes(r.stdout), `${args.join(' ')}:\n${r.stdout}`).toEqual([])
    }
    const summary = await t.run(commands[0], { tty: { stdout: true }, columns: 160, env: { NO_COLOR: '1' } })
    expect(summary.stdout).toMatch(/│\s+AMOUNT\s+│/)
    expect(summary.stdout).toContain('28,558.31 EUR')
    expect(summary.stdout).toMatch(/31,414\.14 USD|1,200\.00 USD/)
  })
})
