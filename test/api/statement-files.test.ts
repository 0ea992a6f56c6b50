/**
 * A statement upload's original file (docs/uploading-statements.md, "The original file") through both
 * transports on both stores: kept once per company and content, as uploaded (JSON or multipart),
 * answered by GET /statements/{id}/file to its company alone; a review upload's file kept when
 * applied and never when discarded; dropped with the last statement read from it (a revert, an
 * account deleted); a statement uploaded before finctl kept files answers 404 saying so; get, list
 * and the upload answer say whether the original is kept (file_kept, file_note).
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { Statement } from '../../src/domain/statements/schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'
import { multipart } from '../helpers/multipart.js'

const ofx = (acct: string, lines: Array<[string, string, string]>) =>
  Buffer.from(
    `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>${acct}<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>` +
      lines
        .map(([d, amt, name], i) => `<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>${d}<TRNAMT>${amt}<FITID>F${acct}${i}<NAME>${name}</STMTTRN>`)
        .join('') +
      '</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n',
  )
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

describe.each(MATRIX)("statements' original files over %s on %s", (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let b: Tenant
  let c: Client
  let accounts = 0

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Originals')
    b = await h.tenant('Other')
    c = h.client({ apiKey: a.key })
  })
  afterAll(async () => {
    await h?.close()
  })

  const account = async () => (await c.accounts.create({ name: `Files ${++accounts}`, account_type: 'checking', currency_code: 'USD' })).id
  /** The rows the store keeps for these bytes (any company). */
  const kept = async (bytes: Uint8Array) =>
    (await h.store.db.selectFrom('statement_files').select(['company_id', 'size']).where('sha256', '=', sha(bytes)).execute()).map((r) => ({
      ...r,
      size: Number(r.size),
    }))
  const upload = async (acct: string, name: string, bytes: Buffer) =>
    c.statements.upload({ bank_account_id: acct, file_name: name, content_base64: bytes.toString('base64') })

  it('keeps the file as uploaded, JSON or multipart, and answers it to its company alone', async () => {
    const json = ofx('81', [['20240401', '-3.00', 'Kiosk']])
    const form = ofx('82', [['20240402', '-4.00', 'Bakery']])
    const answer = await upload(await account(), 'april.ofx', json)
    expect(answer).toMatchObject({ file_kept: true, file_note: null })
    const s1 = await c.statements.wait(answer.id)
    const m = multipart({ bank_account_id: await account() }, { name: 'april-2.ofx', bytes: form })
    const res = await h.fetch(`${h.baseUrl}/api-v1/statements`, {
      method: 'POST',
      headers: { 'x-api-key': a.key, 'content-type': m.type },
      body: m.body,
    })
    expect(res.status).toBe(201)
    const s2 = await c.statements.wait(((await res.json()) as { data: Statement }).data.id)
    for (const [s, bytes, name] of [
      [s1, json, 'april.ofx'],
      [s2, form, 'april-2.ofx'],
    ] as const) {
      expect(s.status).toBe('completed')
      const f = await c.statements.file(s.id)
      expect(Buffer.from(f.bytes).equals(bytes)).toBe(true)
      expect(f).toMatchObject({ fileName: name, sha256: s.file_sha256 })
      expect(s.file_sha256).toBe(sha(bytes))
      // The statement says its original is kept, with its SHA-256 and size.
      expect(s).toMatchObject({ file_kept: true, file_note: null, file_size: bytes.length })
      expect(await kept(bytes)).toEqual([{ company_id: a.companyId, size: bytes.length }])
    }
    const raw = await h.raw('GET', `/api-v1/statements/${s1.id}/file`, { headers: { 'x-api-key': a.key } })
    expect(raw.status).toBe(200)
    expect(raw.headers.get('content-type')).toBe('application/octet-stream')
    expect(Buffer.from(await raw.arrayBuffer()).equals(json)).toBe(true)
    await expect(h.client({ apiKey: b.key }).statements.file(s1.id)).rejects.toMatchObject({ code: 'not_found' })
  })

  it('one file for two accounts is kept once, and goes with the last statement read from it (a revert)', async () => {
    const bytes = ofx('83', [['20240403', '-5.00', 'Shared']])
    const first = await upload(await account(), 'shared.ofx', bytes)
    const second = await upload(await account(), 'shared.ofx', bytes)
    await c.statements.wait(first.id)
    await c.statements.wait(second.id)
    expect(await kept(bytes)).toHaveLength(1)
    const batch = (s: Statement) => (s as Statement & { batch_id: string }).batch_id
    await c.imports.revert(batch(first))
    expect(await kept(bytes)).toHaveLength(1)
    expect(Buffer.from((await c.statements.file(second.id)).bytes).equals(bytes)).toBe(true)
    await c.imports.revert(batch(second))
    expect(await kept(bytes)).toEqual([])
  })

  it('a failed upload keeps its file until its account is deleted', async () => {
    const acct = await account()
    const bytes = Buffer.from('not a statement at all\n')
    const failed = await c.statements.wait(
      (await c.statements.upload({ bank_account_id: acct, file_name: 'x.sta', format: 'mt940', content_base64: bytes.toString('base64') }))
        .id,
    )
    expect(failed.status).toBe('failed')
    expect(Buffer.from((await c.statements.file(failed.id)).bytes).equals(bytes)).toBe(true)
    await c.accounts.delete(acct)
    expect(await kept(bytes)).toEqual([])
  })

  it('a review upload: its file kept once applied, never when discarded', async () => {
    const acct = await account()
    const applied = ofx('84', [['20240404', '-6.00', 'Reviewed']])
    const discarded = ofx('85', [['20240405', '-7.00', 'Dropped']])
    const r1 = await c.statements.uploadForReview({ bank_account_id: acct, file_name: 'r.ofx', content_base64: applied.toString('base64') })
    const r2 = await c.statements.uploadForReview({
      bank_account_id: acct,
      file_name: 'd.ofx',
      content_base64: discarded.toString('base64'),
    })
    expect(await kept(applied)).toEqual([])
    await c.imports.discard(r2.id)
    const id = (await c.imports.apply(r1.id)).statement_id as string
    await c.statements.wait(id)
    expect(Buffer.from((await c.statements.file(id)).bytes).equals(applied)).toBe(true)
    expect(await kept(applied)).toHaveLength(1)
    expect(await kept(discarded)).toEqual([])
  })

  it('a statement uploaded before finctl kept files: 404 saying so', async () => {
    const bytes = ofx('86', [['20240406', '-8.00', 'Older']])
    const s = await c.statements.wait((await upload(await account(), 'old.ofx', bytes)).id)
    expect(s).toMatchObject({ file_kept: true, file_note: null })
    await h.store.db.deleteFrom('statement_files').where('sha256', '=', sha(bytes)).execute()
    // Get and list say it is not kept, and why; its SHA-256 and size stay.
    const note = `original not kept: uploaded ${s.created_at.slice(0, 10)}, before finctl kept statements' files`
    expect(await c.statements.get(s.id)).toMatchObject({
      file_kept: false,
      file_note: note,
      file_sha256: sha(bytes),
      file_size: bytes.length,
    })
    const listed = (await c.statements.list({ bank_account_id: s.bank_account_id })).data
    expect(listed).toEqual([expect.objectContaining({ id: s.id, file_kept: false, file_note: note })])
    const e = await c.statements.file(s.id).catch((err: unknown) => err)
    expect(e).toBeInstanceOf(AppError)
    expect((e as AppError).code).toBe('not_found')
    expect((e as AppError).message).toContain(`statement ${s.id}: original not kept: uploaded ${s.created_at.slice(0, 10)}`)
    await expect(c.statements.file('00000000-0000-7000-8000-000000000000')).rejects.toMatchObject({ code: 'not_found' })
  })
})
