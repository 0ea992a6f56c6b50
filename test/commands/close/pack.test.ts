/**
 * `finctl close pack` and `finctl verify --pack` in process (test/helpers/in-process-cli.ts): a
 * closed month with a statement, a PDF and an e-invoice is packed and verified; every tampering is
 * named with exit 13 (a file changed, removed, added, renamed; the manifest re-signed with another
 * key; a zip bomb; path traversal); the first pack of a company pins its key, a later one re-signed with another is refused, --public-key replaces the pinned key; a reopened and closed-again month's pack says which close it is;
 * -o is never written over without --force. The built CLI, offline with no profile: test/e2e/close-pack.test.ts.
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto'
import Database from 'better-sqlite3'
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { monthEnd, previousMonth } from '../../../src/domain/accounts/period-lock.js'
import { keyFingerprint as fingerprint } from '../../../src/jobs/pack/verify.js'
import { readPackZip } from '../../../src/jobs/pack/zip-read.js'
import { minimalPdf, ublInvoice } from '../../helpers/document-files.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'
import { rawZip } from '../../helpers/raw-zip.js'

const today = new Date().toISOString().slice(0, 10)
const M = previousMonth(today.slice(0, 7))
const END = monthEnd(M)
const compact = (iso: string) => iso.replaceAll('-', '')

/** What a bank's text may hold: a clear screen, an OSC 0 title, an OSC 8 link. */
const BANK_CONTROLS = '\x1b[2J\x1b]0;owned\x07\x1b]8;;https://evil.test\x1b\\link\x1b]8;;\x1b\\'

/** An OFX statement of the month: two lines, the closing balance after them. */
const ofx = (closing: string) =>
  `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>77<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST><DTSTART>${compact(`${M}-01`)}<DTEND>${compact(END)}<STMTTRN><TRNTYPE>OTHER<DTPOSTED>${compact(`${M}-05`)}<TRNAMT>-42.50<FITID>P1<NAME>Paper Shop${BANK_CONTROLS}</STMTTRN><STMTTRN><TRNTYPE>OTHER<DTPOSTED>${compact(`${M}-12`)}<TRNAMT>1200.00<FITID>P2<NAME>Client pays</STMTTRN></BANKTRANLIST><LEDGERBAL><BALAMT>${closing}<DTASOF>${compact(END)}</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n`

