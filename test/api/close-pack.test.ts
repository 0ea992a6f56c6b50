/**
 * The auditor's pack through both transports on both stores (/api-v1/close/{month}/pack and its
 * signature): what a closed month's pack holds, the company's key made on the first signature and
 * shown by GET /company, and a manifest signed only when the service builds the same pack again from
 * its store: a forged journal, statement original, receipt, audit entries or close record is 409
 * naming the file, for an accountant's login and for a key with read,close; so is a DATEV, SIE or
 * SAF-T file, built again with the company's accounts map and the close's time; a key without
 * `close` cannot sign, a reopened month cannot be packed.
 */
import { createPublicKey, verify } from 'node:crypto'
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { monthEnd, previousMonth } from '../../src/domain/accounts/period-lock.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHash } from 'node:crypto'
import { packFiles, packJson, packManifest, type PackFiles } from '../../src/domain/closing/pack-files.js'
import type { Manifest } from '../../src/domain/closing/pack-layout.js'
import type { AccountsMapFile } from '../../src/domain/exports/accounts-map-schema.js'
import type { ExportFormat } from '../../src/domain/exports/formats/format.js'
import { clientSource, runExport } from '../../src/jobs/export/run.js'
import { minimalPdf } from '../helpers/document-files.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const today = new Date().toISOString().slice(0, 10)
const M = previousMonth(today.slice(0, 7))

