/**
 * The CLI in process (test/helpers/in-process-cli.ts; `finctl serve` spawned) maps hand-made
 * files shaped like real exports (test/fixtures/bank-files/) as their banks meant them, and its
 * plan on stderr says what it took:
 * a debit/credit indicator beside unsigned amounts (embedded and through `finctl serve`), unsigned
 * amounts without one, a date column headed "created", a description column with one value on
 * every row, and a Windows-1257 file.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT, spawnServe, tsv, type ServeProcess } from '../../helpers/cli.js'
import { fastKey, InProcessSandbox } from '../../helpers/in-process-cli.js'

const fixture = (name: string) => join(ROOT, 'test', 'fixtures', 'bank-files', name)

interface Summary {
  read: number
  created: number
  rejected: number
  amount_total: string | number
  notes: string[]
}

describe('tx import maps the columns as the bank meant them, and says how', () => {
  let sb: InProcessSandbox
  let server: ServeProcess | undefined
  const account = (...profile: string[]) => sb.newAccount({ flags: profile })
  const importJson = async (file: string, acct: string, ...flags: string[]) => {
    const r = await sb.run(['tx', 'import', fixture(file), '--account', acct, '--json', ...flags])
    expect(r.stderr).not.toMatch(/\n\s+at |internal error/)
    return { code: r.code, stderr: r.stderr, summary: JSON.parse(r.stdout) as Summary }
  }
  const descriptions = async (acct: string, ...profile: string[]) =>
    (await sb.json<Array<{ description: string }>>(['tx', 'list', '--account', acct, '--all', '--json', ...profile]))
      .map((t) => t.description)
      .sort()

  beforeAll(async () => {
    sb = new InProcessSandbox('csv-mapping')
    await sb.ok(['init', '--no-input', '--currency', 'USD'])
    await fastKey(sb)
  })
  afterAll(async () => {
    await server?.stop()
    sb?.cleanup()
  })

  it('unsigned amounts beside "Transaction Type" debit/credit: --dry-run shows -3,000.00 and the indicator, the import creates it', async () => {
    const acct = await account()
    const file = fixture('unsigned-amounts-transaction-type-debit-credit.csv')
    const dry = await sb.run(['tx', 'import', file, '--account', acct, '--dry-run'])
    expect(dry.code, dry.stderr).toBe(0)
    expect(tsv(dry.stdout)).toContainEqual(['amount total', '-3000.00 USD'])
    expect(dry.stderr).toContain('indicator <- Transaction Type')
    expect(dry.stderr).toContain('debit/credit indicator "Transaction Type": the amounts are unsigned, so it gives each row\'s sign')
    const { code, summary } = await importJson('unsigned-amounts-transaction-type-debit-credit.csv', acct)
    expect(code).toBe(0)
    expect({ created: summary.created, total: Number(summary.amount_total) }).toEqual({ created: 5, total: -3000 })
  })

  it('unsigned amounts and no indicator: the plan and --dry-run say every row reads as money in', async () => {
    const acct = await account()
    const dry = await sb.run(['tx', 'import', fixture('unsigned-amounts-no-indicator.csv'), '--account', acct, '--dry-run'])
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stderr).toContain('all 3 amounts in "Amount" are unsigned and no column says debit or credit: every row reads as money in')
    const { summary } = await importJson('unsigned-amounts-no-indicator.csv', acct, '--dry-run')
    expect(summary.notes.join('\n')).toContain('every row reads as money in')
  })

  it('a description column with one value on every row is passed over for Description 1 + 2 + 3', async () => {
    const acct = await account()
    const { code, stderr, summary } = await importJson('constant-description-text-in-numbered-columns.csv', acct)
    expect(code, stderr).toBe(0)
    expect(stderr).toContain('description <- Description 1 + Description 2 + Description 3')
    expect(Number(summary.amount_total)).toBe(-1745.2)
    expect(await descriptions(acct)).toEqual([
      'Ordre e-banking / Loyer juin / Régie Dupont SA, 1005 Lausanne',
      'Paiement carte / Migros Lausanne',
      'Virement postal / ASSOCIATION DU QUARTIER / Rue du Lac 3, 1003 Lausanne',
    ])
  })

  it('a date column headed "created" is found by its values, and a Windows-1257 file reads as Lithuanian', async () => {
    const created = await importJson('date-column-headed-created.csv', await account())
    expect(created.code, created.stderr).toBe(0)
    expect(created.stderr).toContain('date <- created (its values are dates)')
    expect(created.summary.created).toBe(3)
    const acct = await account()
    const lt = await importJson('lithuanian-windows-1257-no-bom.csv', acct)
    expect(lt.code, lt.stderr).toBe(0)
    expect(lt.stderr).toContain('encoding windows-1257 (detected: not utf-8; its letters read as Lithuanian, Latvian or Estonian)')
    expect(await descriptions(acct)).toContain('Paslaugų ir komisinių mokestis už sausį')
  })

  it('through finctl serve: the same indicator and description, on a remote target', async () => {
    server = await spawnServe(['--database', sb.database], { cwd: sb.dir, env: sb.env(), stopTimeoutMs: 15_000 })
    const key = sb.profiles().profiles.local.api_key!
    await sb.ok(['profile', 'add', 'remote', '--base-url', server.url, '--api-key-stdin'], { input: `${key}\n` })
    const remote = ['--profile', 'remote']
    const acct = await account(...remote)
    const typed = await importJson('unsigned-amounts-transaction-type-debit-credit.csv', acct, ...remote)
    expect(typed.code, typed.stderr).toBe(0)
    expect(Number(typed.summary.amount_total)).toBe(-3000)
    const other = await account(...remote)
    const described = await importJson('constant-description-text-in-numbered-columns.csv', other, ...remote)
    expect(described.code, described.stderr).toBe(0)
    expect(await descriptions(other, ...remote)).toContain('Paiement carte / Migros Lausanne')
  })
})
