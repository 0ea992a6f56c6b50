/**
 * `statements upload --review` then `imports show | apply | revert`, in process, on SQLite: the
 * review records no statement, apply uploads it and waits for its lines, a revert takes it back so
 * the file uploads again; --review with --preview is a usage error (exit 2).
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HAS_BANK_FILES, bankFile } from '../../helpers/bank-files.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

const OFX =
  'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>55<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>' +
  '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260201<TRNAMT>-11.00<FITID>S1<NAME>Shop 1</STMTTRN>' +
  '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260202<TRNAMT>-4.50<FITID>S2<NAME>Cafe</STMTTRN>' +
  '</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n'

describe('statements upload --review, in process', () => {
  let sb: InProcessSandbox
  beforeAll(async () => {
    sb = new InProcessSandbox('statement-review')
    await sb.ok(['init', '--company', 'Stmt Review', '--currency', 'USD', '--email', 'o@sr.test', '--password-stdin', '--no-input'], {
      input: 'password-for-stmt-review\n',
    })
  })
  afterAll(() => sb?.cleanup())

  it('records no statement until apply; apply uploads it once; revert gives it back to not uploaded', async () => {
    const acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    const file = sb.path('feb.ofx')
    writeFileSync(file, OFX)
    const r = await sb.run(['statements', 'upload', file, '--account', acct, '--review'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/state\s+pending/)
    expect(r.stdout).toMatch(/pending\s+2/)
    const short = /finctl imports apply ([0-9a-f]{8}) would upload feb\.ofx \(2 lines\)/.exec(r.stderr)?.[1]
    expect(short, r.stderr).toBeDefined()
    expect(await sb.json(['statements', 'list', '--account', acct, '--json'])).toEqual([])
    expect(await sb.json(['tx', 'list', '--account', acct, '--json'])).toEqual([])
    const show = await sb.run(['imports', 'show', short as string])
    expect(show.stdout).toContain('Shop 1')

    const applied = await sb.run(['imports', 'apply', short as string])
    expect(applied.code, applied.stderr).toBe(0)
    expect(applied.stdout).toMatch(/created\s+2/)
    expect(await sb.json<unknown[]>(['statements', 'list', '--account', acct, '--json'])).toHaveLength(1)
    expect(await sb.json<unknown[]>(['tx', 'list', '--account', acct, '--json'])).toHaveLength(2)
    const again = await sb.run(['imports', 'apply', short as string])
    expect([again.code, again.stderr]).toEqual([0, expect.stringContaining('applied before')])

    const rv = await sb.run(['imports', 'revert', short as string, '--yes'])
    expect(rv.code, rv.stderr).toBe(0)
    expect(await sb.json(['statements', 'list', '--account', acct, '--json'])).toEqual([])
    const up = await sb.run(['statements', 'upload', file, '--account', acct])
    expect(up.code, up.stderr).toBe(0)
  })

  it.skipIf(!HAS_BANK_FILES)('a real OFX file of the corpus: reviewed, then applied', async () => {
    const acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Corpus', '--type', 'checking', '--json'])).id
    const r = await sb.run(['statements', 'upload', bankFile('ofx', 'us-checking-sgml-v102-indented.ofx'), '--account', acct, '--review'])
    expect(r.code, r.stderr).toBe(0)
    const short = /finctl imports apply ([0-9a-f]{8}) would upload us-checking-sgml-v102-indented\.ofx \(3 lines\)/.exec(r.stderr)?.[1]
    expect(short, r.stderr).toBeDefined()
    const applied = await sb.run(['imports', 'apply', short as string])
    expect(applied.code, applied.stderr).toBe(0)
    expect(await sb.json<unknown[]>(['tx', 'list', '--account', acct, '--json'])).toHaveLength(3)
  })

  it('--review with --preview is a usage error', async () => {
    const file = sb.path('x.ofx')
    writeFileSync(file, OFX)
    const r = await sb.run(['statements', 'upload', file, '--account', 'Main', '--review', '--preview'])
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('--review cannot go with --preview')])
  })
})
