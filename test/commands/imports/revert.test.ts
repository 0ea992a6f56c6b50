/**
 * `finctl imports revert` in process, on SQLite: a file imported with inverted signs, reverted, and
 * the corrected file imported leaves exactly its rows; a file whose descriptions differ only in case
 * (skipped as already there without the revert) comes in after one; --dry-run changes nothing; the
 * confirmation (asked on a terminal, --yes otherwise); refusals exit 6; a statement's file comes again.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

interface Summary {
  batch_id: string
  created: number
  already_imported: number
}
interface Row {
  transaction_date: string
  description: string
  amount: number
}

const TERMINAL = { tty: { stdin: true, stderr: true } }

// Eight to twelve commands a test, each an import or a revert with its threads: 27 s under load 9.
describe('imports revert, in process', { timeout: 90_000 }, () => {
  let sb: InProcessSandbox

  beforeAll(async () => {
    sb = new InProcessSandbox('imports-revert')
    await sb.ok(['init', '--company', 'Revert Co', '--currency', 'USD', '--email', 'o@revert.test', '--password-stdin', '--no-input'], {
      input: 'password-for-reverts\n',
    })
  })
  afterAll(() => sb?.cleanup())

  const account = async (name: string) =>
    (await sb.json<{ id: string }>(['accounts', 'create', '--name', name, '--type', 'checking', '--json'])).id

  async function importFile(acct: string, name: string, text: string): Promise<Summary> {
    const file = sb.path(name)
    writeFileSync(file, text)
    const r = await sb.run(['tx', 'import', file, '--account', acct, '--json'])
    expect(r.code, r.stderr).toBe(0)
    return JSON.parse(r.stdout) as Summary
  }
  const rowsOf = async (acct: string) =>
    (await sb.json<Row[]>(['tx', 'list', '--account', acct, '--json'])).map((t) => [t.transaction_date, t.description, t.amount]).sort()

  it('inverted signs: dry run, the question, the revert; the corrected file then gives exactly its 3 rows', async () => {
    const acct = await account('Main')
    const wrong = await importFile(
      acct,
      'wrong.csv',
      'Date,Description,Amount\n2026-03-02,Salary,-1000.00\n2026-03-03,Rent,800.00\n2026-03-04,Coffee,3.50\n',
    )
    expect(wrong.created).toBe(3)

    const dry = await sb.run(['imports', 'revert', wrong.batch_id, '--dry-run', '--json'])
    expect(dry.code, dry.stderr).toBe(0)
    expect(JSON.parse(dry.stdout)).toMatchObject({ dry_run: true, deleted: 3, refused: [] })
    expect(dry.stderr).toContain('nothing was changed')
    const table = await sb.run(['imports', 'revert', wrong.batch_id.slice(-8), '--dry-run'])
    expect(table.code).toBe(0)
    expect(table.stdout).toContain('Salary')
    expect(await rowsOf(acct)).toHaveLength(3)

    // Without a terminal, --yes is needed (exit 2); on one, the question names what goes, and "n" keeps it.
    const refused = await sb.run(['imports', 'revert', wrong.batch_id])
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining('--yes')])
    const no = await sb.run(['imports', 'revert', wrong.batch_id], { ...TERMINAL, script: [['Revert import batch', 'n\r']] })
    expect(no.code).toBe(2)
    expect(no.stderr).toContain('3 rows to delete')
    expect(no.stderr).toContain('cancelled: nothing was changed')
    expect(await rowsOf(acct)).toHaveLength(3)
    const yes = await sb.run(['imports', 'revert', wrong.batch_id], { ...TERMINAL, script: [['Revert import batch', 'y\r']] })
    expect(yes.code, yes.stderr).toBe(0)
    expect(yes.stderr).toContain('3 rows deleted')
    expect(await rowsOf(acct)).toEqual([])

    const right = await importFile(
      acct,
      'right.csv',
      'Date,Description,Amount\n2026-03-02,Salary,1000.00\n2026-03-03,Rent,-800.00\n2026-03-04,Coffee,-3.50\n',
    )
    expect(right).toMatchObject({ created: 3, already_imported: 0 })
    expect(await rowsOf(acct)).toEqual([
      ['2026-03-02', 'Salary', 1000],
      ['2026-03-03', 'Rent', -800],
      ['2026-03-04', 'Coffee', -3.5],
    ])
    expect((await sb.json<{ state: string }>(['imports', 'show', wrong.batch_id, '--json'])).state).toBe('reverted')
    expect((await sb.run(['verify'])).code).toBe(0)

    // Twice: refused, exit 6.
    const twice = await sb.run(['imports', 'revert', wrong.batch_id, '--yes'])
    expect([twice.code, twice.stderr]).toEqual([6, expect.stringContaining('reverted already')])
  })

  it('descriptions differing only in case: skipped as already there without a revert, imported after one', async () => {
    const first = 'Date,Description,Amount\n2026-04-01,COFFEE SHOP,-3.00\n2026-04-02,BOOK STORE,-12.00\n2026-04-03,TAXI,-20.00\n'
    const fixed = 'Date,Description,Amount\n2026-04-01,Coffee Shop,-3.00\n2026-04-02,Book Store,-12.00\n2026-04-03,Taxi,-20.00\n'
    const control = await account('Control')
    await importFile(control, 'a.csv', first)
    expect(await importFile(control, 'b.csv', fixed)).toMatchObject({ created: 0, already_imported: 3 })

    const acct = await account('Descriptions')
    const a = await importFile(acct, 'a.csv', first)
    expect((await sb.run(['imports', 'revert', a.batch_id, '--yes'])).code).toBe(0)
    const b = await importFile(acct, 'b.csv', fixed)
    expect(b).toMatchObject({ created: 3, already_imported: 0 })
    expect((await rowsOf(acct)).map((r) => r[1])).toEqual(['Coffee Shop', 'Book Store', 'Taxi'])
    // Revert then re-import of the same file: the same three rows, none doubled or lost.
    expect((await sb.run(['imports', 'revert', b.batch_id, '--yes'])).code).toBe(0)
    expect(await importFile(acct, 'b2.csv', fixed)).toMatchObject({ created: 3, already_imported: 0 })
    expect((await rowsOf(acct)).map((r) => r[1])).toEqual(['Coffee Shop', 'Book Store', 'Taxi'])
    expect((await sb.run(['verify'])).code).toBe(0)
  })

  it('a row changed by hand stops it (exit 6, naming it and --include-edited) until --include-edited', async () => {
    const acct = await account('Edited')
    const b = await importFile(acct, 'e.csv', 'Date,Description,Amount\n2026-05-01,Lunch,-9.00\n2026-05-02,Dinner,-19.00\n')
    const lunch = (await sb.json<Array<{ id: string; description: string }>>(['tx', 'list', '--account', acct, '--json'])).find(
      (t) => t.description === 'Lunch',
    )!
    await sb.ok(['tx', 'update', lunch.id, '--category', 'Meals'])
    const dry = await sb.run(['imports', 'revert', b.batch_id, '--dry-run'])
    expect(dry.code).toBe(6)
    expect(dry.stderr).toContain(`refused: ${lunch.id}`)
    const r = await sb.run(['imports', 'revert', b.batch_id, '--yes'])
    expect(r.code).toBe(6)
    expect(r.stderr).toContain(lunch.id)
    expect(r.stderr).toContain('--include-edited')
    expect(await rowsOf(acct)).toHaveLength(2)
    const forced = await sb.run(['imports', 'revert', b.batch_id, '--include-edited', '--yes', '--json'])
    expect(forced.code, forced.stderr).toBe(0)
    expect(JSON.parse(forced.stdout)).toMatchObject({ deleted: 2 })
    expect(await rowsOf(acct)).toEqual([])
  })

  it("a statement upload's revert deletes the statement: the same file is accepted again", async () => {
    const acct = await account('Statements')
    const file = sb.path('jan.ofx')
    writeFileSync(
      file,
      'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>99<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>' +
        '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240102<TRNAMT>-12.00<FITID>F2<NAME>Shop 2</STMTTRN>' +
        '</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n',
    )
    const up = await sb.run(['statements', 'upload', file, '--account', acct, '--json'])
    expect(up.code, up.stderr).toBe(0)
    const { batch_id } = JSON.parse(up.stdout) as { batch_id: string }
    const dup = await sb.run(['statements', 'upload', file, '--account', acct])
    expect(dup.code).toBe(6)
    const r = await sb.run(['imports', 'revert', batch_id, '--yes'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('so the file can be uploaded again')
    expect(await rowsOf(acct)).toEqual([])
    // Its show no longer points at the statement's rows (the statement is gone), but says what happened.
    const shown = await sb.run(['imports', 'show', batch_id])
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.stdout).toMatch(/state\s+reverted/)
    expect(shown.stderr).not.toContain('statements transactions')
    const statementId = (JSON.parse(up.stdout) as { id: string }).id
    expect(shown.stderr).toMatch(
      new RegExp(`^reverted by .+ at \\d{4}-\\d\\d-\\d\\dT[^:]+:\\d\\d:\\d\\d.*: its rows and statement ${statementId} were deleted$`, 'm'),
    )
    expect((await sb.run(['statements', 'transactions', statementId])).code).not.toBe(0)
    expect((await sb.run(['statements', 'upload', file, '--account', acct])).code).toBe(0)
    expect(await rowsOf(acct)).toHaveLength(1)
  })
})
