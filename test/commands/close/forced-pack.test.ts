/**
 * A month closed with --force over a statement whose closing balance differs from the books by 3.50
 * (docs/closing.md, "Closing a month"): the close records what it was forced over, in its signed
 * record; `verify --pack` and `verify --close` say so and exit 0; a difference the close did not
 * record is still exit 13.
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { monthEnd, previousMonth } from '../../../src/domain/accounts/period-lock.js'
import { readPackZip } from '../../../src/jobs/pack/zip-read.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'
import { rawZip } from '../../helpers/raw-zip.js'

const today = new Date().toISOString().slice(0, 10)
const M = previousMonth(today.slice(0, 7))
const END = monthEnd(M)
const compact = (iso: string) => iso.replaceAll('-', '')

/** Lines of -42.50 and +1200.00 from 500.00: the books end at 1657.50, the bank says 1661.00. */
const ofx = `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>78<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST><DTSTART>${compact(`${M}-01`)}<DTEND>${compact(END)}<STMTTRN><TRNTYPE>OTHER<DTPOSTED>${compact(`${M}-05`)}<TRNAMT>-42.50<FITID>F1<NAME>Paper Shop</STMTTRN><STMTTRN><TRNTYPE>OTHER<DTPOSTED>${compact(`${M}-12`)}<TRNAMT>1200.00<FITID>F2<NAME>Client pays</STMTTRN></BANKTRANLIST><LEDGERBAL><BALAMT>1661.00<DTASOF>${compact(END)}</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n`

describe('a forced close verifies as forced', () => {
  let sb: InProcessSandbox
  let statementId: string
  let pack: string
  let publicKey: string
  const REASON = 'the bank fee of 3.50 is booked next month'

  beforeAll(async () => {
    sb = new InProcessSandbox('forced-pack')
    await sb.ok(['init', '--company', 'Forced Co', '--currency', 'USD', '--email', 'f@forced.test', '--password-stdin', '--no-input'], {
      input: 'password-for-forced\n',
    })
    const acct = (
      await sb.json<{ id: string }>([
        'accounts',
        'create',
        '--name',
        'Main',
        '--type',
        'checking',
        '--opening-balance',
        '500.00',
        '--opening-balance-date',
        monthEnd(previousMonth(M)),
        '--json',
      ])
    ).id
    writeFileSync(sb.path('statement.ofx'), ofx)
    statementId = (await sb.json<{ id: string }>(['statements', 'upload', sb.path('statement.ofx'), '--account', acct, '--json'])).id
    const refused = await sb.run(['close', M])
    expect(refused.code).toBe(12)
    expect(refused.stderr).toContain('differs from the book balance 1657.50')
    await sb.ok(['close', M, '--force', '--reason', REASON])
    pack = sb.path('forced.zip')
    await sb.ok(['close', 'pack', M, '-o', pack])
    publicKey = (await sb.json<{ pack_public_key: string }>(['company', 'show', '--json'])).pack_public_key
  })
  afterAll(() => sb?.cleanup())

  it('the close record keeps what it was forced over: the statement, its difference, the accounts not ready, who', async () => {
    const [close] = await sb.json<Array<Record<string, unknown>>>(['close', 'history', '--json'])
    expect(close).toMatchObject({ forced: true, reason: REASON, actor_name: 'f@forced.test' })
    expect(close.forced_over).toMatchObject({
      statements: [
        {
          statement_id: statementId,
          bank_account: 'Main',
          closing_balance: '1661.00',
          book_balance: '1657.50',
          difference: '3.50',
          currency_code: 'USD',
          period_end: END,
        },
      ],
      accounts: [
        expect.objectContaining({ bank_account: 'Main', blockers: expect.arrayContaining([expect.stringContaining('by 3.50 USD')]) }),
      ],
    })
  })

  it('verify --pack: intact, the difference named as forced over, with the reason', async () => {
    const r = await sb.run(['verify', '--pack', pack, '--public-key', publicKey])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain(
      `note: forced over: statement ${statementId} ("statement.ofx") of Main differs from the books by 3.50 USD (closing balance 1661.00, books 1657.50 on ${END}), as the close recorded; closed by f@forced.test, reason: "${REASON}"`,
    )
    expect(r.stderr).toContain('forced.zip is intact')
  })

  it('verify --close: as it was closed, the forced close said', async () => {
    const r = await sb.run(['verify', '--close', M])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain(
      `forced over: statement ${statementId} of Main differs from the books by 3.50 USD (closing balance 1661.00, books 1657.50 on ${END}); closed by f@forced.test`,
    )
    expect(r.stderr).toContain(`reason: "${REASON}"`)
    expect(r.stderr).toContain(`${M} is as it was closed`)
  })

  it('a difference the close did not record is a problem, exit 13', async () => {
    const files = await readPackZip(pack)
    const m = JSON.parse(files.get('manifest.json')!.toString())
    m.close.forced_over.statements[0].difference = '1.00'
    const close = JSON.parse(files.get('close.json')!.toString())
    close.close = m.close
    files.set('close.json', Buffer.from(JSON.stringify(close)))
    const entry = m.files.find((f: { path: string }) => f.path === 'close.json')
    entry.sha256 = createHash('sha256').update(files.get('close.json')!).digest('hex')
    entry.bytes = files.get('close.json')!.length
    const forger = generateKeyPairSync('ed25519')
    const bytes = Buffer.from(JSON.stringify(m))
    files.set('manifest.json', bytes)
    const x = forger.publicKey.export({ format: 'jwk' }).x as string
    files.set(
      'signature.json',
      Buffer.from(
        JSON.stringify({ algorithm: 'ed25519', public_key: x, signature: sign(null, bytes, forger.privateKey).toString('base64') }),
      ),
    )
    const path = sb.path('unrecorded.zip')
    writeFileSync(path, rawZip([...files].map(([name, data]) => ({ name, data, deflate: true }))))
    const r = await sb.run(['verify', '--pack', path, '--public-key', x])
    expect(r.code).toBe(13)
    expect(r.stderr).toContain(
      `pack: statement ${statementId}: the book's balance before its first day 500.00 plus the journal's 2 transactions`,
    )
    expect(r.stderr).toContain('is not its closing balance 1661.00 USD')
  })
})