async function rejects(p: Promise<unknown>, code: string): Promise<AppError> {
  const e = await p.then(
    () => new Error('expected an error'),
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(AppError)
  expect((e as AppError).code, (e as AppError).message).toBe(code)
  return e as AppError
}

describe.each(MATRIX)('the auditor pack over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client
  let owner: Client
  let txId: string
  let docId: string
  let statementId: string
  let accountant: Client
  let closeKey: Client

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Pack')
    c = h.client({ apiKey: a.key })
    owner = h.client({ token: a.token })
    txId = (
      await c.transactions.create({
        bank_account_id: a.accountId,
        transaction_date: `${M}-03`,
        description: 'Paper',
        amount: '-12.50',
      })
    ).id
    await c.transactions.create({ bank_account_id: a.accountId, transaction_date: `${M}-09`, description: 'Fee', amount: '-1.25' })
    const st = await c.statements.upload({
      bank_account_id: a.accountId,
      file_name: 'bank.csv',
      content_base64: Buffer.from(`Date,Description,Amount\n${M}-15,Refund,7.00\n`).toString('base64'),
      exchange_rate: '1',
    })
    statementId = (await c.statements.wait(st.id)).id
    const inv = await owner.users.invite({ email: `acc-${kind}-${storeKind}@pack.test`, role: 'accountant' })
    accountant = h.client({ token: (await h.client().acceptInvite(inv.token, 'accountant password 1')).access_token })
    closeKey = h.client({ apiKey: (await owner.keys.create({ name: 'closer', scopes: ['read', 'close'] })).key })
    docId = (
      await c.documents.add({ file_name: 'r.pdf', content_base64: minimalPdf('Paper 12.50').toString('base64'), transaction_id: txId })
    ).id
  })
  afterAll(async () => {
    await h?.close()
  })

  it('a month never closed: 404; no key yet: GET /company says null', async () => {
    await rejects(c.closePack.contents(M), 'not_found')
    expect((await c.company()).pack_public_key).toBeNull()
  })

  it("the pack's contents: the latest close with sequence and figures, the documents, the audit entries", async () => {
    await owner.close.month(M, { force: true, reason: 'pack test' })
    const p = await c.closePack.contents(M)
    expect(p.month).toBe(M)
    expect(p.close).toMatchObject({ sequence: 1, action: 'close', forced: true, rows_count: 3 })
    expect(p.close.figures).toEqual([
      { bank_account_id: a.accountId, bank_account: 'Operating', currency_code: 'USD', transactions: 3, total: '-6.75' },
    ])
    expect(p.rows_sha256_now).toBe(p.close.rows_sha256)
    expect(p.documents).toEqual([expect.objectContaining({ id: docId, kind: 'pdf', transaction_ids: [txId] })])
    expect(p.audit_entries.map((e) => e.action)).toContain('document_linked')
    expect(p.statements).toEqual([expect.objectContaining({ id: statementId, file_kept: true })])
    expect(p.reconciliation).toEqual([expect.objectContaining({ statement_id: statementId, bank_account: 'Operating', amount: '7.00' })])
  })

  /** The pack as close pack builds it, through the client: its files and manifest. */
  const built = async (formats: ExportFormat[] = ['hledger', 'xlsx']): Promise<{ files: PackFiles; manifest: Manifest }> => {
    const contents = await c.closePack.contents(M)
    const files = await packFiles(
      {
        contents,
        exports: clientSource(c),
        statementFile: async (id) => (await c.statements.file(id)).bytes,
        documentBytes: async (id) => (await c.documents.content(id)).bytes,
      },
      formats,
    )
    return { files, manifest: packManifest(contents, files, '2026-01-01T00:00:00.000Z') }
  }
  /** The manifest of the pack with `path` changed by `edit`, its SHA-256 and size set to match (as a forger would). */
  const forged = async (
    path: string | RegExp,
    edit: (b: Buffer) => Buffer,
    more: (m: Manifest) => void = () => {},
    formats?: ExportFormat[],
  ) => {
    const { files, manifest } = await built(formats)
    const name = [...files.files.keys()].find((n) => (typeof path === 'string' ? n === path : path.test(n)))
    expect(name, String(path)).toBeDefined()
    const bytes = edit(files.files.get(name!)!)
    const entry = manifest.files.find((f) => f.path === name)!
    entry.sha256 = createHash('sha256').update(bytes).digest('hex')
    entry.bytes = bytes.length
    more(manifest)
    return { bytes: packJson(manifest), name: name! }
  }
  const text = (from: string, to: string) => (b: Buffer) => {
    expect(b.toString()).toContain(from)
    return Buffer.from(b.toString().replace(from, to))
  }

  it("signs the pack the service builds again, with the company's key, made once and shown by GET /company", async () => {
    const bytes = packJson((await built()).manifest)
    const s = await accountant.closePack.sign(M, bytes)
    expect(s.algorithm).toBe('ed25519')
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: s.public_key }, format: 'jwk' })
    expect(verify(null, bytes, key, Buffer.from(s.signature, 'base64'))).toBe(true)
    expect((await c.company()).pack_public_key).toBe(s.public_key)
    expect((await closeKey.closePack.sign(M, bytes)).public_key).toBe(s.public_key)
  })

  it('refuses to sign a forged pack, naming the file: for an accountant and for a key with read,close', async () => {
    const csv = `journal/books-${M}.csv`
    const cases: Array<[string, () => Promise<{ bytes: Buffer; name: string }>]> = [
      ["the journal's description changed", () => forged(csv, text(',Paper,', ',Paper and pens,'))],
      [
        'two amounts of the journal swapped',
        () => forged(csv, (b) => Buffer.from(b.toString().replace('-12.50', 'X').replace('-1.25', '-12.50').replace('X', '-1.25'))),
      ],
      ["the hledger journal's description changed", () => forged(`journal/books-${M}.journal`, text('Paper', 'Paperz'))],
      ['the receipt replaced', () => forged(/^documents\/as-uploaded\//, () => minimalPdf('Paper 1250.00'))],
      ["the statement's original replaced", () => forged(/^statements\/as-uploaded\//, text('7.00', '9.00'))],
      ['the statements changed', () => forged('statements/statements.json', text('"line_count": 1', '"line_count": 2'))],
      ['the reconciliation changed', () => forged('reconciliation.csv', text('7.00', '9.00'))],
      [
        'the audit entries replaced by one without hashes',
        () =>
          forged('audit/audit-entries.json', (b) => {
            const [first] = JSON.parse(b.toString())
            return packJson([{ ...first, prev_hash: null, hash: null }])
          }),
      ],
      [
        'the close record edited',
        () => forged('close.json', text('"forced": true', '"forced": false'), (m) => void (m.close.forced = false)),
      ],
    ]
    for (const [what, made] of cases) {
      const { bytes, name } = await made()
      for (const signer of [accountant, closeKey]) {
        const e = await rejects(signer.closePack.sign(M, bytes), 'conflict')
        expect(e.message, what).toContain(
          `the pack of ${M} is not what the service holds, so it is not signed: ${name} is not the file the service holds`,
        )
        expect(e.status).toBe(409)
      }
    }
    // A file added; the manifest's own figures changed.
    const { manifest } = await built()
    manifest.files.push({ path: 'documents/extra.pdf', sha256: '0'.repeat(64), bytes: 1, exact_copy: true })
    expect((await rejects(accountant.closePack.sign(M, packJson(manifest)), 'conflict')).message).toContain(
      "documents/extra.pdf is not a file of the month's pack",
    )
    const other = (await built()).manifest
    other.close.figures = []
    expect((await rejects(closeKey.closePack.sign(M, packJson(other)), 'conflict')).message).toContain(
      'its close is not what the service holds',
    )
  })

  it('refuses what is no manifest of the month: another month, another company, unknown formats, not JSON; a key without close', async () => {
    const { manifest } = await built()
    const cases: Array<[Buffer, string]> = [
      [Buffer.from('not json'), 'is not JSON'],
      [packJson({ ...manifest, month: previousMonth(M) }), `is of month ${previousMonth(M)}`],
      [packJson({ ...manifest, company_id: 'someone-else' }), 'is of another company'],
      [packJson({ ...manifest, formats: ['csv', 'pdf'] }), 'names formats other than'],
    ]
    for (const [bytes, words] of cases) {
      const e = await rejects(accountant.closePack.sign(M, bytes), 'validation_error')
      expect(e.message).toContain('manifest_base64: the manifest')
      expect(e.message).toContain(words)
    }
    await rejects(c.closePack.sign(M, packJson(manifest)), 'forbidden')
  })

  it("carries DATEV, SIE and SAF-T: built again by the service with the company's map and the close's time; a forgery or a map changed since is refused", async () => {
    const FILING: ExportFormat[] = ['datev', 'sie4', 'saft-no']
    const names = [`journal/EXTF_books-${M}.csv`, `journal/books-${M}.se`, `journal/books-${M}.saft.xml`]
    // No map stored: refused before anything is built, each missing number named.
    expect((await rejects(built(FILING), 'validation_error')).message).toContain('DATEV needs these in the accounts map')
    const map: AccountsMapFile = {
      chart: 'no-standard',
      datev: { adviser: 1001, client: 1 },
      saft: { registration_number: '999999999', contact: { first_name: 'Ola', last_name: 'Nordmann', telephone: '12345678' } },
      bank_accounts: { [a.accountId]: { number: 1920, name: 'Bankinnskudd Å' } },
      uncategorized_income: 3900,
      uncategorized_expense: 7790,
      opening_balances: 2050,
    }
    await owner.exportMap.set(map)
    const { files, manifest } = await built(FILING)
    for (const n of names) expect(files.files.has(n), n).toBe(true)
    // Their time of writing is the close's, so that a pack built again is the same to the byte.
    const closedAt = (await c.closePack.contents(M)).close.created_at
    expect(files.files.get(names[0])!.toString('latin1')).toContain(`;${closedAt.replace(/[-:TZ.]/g, '').slice(0, 17)};`)
    expect(files.files.get(names[1])!.toString('latin1')).toContain(`#GEN ${closedAt.slice(0, 10).replaceAll('-', '')}`)
    expect(files.files.get(names[2])!.toString()).toContain(`<AuditFileDateCreated>${closedAt.slice(0, 10)}</AuditFileDateCreated>`)
    const again = await built(FILING)
    for (const n of names) expect(again.files.files.get(n)!.equals(files.files.get(n)!), n).toBe(true)
    // As finctl export writes them of the month at that time: DATEV and SIE in their code pages (Å is CP437's 0x8f).
    for (const [i, format] of FILING.entries()) {
      const chunks: Buffer[] = []
      const sink = new Writable({ write: (b: Buffer, _e, done) => done(void chunks.push(Buffer.from(b))) })
      await runExport(c, { format, from: `${M}-01`, to: monthEnd(M), writtenAt: new Date(closedAt) }, sink)
      expect(Buffer.concat(chunks).equals(files.files.get(names[i])!), format).toBe(true)
    }
    expect(files.files.get(names[1])!.includes(Buffer.from('"Bankinnskudd \x8f"', 'latin1'))).toBe(true)
    expect((await closeKey.closePack.sign(M, packJson(manifest))).algorithm).toBe('ed25519')

    for (const name of names) {
      const { bytes } = await forged(name, text('Paper', 'Pencil'), undefined, FILING)
      expect((await rejects(accountant.closePack.sign(M, bytes), 'conflict')).message).toContain(
        `${name} is not the file the service holds`,
      )
    }
    // The company's map changed after close pack built the pack: the service builds other files.
    await owner.exportMap.set({ ...map, uncategorized_expense: 7700 })
    const e = await rejects(accountant.closePack.sign(M, packJson(manifest)), 'conflict')
    for (const n of names) expect(e.message).toContain(`${n} is not the file the service holds`)
    await owner.exportMap.clear()
  })

  it('a reopened month: 409 for its pack and its signature', async () => {
    const bytes = packJson((await built()).manifest)
    await owner.close.reopen(M, 'late')
    expect((await rejects(c.closePack.contents(M), 'conflict')).message).toContain('close it again before packing it')
    await rejects(owner.closePack.sign(M, bytes), 'conflict')
    await owner.close.month(M, { force: true, reason: 'again' })
    expect((await c.closePack.contents(M)).close.sequence).toBe(2)
  })
})
