/**
 * End to end through the built CLI: a month with a real bank statement from the corpus (an OFX of
 * August 2013, test/helpers/bank-files.ts), a PDF and a UBL invoice built here and linked to its
 * transactions, closed, packed with `finctl close pack` (the statement's original file in it, byte
 * for byte), then checked by `finctl verify --pack` in a process with an empty HOME, no profile, no
 * config and no database: intact, then tampered (the journal, the original) and refused (exit 13); the key given is pinned (0600), and a pack re-signed with another key is refused without --public-key. The tamperings one by one run in process: test/commands/close/pack.test.ts.
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { keyFingerprint } from '../../src/jobs/pack/verify.js'
import { readPackZip } from '../../src/jobs/pack/zip-read.js'
import { bankFile, HAS_BANK_FILES } from '../helpers/bank-files.js'
import { cleanEnv, runFinctl, Sandbox } from '../helpers/cli.js'
import { minimalPdf, ublInvoice } from '../helpers/document-files.js'
import { rawZip } from '../helpers/raw-zip.js'

// Checking account 000000123/123456: four lines on 2013-08-24, -360.00 USD; the statement closes at 2,156.56.
const OFX = bankFile('ofx/us-checking-xml-v211.ofx')

describe.skipIf(!HAS_BANK_FILES)('close pack and verify --pack, the built CLI', () => {
  let sb: Sandbox
  let empty: string
  let publicKey: string
  let statementId: string
  const offline = (args: string[]) => runFinctl(args, cleanEnv({ HOME: empty }), { cwd: empty })

  beforeAll(async () => {
    sb = new Sandbox('close-pack')
    await sb.ok(['init', '--no-input', '--currency', 'USD'])
    const acct = (
      await sb.json([
        'accounts',
        'create',
        '--name',
        'Checking',
        '--type',
        'checking',
        '--currency',
        'USD',
        '--account-number',
        '123456',
        '--opening-balance',
        '2516.56',
        '--opening-balance-date',
        '2013-07-31',
        '--json',
      ])
    ).id as string
    const s = await sb.json(['statements', 'upload', OFX, '--account', acct, '--json'])
    expect(s).toMatchObject({ status: 'completed', period_start: '2013-08-01', period_end: '2013-08-31', closing_balance: 2156.56 })
    statementId = s.id
    const txs = await sb.json<Array<{ id: string }>>(['statements', 'transactions', s.id, '--json'])
    expect(txs).toHaveLength(4)
    writeFileSync(join(sb.dir, 'receipt.pdf'), minimalPdf('Check 80.00 USD 2013-08-24'))
    writeFileSync(join(sb.dir, 'invoice.xml'), ublInvoice('INV-2013-08'))
    await sb.ok(['docs', 'add', 'receipt.pdf', '--tx', txs[0].id])
    await sb.ok(['docs', 'add', 'invoice.xml', '--tx', txs[1].id])
    await sb.ok(['close', '2013-08', '--force', '--reason', 'statement lines not categorized yet'])
    empty = join(sb.dir, 'empty-home')
    mkdirSync(empty)
  })
  afterAll(() => sb?.cleanup())

  it('packs the closed month; verify --pack checks it offline, then names each tampering with exit 13', async () => {
    const packed = await sb.json(['close', 'pack', '2013-08', '-o', 'pack.zip', '--formats', 'hledger,xlsx', '--json'])
    expect(packed).toMatchObject({ month: '2013-08', close_sequence: 1, file: 'pack.zip' })
    publicKey = (await sb.json(['company', '--json'])).pack_public_key
    expect(publicKey).toBe(packed.public_key)
    const pack = join(sb.dir, 'pack.zip')

    const ok = await offline(['verify', '--pack', pack, '--public-key', publicKey])
    expect(ok.code, ok.stderr).toBe(0)
    expect(ok.stdout).toContain('pack of 2013-08')
    expect(ok.stderr).toContain('is intact')
    // Nothing of finctl's was made in the empty HOME but the launcher's code cache and the key pinned: no profile, no database.
    expect(readdirSync(empty).filter((f) => f !== '.cache')).toEqual(['.config'])
    const known = join(empty, '.config', 'finctl', 'known-company-keys.json')
    expect(readdirSync(join(empty, '.config', 'finctl'))).toEqual(['known-company-keys.json'])
    expect(statSync(known).mode & 0o777).toBe(0o600)
    const manifest = JSON.parse((await readPackZip(pack)).get('manifest.json')!.toString())
    expect(JSON.parse(readFileSync(known, 'utf8')).companies[manifest.company_id]).toMatchObject({
      public_key: publicKey,
      source: 'public-key',
    })

    const files = await readPackZip(pack)
    const statement = JSON.parse(files.get('statements/statements.json')!.toString())
    expect(statement).toEqual([
      expect.objectContaining({ file_name: 'us-checking-xml-v211.ofx', closing_balance: '2156.56', book_balance_before: '2516.56' }),
    ])
    // The statement's original: the corpus file byte for byte, under the SHA-256 the statement recorded.
    const original = `statements/as-uploaded/${statementId}-us-checking-xml-v211.ofx`
    expect(files.get(original)?.equals(readFileSync(OFX))).toBe(true)
    expect(statement[0]).toMatchObject({
      original_file: original,
      file_sha256: createHash('sha256').update(readFileSync(OFX)).digest('hex'),
    })
    expect(packed.statement_originals).toBe(1)
    const csv = 'journal/books-2013-08.csv'
    const text = files.get(csv)!.toString()
    expect(text).toContain(',-80.00,')
    files.set(csv, Buffer.from(text.replace(',-80.00,', ',-8.00,')))
    writeFileSync(join(sb.dir, 'tampered.zip'), rawZip([...files].map(([name, data]) => ({ name, data, deflate: true }))))
    const bad = await offline(['verify', '--pack', join(sb.dir, 'tampered.zip'), '--public-key', publicKey])
    expect(bad.code).toBe(13)
    expect(bad.stderr).toContain(`pack: ${csv} was changed: its SHA-256 differs from the manifest's`)
    expect(bad.stderr).toContain('the close recorded -360.00 USD in 4')
    expect(bad.stderr).toContain('is not its closing balance 2156.56 USD')

    // The original changed, then removed: each named, exit 13.
    files.set(csv, Buffer.from(text))
    files.set(original, Buffer.from(readFileSync(OFX).toString().replace('<TRNAMT>-80<', '<TRNAMT>-8<')))
    writeFileSync(join(sb.dir, 'changed-original.zip'), rawZip([...files].map(([name, data]) => ({ name, data, deflate: true }))))
    const changed = await offline(['verify', '--pack', join(sb.dir, 'changed-original.zip'), '--public-key', publicKey])
    expect(changed.code).toBe(13)
    expect(changed.stderr).toContain(`pack: ${original} was changed`)
    expect(changed.stderr).toContain(`its original ${original} is not the file uploaded`)
    files.delete(original)
    writeFileSync(join(sb.dir, 'no-original.zip'), rawZip([...files].map(([name, data]) => ({ name, data, deflate: true }))))
    const removed = await offline(['verify', '--pack', join(sb.dir, 'no-original.zip'), '--public-key', publicKey])
    expect(removed.code).toBe(13)
    expect(removed.stderr).toContain(`its original ${original} is missing`)

    // Re-signed with another key, checked without --public-key: the key pinned above refuses it.
    files.set(original, readFileSync(OFX))
    const other = generateKeyPairSync('ed25519')
    const x = other.publicKey.export({ format: 'jwk' }).x as string
    const mBytes = files.get('manifest.json')!
    files.set(
      'signature.json',
      Buffer.from(
        JSON.stringify({ algorithm: 'ed25519', public_key: x, signature: sign(null, mBytes, other.privateKey).toString('base64') }),
      ),
    )
    writeFileSync(join(sb.dir, 'resigned.zip'), rawZip([...files].map(([name, data]) => ({ name, data, deflate: true }))))
    const resigned = await offline(['verify', '--pack', join(sb.dir, 'resigned.zip')])
    expect(resigned.code).toBe(13)
    expect(resigned.stderr).toContain(
      `pack: the pack is signed with another key (${keyFingerprint(x)}) than the one pinned for company ${manifest.company_id} (${keyFingerprint(publicKey)}, pinned `,
    )
    // Elsewhere, with nothing pinned: it passes on first use, saying the key was checked against nothing.
    const fresh = await runFinctl(['verify', '--pack', join(sb.dir, 'resigned.zip')], cleanEnv({ HOME: join(sb.dir, 'other-home') }), {
      cwd: empty,
    })
    expect(fresh.code, fresh.stderr).toBe(0)
    expect(fresh.stderr).toContain('was pinned now')
    expect(fresh.stderr).toContain('was not checked against anything')
  })
})