describe('close pack and verify --pack, in process', () => {
  let sb: InProcessSandbox
  let pack: string
  let files: Map<string, Buffer>
  let publicKey: string
  let companyId: string
  let statementId: string
  let original: string

  /** The pack with its files changed by `edit`, written as a new zip; its path. */
  let n = 0
  const tampered = (edit: (f: Map<string, Buffer>) => void): string => {
    const copy = new Map(files)
    edit(copy)
    const path = sb.path(`tampered-${++n}.zip`)
    writeFileSync(path, rawZip([...copy].map(([name, data]) => ({ name, data, deflate: true }))))
    return path
  }
  /** The pack with its files and manifest changed, the manifest re-signed with a key of the forger's (given back). */
  const forged = (edit: (f: Map<string, Buffer>) => void, manifest: (m: Record<string, unknown>) => void = () => {}) => {
    const forger = generateKeyPairSync('ed25519')
    const key = forger.publicKey.export({ format: 'jwk' }).x as string
    const path = tampered((f) => {
      edit(f)
      const m = JSON.parse(f.get('manifest.json')!.toString())
      m.files = m.files.map((e: { path: string }) =>
        f.has(e.path) ? { ...e, sha256: createHash('sha256').update(f.get(e.path)!).digest('hex'), bytes: f.get(e.path)!.length } : e,
      )
      manifest(m)
      const bytes = Buffer.from(JSON.stringify(m, null, 2))
      f.set('manifest.json', bytes)
      const signature = sign(null, bytes, forger.privateKey).toString('base64')
      f.set('signature.json', Buffer.from(JSON.stringify({ algorithm: 'ed25519', public_key: key, signature })))
    })
    return { path, key }
  }
  const refused = async (path: string, ...more: string[]) => {
    const r = await sb.run(['verify', '--pack', path, ...more])
    expect(r.code, r.stderr).toBe(13)
    return r.stderr
  }

  beforeAll(async () => {
    sb = new InProcessSandbox('close-pack')
    await sb.ok(['init', '--company', 'Pack Co', '--currency', 'USD', '--email', 'o@pack.test', '--password-stdin', '--no-input'], {
      input: 'password-for-pack\n',
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
    writeFileSync(sb.path('statement.ofx'), ofx('1657.50'))
    const s = await sb.json<{ id: string; status: string }>(['statements', 'upload', sb.path('statement.ofx'), '--account', acct, '--json'])
    expect(s.status).toBe('completed')
    statementId = s.id
    const txs = await sb.json<Array<{ id: string; amount: number }>>(['statements', 'transactions', s.id, '--json'])
    writeFileSync(sb.path('receipt.pdf'), minimalPdf('Paper Shop 42.50 USD'))
    writeFileSync(sb.path('invoice.xml'), ublInvoice('INV-7'))
    await sb.ok(['docs', 'add', sb.path('receipt.pdf'), '--tx', txs.find((t) => t.amount === -42.5)!.id])
    await sb.ok(['docs', 'add', sb.path('invoice.xml'), '--tx', txs.find((t) => t.amount === 1200)!.id])
    await sb.ok(['close', M, '--force', '--reason', 'packed in a test'])
    pack = sb.path('pack.zip')
    await sb.ok(['close', 'pack', M, '-o', pack, '--formats', 'hledger,beancount,xlsx'])
    files = await readPackZip(pack)
    original = `statements/as-uploaded/${statementId}-statement.ofx`
    const company = await sb.json<{ id: string; pack_public_key: string }>(['company', 'show', '--json'])
    publicKey = company.pack_public_key
    companyId = company.id
    expect((await sb.json<{ pack_public_key: string }>(['company', '--json'])).pack_public_key).toBe(publicKey)
  })
  afterAll(() => sb?.cleanup())

  it('writes one zip of the month: journal, statements, reconciliation, documents, audit, close record, signed manifest', async () => {
    const names = [...files.keys()].sort()
    expect(names).toEqual(
      expect.arrayContaining([
        'manifest.json',
        'signature.json',
        'close.json',
        `journal/books-${M}.csv`,
        `journal/books-${M}.journal`,
        `journal/books-${M}.beancount`,
        `journal/books-${M}.xlsx`,
        'statements/statements.json',
        'reconciliation.csv',
        'documents/documents.csv',
        'audit/audit-entries.json',
      ]),
    )
    expect(names.filter((x) => /^documents\/as-uploaded\/[^/]+\/(receipt\.pdf|invoice\.xml)$/.test(x))).toHaveLength(2)
    const manifest = JSON.parse(files.get('manifest.json')!.toString())
    expect(manifest).toMatchObject({ format: 'finctl-close-pack', month: M, close: { sequence: 1, forced: true } })
    // The statement's original, byte for byte, listed in the manifest under the SHA-256 its statement recorded.
    expect(files.get(original)?.equals(readFileSync(sb.path('statement.ofx')))).toBe(true)
    const [st] = JSON.parse(files.get('statements/statements.json')!.toString())
    expect(st).toMatchObject({ id: statementId, file_kept: true, file_note: null, original_file: original })
    expect(st.file_sha256).toBe(
      createHash('sha256')
        .update(readFileSync(sb.path('statement.ofx')))
        .digest('hex'),
    )
    expect(manifest.version).toBe(3)
    expect(manifest.statement_files).toMatchObject({
      included: true,
      originals: [{ statement_id: statementId, file_name: 'statement.ofx', sha256: st.file_sha256, path: original, note: null }],
    })
    expect(manifest.files).toContainEqual({ path: original, sha256: st.file_sha256, bytes: files.get(original)!.length, exact_copy: true })
    expect(manifest.files).toHaveLength(names.length - 2)
    expect(manifest.close.figures).toEqual([expect.objectContaining({ currency_code: 'USD', transactions: 2, total: '1157.50' })])
    expect(JSON.parse(files.get('signature.json')!.toString()).public_key).toBe(publicKey)
    expect(files.get('reconciliation.csv')!.toString().trim().split('\r\n')).toHaveLength(3)
    const audit = JSON.parse(files.get('audit/audit-entries.json')!.toString()) as Array<{ action: string; hash: string }>
    expect(audit.filter((e) => e.action === 'document_linked')).toHaveLength(2)
    expect(audit.every((e) => /^[0-9a-f]{64}$/.test(e.hash))).toBe(true)
  })

  it("text files hold the bank's controls as visible escapes; the bank's file is an exact copy, marked so; names beside ids", async () => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what must not be in a text file
    const controls = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/
    const manifest = JSON.parse(files.get('manifest.json')!.toString())
    const text = [`journal/books-${M}.csv`, `journal/books-${M}.journal`, `journal/books-${M}.beancount`, 'reconciliation.csv']
    for (const name of [...text, 'manifest.json', 'statements/statements.json', 'audit/audit-entries.json', 'close.json'])
      expect(files.get(name)!.toString(), name).not.toMatch(controls)
    // A journal writes ; as , (its comment mark); the escapes are there either way.
    for (const name of text)
      for (const shown of ['Paper Shop\\x1b[2J', 'owned\\x07']) expect(files.get(name)!.toString(), name).toContain(shown)
    // The bank's file as it was sent, under a folder that says so, marked exact_copy; no text file is.
    expect(original.startsWith('statements/as-uploaded/')).toBe(true)
    expect(files.get(original)!.toString()).toContain(BANK_CONTROLS)
    const exact = manifest.files.filter((f: { exact_copy: boolean }) => f.exact_copy).map((f: { path: string }) => f.path)
    expect(exact.sort()).toEqual([original, ...[...files.keys()].filter((n) => n.startsWith('documents/as-uploaded/'))].sort())
    expect(manifest.exact_copies).toContain('exact_copy')
    // Names beside ids: the account in the reconciliation and the figures, the person who closed.
    const [head, row] = files.get('reconciliation.csv')!.toString().split('\r\n')
    expect(head).toContain('bank_account_id,bank_account,')
    expect(row).toContain(',Main,')
    expect(manifest.close.figures[0]).toMatchObject({ bank_account: 'Main' })
    expect(JSON.parse(files.get('close.json')!.toString()).close).toMatchObject({ actor_name: 'o@pack.test' })
    expect(manifest.close.actor_name).toBe('o@pack.test')
  })

  it('verify --pack: intact, with the key given; the first pack of a company pins its key (0600), a later one is checked with it', async () => {
    const pinned = await sb.run(['verify', '--pack', pack, '--public-key', publicKey])
    expect(pinned.code, pinned.stderr).toBe(0)
    expect(pinned.stderr).not.toContain('give --public-key')
    expect(pinned.stderr).toContain('pack.zip is intact')
    writeFileSync(sb.path('company.key'), `${publicKey}\n`)
    expect((await sb.run(['verify', '--pack', pack, '--public-key', sb.path('company.key')])).code).toBe(0)

    // A config folder that has seen no key of the company: the pack's own key, pinned now and said so.
    const dir = sb.path('first-use')
    const first = await sb.run(['verify', '--pack', pack], { env: { FINCTL_CONFIG_DIR: dir } })
    expect(first.code, first.stderr).toBe(0)
    expect(first.stdout).toContain(`pack of ${M} (Pack Co), close #`)
    expect(first.stderr).toContain(
      `note: first pack of company ${companyId} (Pack Co) checked here: its key ${fingerprint(publicKey)} was pinned now`,
    )
    expect(first.stderr).toContain('was not checked against anything; give --public-key')
    const file = join(dir, 'known-company-keys.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(file, 'utf8')).companies[companyId]).toMatchObject({ public_key: publicKey, source: 'first-pack' })
    // The second time: checked with the pinned key, nothing pinned again.
    const again = await sb.json(['verify', '--pack', pack, '--json'], { env: { FINCTL_CONFIG_DIR: dir } })
    expect(again).toMatchObject({ intact: true, problems: [], company_id: companyId, key: { source: 'known', pinned: true } })
    expect(again.notes.join('\n')).not.toContain('pinned now')
    // --json says it too, in notes.
    const j = await sb.json(['verify', '--pack', pack, '--json'], { env: { FINCTL_CONFIG_DIR: sb.path('first-use-json') } })
    expect(j).toMatchObject({ intact: true, problems: [], month: M, close: { sequence: 1 }, key: { source: 'pack', pinned: false } })
    expect(j.notes).toContainEqual(expect.stringContaining('was pinned now'))
  })

  it("a config folder whose pinned keys cannot be read: checked with the pack's key, and said so", async () => {
    const dir = sb.path('unreadable-config')
    mkdirSync(join(dir, 'known-company-keys.json'), { recursive: true })
    const r = await sb.run(['verify', '--pack', pack], { env: { FINCTL_CONFIG_DIR: dir } })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain("note: the companies' pinned keys")
    expect(r.stderr).toContain('could not be read')
    expect(r.stderr).toContain('give --public-key')
  })

  it('finctl company pins the key it shows', async () => {
    const file = join(sb.configDir, 'known-company-keys.json')
    expect(JSON.parse(readFileSync(file, 'utf8')).companies[companyId]).toMatchObject({ public_key: publicKey, source: 'company-show' })
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const r = await sb.json(['verify', '--pack', pack, '--json'])
    expect(r).toMatchObject({ intact: true, key: { source: 'known' } })
    // Another key pinned: company show warns and leaves it, as a profile may point at any service.
    const before = readFileSync(file, 'utf8')
    const x = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x as string
    writeFileSync(file, before.replace(publicKey, x))
    const shown = await sb.run(['company', 'show', '--json'])
    expect(shown.code).toBe(0)
    expect(shown.stderr).toContain(
      `warning: the company's pack key ${fingerprint(publicKey)} is not the one pinned for it (${fingerprint(x)}`,
    )
    expect(JSON.parse(readFileSync(file, 'utf8')).companies[companyId].public_key).toBe(x)
    writeFileSync(file, before)
  })

  it('a file changed', async () => {
    const path = tampered((f) =>
      f.set('reconciliation.csv', Buffer.from(f.get('reconciliation.csv')!.toString().replace('-42.50', '-24.50'))),
    )
    const err = await refused(path)
    expect(err).toContain('pack: reconciliation.csv was changed: its SHA-256 differs from the manifest')
    expect(err).toContain('reconciliation.csv line')
  })

  it('the journal changed: its totals no longer the close figures nor the statement balances', async () => {
    const csv = `journal/books-${M}.csv`
    const err = await refused(tampered((f) => f.set(csv, Buffer.from(f.get(csv)!.toString().replace(',1200.00,', ',1300.00,')))))
    expect(err).toContain(`${csv} was changed`)
    expect(err).toContain("the journal's total of account")
    expect(err).toContain('the close recorded 1157.50 USD in 2')
    expect(err).toMatch(/statement .*: opening balance|statement .*: the book's balance/)
  })

  it('audit entries replaced by one without hashes: named, never skipped', async () => {
    const { path, key } = forged((f) => {
      const [first] = JSON.parse(f.get('audit/audit-entries.json')!.toString())
      f.set('audit/audit-entries.json', Buffer.from(JSON.stringify([{ ...first, changes: '{}', prev_hash: null, hash: null }])))
    })
    const err = await refused(path, '--public-key', key)
    expect(err).toMatch(/pack: audit\/audit-entries.json: entry #\d+ \(\w+ of [\w-]+\) has no hash: every entry of the audit chain has one/)
  })

  it("text of the pack is printed escaped: a manifest's month, close id and time cannot write to the terminal", async () => {
    const { path, key } = forged(
      () => {},
      (m) => {
        m.month = `${M}\r\x1b[2K${pack} is intact\n\x1b]0;owned\x07`
        m.close = { ...(m.close as object), id: '1\x1b[31m', created_at: '\x1b[2J\u202e', sequence: '2\n' }
      },
    )
    const r = await sb.run(['verify', '--pack', path, '--public-key', key], { env: { FINCTL_CONFIG_DIR: sb.path('escaped-config') } })
    expect(r.code).toBe(13)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what must not be printed
    const controls = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e]/
    expect(r.stdout).not.toMatch(controls)
    expect(r.stderr).not.toMatch(controls)
    // One line of the pack's own words, then notes and problems, each a line of its own: no line made up by the pack.
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^pack of .*\\x1b\[2K.* is intact .*\\x07 \(Pack Co\), close #1\\x1b\[31m of \\x1b\[2JU\+202E/),
    ])
    for (const l of r.stderr.trimEnd().split('\n')) expect(l).toMatch(/^(note|pack): |does not hold: \d+ problems?$/)
  })

  it('a file removed', async () => {
    expect(await refused(tampered((f) => f.delete('audit/audit-entries.json')))).toContain('pack: audit/audit-entries.json is missing')
  })

  it("a statement's original changed: named against the manifest and against the statement's file_sha256", async () => {
    const err = await refused(tampered((f) => f.set(original, Buffer.from(f.get(original)!.toString().replace('-42.50', '-24.50')))))
    expect(err).toContain(`pack: ${original} was changed: its SHA-256 differs from the manifest's`)
    expect(err).toContain(
      `pack: statement ${statementId} ("statement.ofx"): its original ${original} is not the file uploaded (its SHA-256 differs from the statement's file_sha256)`,
    )
  })

  it("a statement's original removed", async () => {
    const err = await refused(tampered((f) => f.delete(original)))
    expect(err).toContain(`pack: ${original} is missing`)
    expect(err).toContain(`pack: statement ${statementId} ("statement.ofx"): its original ${original} is missing`)
  })

  it('a version 1 pack (before the originals) is still read: its missing originals noted, not refused', async () => {
    const other = generateKeyPairSync('ed25519')
    const m = JSON.parse(files.get('manifest.json')!.toString())
    m.version = 1
    m.statement_files = { included: false, note: 'the originals are not in this pack' }
    m.files = m.files.filter((f: { path: string }) => f.path !== original)
    const mBytes = Buffer.from(JSON.stringify(m))
    const x = other.publicKey.export({ format: 'jwk' }).x as string
    const v1 = tampered((f) => {
      f.delete(original)
      f.set('manifest.json', mBytes)
      f.set(
        'signature.json',
        Buffer.from(
          JSON.stringify({ algorithm: 'ed25519', public_key: x, signature: sign(null, mBytes, other.privateKey).toString('base64') }),
        ),
      )
    })
    // Signed with another key: checked where no key of the company is pinned.
    const r = await sb.run(['verify', '--pack', v1], { env: { FINCTL_CONFIG_DIR: sb.path('v1-config') } })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain("a pack of version 1: it holds no statement's original file, none was checked")
  })

  it('a file added', async () => {
    expect(await refused(tampered((f) => f.set('documents/extra.pdf', minimalPdf('planted'))))).toContain(
      'pack: documents/extra.pdf is not in the manifest: added to the pack',
    )
  })

  it('a file renamed', async () => {
    const err = await refused(
      tampered((f) => {
        f.set('statements/other.json', f.get('statements/statements.json')!)
        f.delete('statements/statements.json')
      }),
    )
    expect(err).toContain('pack: statements/statements.json was renamed to statements/other.json')
  })

  it('the manifest re-signed with another key: refused with the pack key, and with the company key when the pack names the other', async () => {
    const other = generateKeyPairSync('ed25519')
    const x = other.publicKey.export({ format: 'jwk' }).x as string
    const manifest = files.get('manifest.json')!
    const signature = sign(null, manifest, other.privateKey).toString('base64')
    const sig = JSON.parse(files.get('signature.json')!.toString())
    const keptKey = tampered((f) => f.set('signature.json', Buffer.from(JSON.stringify({ ...sig, signature }))))
    expect(await refused(keptKey)).toContain('the signature does not match manifest.json')
    const swapped = tampered((f) => f.set('signature.json', Buffer.from(JSON.stringify({ ...sig, signature, public_key: x }))))
    // The company's key is pinned here (finctl company): the pack re-signed with another is refused, both keys named.
    const err = await refused(swapped)
    expect(err).toContain(
      `pack: the pack is signed with another key (${fingerprint(x)}) than the one pinned for company ${companyId} (${fingerprint(publicKey)}, pinned `,
    )
    expect(err).toContain('--public-key NEW checks the pack with it and replaces the pinned one')
    const j = await sb.run(['verify', '--pack', swapped, '--json'])
    expect(j.code).toBe(13)
    expect(JSON.parse(j.stdout)).toMatchObject({ intact: false, key: { source: 'known' }, signed_with: { public_key: x } })
    expect(JSON.parse(j.stdout).problems).toContainEqual(expect.stringContaining('than the one pinned for company'))
    // Where nothing was pinned, it passes on first use (said so); once the true key is pinned, it is refused there too.
    const fresh = { env: { FINCTL_CONFIG_DIR: sb.path('swapped-config') } }
    const firstUse = await sb.run(['verify', '--pack', swapped], fresh)
    expect(firstUse.code, firstUse.stderr).toBe(0)
    expect(firstUse.stderr).toContain(`its key ${fingerprint(x)} was pinned now`)
    const other2 = { env: { FINCTL_CONFIG_DIR: sb.path('rotation-config') } }
    expect((await sb.run(['verify', '--pack', pack], other2)).code).toBe(0)
    expect((await sb.run(['verify', '--pack', swapped], other2)).code).toBe(13)
    // A rotated key accepted on purpose: --public-key NEW checks the pack with it and replaces the pinned one.
    const rotated = await sb.run(['verify', '--pack', swapped, '--public-key', x], other2)
    expect(rotated.code, rotated.stderr).toBe(0)
    expect(rotated.stderr).toContain(
      `the key given (${fingerprint(x)}) replaces the one pinned for company ${companyId} (Pack Co) (${fingerprint(publicKey)}`,
    )
    expect((await sb.run(['verify', '--pack', swapped], other2)).code).toBe(0)
    expect((await sb.run(['verify', '--pack', pack], other2)).code).toBe(13)
    expect(await refused(swapped, '--public-key', publicKey)).toContain(`the pack is signed with another key (${x}) than the one given`)
    // A manifest changed to match a changed file, signed again by another key.
    const csv = 'reconciliation.csv'
    const forged = Buffer.from(files.get(csv)!.toString().replace('Paper Shop', 'Paper Shopp'))
    const m = JSON.parse(manifest.toString())
    m.files.find((e: { path: string }) => e.path === csv).sha256 = (await import('node:crypto'))
      .createHash('sha256')
      .update(forged)
      .digest('hex')
    m.files.find((e: { path: string }) => e.path === csv).bytes = forged.length
    const mBytes = Buffer.from(JSON.stringify(m))
    const resigned = tampered((f) => {
      f.set(csv, forged)
      f.set('manifest.json', mBytes)
      f.set(
        'signature.json',
        Buffer.from(JSON.stringify({ ...sig, public_key: x, signature: sign(null, mBytes, other.privateKey).toString('base64') })),
      )
    })
    expect(await refused(resigned, '--public-key', publicKey)).toContain('the pack is signed with another key')
  })

  it('a zip bomb and path traversal are refused before anything is read', async () => {
    const bomb = sb.path('bomb.zip')
    writeFileSync(bomb, rawZip([{ name: 'manifest.json', data: Buffer.alloc(64 * 1024 * 1024), deflate: true }]))
    expect(await refused(bomb)).toMatch(
      /pack: the pack is refused: entry "manifest.json": 67108864 bytes from \d+ compressed, more than 200 times: a zip bomb/,
    )
    const climb = sb.path('climb.zip')
    writeFileSync(
      climb,
      rawZip([...[...files].map(([name, data]) => ({ name, data })), { name: '../../outside.txt', data: Buffer.from('x') }]),
    )
    expect(await refused(climb)).toContain('pack: the pack is refused: entry "../../outside.txt": a path that climbs out of the pack (..)')
    expect(existsSync(sb.path('../outside.txt'))).toBe(false)
  })

  it('-o is never written over without --force; --force replaces it', async () => {
    const before = readFileSync(pack)
    const r = await sb.run(['close', 'pack', M, '-o', pack])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`-o: ${pack} already exists: give a new path, or --force to replace it`)
    expect(readFileSync(pack).equals(before)).toBe(true)
    await sb.ok(['close', 'pack', M, '-o', pack, '--force'])
    expect((await sb.run(['verify', '--pack', pack])).code).toBe(0)
  })

  it('usage errors: -o missing, a bad format, --pack with --close, a key that is none; an open month is refused', async () => {
    const cases: Array<[string[], string]> = [
      [['close', 'pack', M], '-o FILE is required'],
      [['close', 'pack', M, '-o', sb.path('x.zip'), '--formats', 'pdf'], '--formats takes formats among'],
      [['verify', '--pack', pack, '--close', M], '--pack is checked on its own'],
      [['verify', '--pack', pack, '--public-key', 'not-a-key'], '--public-key: "not-a-key" is neither an Ed25519 public key'],
      [['verify', '--public-key', publicKey], '--public-key goes with --pack FILE'],
      [['verify', '--pack', sb.path('nothing.zip')], 'no such file'],
    ]
    for (const [args, message] of cases) {
      const r = await sb.run(args)
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2)
      expect(r.stderr).toContain(message)
    }
    const open = await sb.run(['close', 'pack', previousMonth(M), '-o', sb.path('open.zip')])
    expect(open.code).toBe(5)
    expect(open.stderr).toContain('was never closed')
    expect(existsSync(sb.path('open.zip'))).toBe(false)
  })

  it('a month reopened and closed again: the pack says it is the second close; a reopened month is refused', async () => {
    await sb.ok(['close', 'reopen', M, '--reason', 'late invoice'])
    const r = await sb.run(['close', 'pack', M, '-o', sb.path('reopened.zip')])
    expect(r.code).toBe(6)
    expect(r.stderr).toContain('is not closed now (it was reopened): close it again before packing it')
    await sb.ok(['close', M, '--force', '--reason', 'closed again'])
    const again = sb.path('again.zip')
    const out = await sb.json(['close', 'pack', M, '-o', again, '--json'])
    expect(out).toMatchObject({ close_sequence: 2 })
    const manifest = JSON.parse((await readPackZip(again)).get('manifest.json')!.toString())
    expect(manifest.close.sequence).toBe(2)
    expect(manifest.close.id).toBeGreaterThan(JSON.parse(files.get('manifest.json')!.toString()).close.id)
    const v = await sb.run(['verify', '--pack', again, '--public-key', publicKey])
    expect(v.code, v.stderr).toBe(0)
    expect(v.stdout).toContain('close 2 of the month, after a reopen')
  })

  it('statements file writes the original; a statement uploaded before finctl kept files is packed without it, and says so', async () => {
    const out = sb.path('original.ofx')
    await sb.ok(['statements', 'file', statementId, '-o', out])
    expect(readFileSync(out).equals(readFileSync(sb.path('statement.ofx')))).toBe(true)
    const again = await sb.run(['statements', 'file', statementId, '-o', out])
    expect(again.code).toBe(2)
    // As a database of before 0044 holds it: the statement, no file.
    const db = new Database(sb.database)
    db.prepare('DELETE FROM statement_files').run()
    db.close()
    const gone = await sb.run(['statements', 'file', statementId, '-o', sb.path('none.ofx')])
    expect(gone.code).toBe(5)
    expect(gone.stderr).toContain(`statement ${statementId}: original not kept: uploaded ${today.slice(0, 4)}`)
    expect(gone.stderr).toContain("before finctl kept statements' files")
    const older = sb.path('older.zip')
    const r = await sb.run(['close', 'pack', M, '-o', older])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain(`statement ${statementId} (statement.ofx): original not kept: uploaded`)
    const packed = await readPackZip(older)
    expect([...packed.keys()].filter((n) => n.startsWith('statements/as-uploaded/'))).toEqual([])
    const manifest = JSON.parse(packed.get('manifest.json')!.toString())
    expect(manifest.statement_files).toMatchObject({
      included: false,
      originals: [{ statement_id: statementId, path: null, note: expect.stringContaining('original not kept: uploaded') }],
    })
    const v = await sb.run(['verify', '--pack', older, '--public-key', publicKey])
    expect(v.code, v.stderr).toBe(0)
    expect(v.stderr).toContain(`statement ${statementId} ("statement.ofx"): original not kept: uploaded`)
  })
})
