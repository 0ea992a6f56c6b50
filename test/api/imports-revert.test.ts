/**
 * Reverting an import batch (POST /api-v1/imports/{id}/revert): its rows go in one audited change
 * (verify stays intact), a dry run changes nothing, rows in a closed month or changed by hand stop
 * it, the event is written, the refs are freed for the corrected rows, twice is refused, and a
 * statement upload's revert gives its file back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { findTransaction } from '../../src/domain/transaction-rows.js'
import { uuidv7 } from '../../src/kernel/ids.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

describe.each(MATRIX)('import reverts over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Reverts')
    c = h.client({ apiKey: a.key })
  })
  afterAll(async () => {
    await h?.close()
  })

  async function newAccount(name: string): Promise<string> {
    return (await c.accounts.create({ name, account_type: 'checking', currency_code: 'USD' })).id
  }

  /** A finished batch of `rows` sent as an import sends them. */
  async function importBatch(account: string, rows: Array<{ date: string; description: string; amount: string; ref: string }>) {
    const b = await c.imports.create({ kind: 'csv', bank_account_id: account, file_name: 'rows.csv' })
    await c.transactions.batchMinimal(
      rows.map((r) => ({
        bank_account_id: account,
        transaction_date: r.date,
        description: r.description,
        amount: r.amount,
        import_ref: r.ref,
      })),
      { importBatch: b.id },
    )
    return c.imports.finish(b.id, { state: 'completed', read: rows.length })
  }

  async function rowsOf(account: string) {
    const page = await c.transactions.list({ bank_account_id: account, limit: 100 })
    return page.data.map((t) => [t.transaction_date, t.description, t.amount]).sort()
  }

  async function status(method: string, path: string, body: unknown) {
    const res = await h.raw(method, path, {
      headers: { 'x-api-key': a.key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return {
      status: res.status,
      body: (await res.json()) as { error: { code: string; message: string; details?: Array<{ path: string }> } },
    }
  }

  const inverted = [
    { date: '2026-03-02', description: 'Salary', amount: '-1000.00', ref: 'r.1' },
    { date: '2026-03-03', description: 'Rent', amount: '800.00', ref: 'r.2' },
    { date: '2026-03-04', description: 'Coffee', amount: '3.50', ref: 'r.3' },
  ]

  it('dry run changes nothing; the revert deletes the rows in one audited change, verify stays intact, the event is written', async () => {
    const acct = await newAccount('Revert main')
    const b = await importBatch(acct, inverted)
    expect(b.counts.created).toBe(3)

    const dry = await c.imports.revert(b.id, { dry_run: true })
    expect(dry).toMatchObject({ dry_run: true, deleted: 3, unpaired: 0, refused: [], statement: null })
    expect(dry.transactions.map((t) => t.description).sort()).toEqual(['Coffee', 'Rent', 'Salary'])
    expect(await rowsOf(acct)).toHaveLength(3)
    expect((await c.imports.get(b.id)).state).toBe('completed')

    const r = await c.imports.revert(b.id)
    expect(r).toMatchObject({ dry_run: false, deleted: 3, refused: [] })
    expect(r.batch).toMatchObject({ state: 'reverted', reverted_by: expect.stringMatching(/^key:/) })
    expect(r.batch.reverted_at).not.toBeNull()
    expect(await rowsOf(acct)).toEqual([])
    const shown = await c.imports.get(b.id)
    expect(shown).toMatchObject({ state: 'reverted', reverted_at: r.batch.reverted_at })

    const v = await c.audit.verify()
    expect(v.broken).toBeNull()
    expect(v.intact).toBe(true)
    const events = (await c.events.list({ type: 'import.reverted', limit: 1000 })).data.filter((e) => e.object_id === b.id)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ object_id: b.id, data: { deleted: 3, unpaired: 0, statement_id: null } })
    expect((events[0].data.transaction_ids as string[]).sort()).toEqual(r.transactions.map((t) => t.id).sort())

    // Twice: refused, naming when and by whom; the dry run says the same.
    const again = await status('POST', `/api-v1/imports/${b.id}/revert`, {})
    expect(again.status).toBe(409)
    expect(again.body.error.message).toMatch(/reverted already, by key:.* at /)
    expect((await status('POST', `/api-v1/imports/${b.id}/revert`, { dry_run: true })).status).toBe(409)
    // And rows for it are refused: the batch is no longer running.
    const late = await status('POST', `/api-v1/imports/${b.id}/finish`, { state: 'completed' })
    expect(late.status).toBe(409)
  })

  it('frees the rows’ refs: the corrected rows go in, and a revert then re-import converges', async () => {
    const acct = await newAccount('Revert refs')
    const wrong = await importBatch(acct, inverted)
    // Without the revert, the corrected rows under the same refs would be left out as there already.
    const corrected = inverted.map((r) => ({ ...r, amount: r.amount.startsWith('-') ? r.amount.slice(1) : `-${r.amount}` }))
    await c.imports.revert(wrong.id)
    const right = await importBatch(acct, corrected)
    expect(right.counts).toMatchObject({ created: 3, existing: 0 })
    expect(await rowsOf(acct)).toEqual([
      ['2026-03-02', 'Salary', 1000],
      ['2026-03-03', 'Rent', -800],
      ['2026-03-04', 'Coffee', -3.5],
    ])
    // Revert and import the same rows again: the same three, none doubled or lost.
    await c.imports.revert(right.id)
    const third = await importBatch(acct, corrected)
    expect(third.counts).toMatchObject({ created: 3, existing: 0 })
    expect(await rowsOf(acct)).toHaveLength(3)
    expect((await c.audit.verify()).intact).toBe(true)
  })

  it('refuses rows changed by hand unless include_edited, and rows in a closed month always, naming them', async () => {
    const acct = await newAccount('Revert refusals')
    const b = await importBatch(acct, [
      { date: '2026-02-10', description: 'Old', amount: '-1.00', ref: 'x.1' },
      { date: '2026-03-10', description: 'New', amount: '-2.00', ref: 'x.2' },
    ])
    const rows = (await c.transactions.list({ bank_account_id: acct })).data
    const edited = rows.find((t) => t.description === 'New')!
    await c.transactions.update(edited.id, { category: 'Office' })

    const dry = await c.imports.revert(b.id, { dry_run: true })
    expect(dry.refused).toEqual([expect.objectContaining({ id: edited.id, reason: 'edited' })])
    const refused = await status('POST', `/api-v1/imports/${b.id}/revert`, {})
    expect(refused.status).toBe(409)
    expect(refused.body.error.code).toBe('conflict')
    expect(refused.body.error.message).toContain(edited.id)
    expect(refused.body.error.details?.map((d) => d.path)).toEqual(['include_edited'])
    expect(await c.transactions.list({ bank_account_id: acct }).then((p) => p.data.length)).toBe(2)

    // February closed: its row is never reverted, include_edited or not.
    const old = rows.find((t) => t.description === 'Old')!
    await h.store.db.updateTable('companies').set({ lock_date: '2026-02-28' }).where('id', '=', a.companyId).execute()
    try {
      const locked = await status('POST', `/api-v1/imports/${b.id}/revert`, { include_edited: true })
      expect(locked.status).toBe(409)
      expect(locked.body.error.code).toBe('period_locked')
      expect(locked.body.error.message).toContain(old.id)
      expect((await c.imports.get(b.id)).state).toBe('completed')
    } finally {
      await h.store.db.updateTable('companies').set({ lock_date: null }).where('id', '=', a.companyId).execute()
    }
    const r = await c.imports.revert(b.id, { include_edited: true })
    expect(r.deleted).toBe(2)
    expect(r.transactions.find((t) => t.id === edited.id)?.edited).toBe(true)
    expect((await c.audit.verify()).intact).toBe(true)
  })

  it("a statement upload's revert deletes its lines and the statement, undoes its matches, and the file can come again", async () => {
    const acct = await newAccount('Revert statements')
    // An entered row the statement will reconcile.
    const entered = await c.transactions.create({
      bank_account_id: acct,
      transaction_date: '2024-01-01',
      description: 'Shop 1',
      amount: '-11.00',
    })
    const bytes = Buffer.from(
      'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>99<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>' +
        [1, 2, 3]
          .map((d) => `<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>2024010${d}<TRNAMT>-1${d}.00<FITID>F${d}<NAME>Shop ${d}</STMTTRN>`)
          .join('') +
        '</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n',
    ).toString('base64')
    const upload = async () => {
      const s = await c.statements.upload({ bank_account_id: acct, file_name: 'jan.ofx', content_base64: bytes })
      await c.statements.wait(s.id)
      return s
    }
    const s = await upload()
    const batch = await c.imports.get(s.batch_id as string)
    expect(batch.counts).toMatchObject({ created: 2, reconciled: 1 })
    expect((await c.transactions.get(entered.id)).is_reconciled).toBe(true)

    const r = await c.imports.revert(batch.id)
    expect(r).toMatchObject({ deleted: 2, unpaired: 1, statement: { id: s.id, file_name: 'jan.ofx' } })
    expect(r.batch).toMatchObject({ state: 'reverted', counts: { created: 2, reconciled: 1 } })
    const back = await c.transactions.get(entered.id)
    expect(back).toMatchObject({ is_reconciled: false, bank_statement_id: null })
    expect(await rowsOf(acct)).toEqual([['2024-01-01', 'Shop 1', -11]])
    expect((await status('GET', `/api-v1/statements/${s.id}`, undefined)).status).toBe(404)
    expect((await c.audit.verify()).intact).toBe(true)

    // The same file again: accepted, and the account ends as after the first upload.
    const again = await upload()
    expect((await c.imports.get(again.batch_id as string)).counts).toMatchObject({ created: 2, reconciled: 1 })
    expect(await rowsOf(acct)).toHaveLength(3)
  })

  it("undoes the pairings a CSV batch made with a statement's transactions: they are unpaired, and pair again", async () => {
    const acct = await newAccount('Revert pairings')
    const ofx = Buffer.from(
      'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>98<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>' +
        '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240101<TRNAMT>-11.00<FITID>P1<NAME>Shop 1</STMTTRN>' +
        '</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n',
    ).toString('base64')
    const s = await c.statements.upload({ bank_account_id: acct, file_name: 'p.ofx', content_base64: ofx })
    await c.statements.wait(s.id)
    const [line] = (await c.transactions.list({ bank_account_id: acct })).data
    const send = async () => {
      const b = await c.imports.create({ kind: 'csv', bank_account_id: acct, file_name: 'p.csv' })
      await c.transactions.batchMinimal(
        [
          { bank_account_id: acct, transaction_date: '2024-01-01', description: 'Shop 1', amount: '-11.00', import_ref: 'p.1' },
          { bank_account_id: acct, transaction_date: '2024-01-05', description: 'Other', amount: '-5.00', import_ref: 'p.2' },
        ],
        { importBatch: b.id, matchStatementLines: true },
      )
      return c.imports.finish(b.id, { state: 'completed', read: 2 })
    }
    const b = await send()
    expect(b.counts).toMatchObject({ created: 1, reconciled: 1 })
    expect((await c.transactions.get(line.id)).is_reconciled).toBe(true)

    const r = await c.imports.revert(b.id)
    expect(r).toMatchObject({ deleted: 1, unpaired: 1 })
    expect(r.transactions.map((t) => [t.description, t.action]).sort()).toEqual([
      ['Other', 'delete'],
      ['Shop 1', 'unpair'],
    ])
    const back = await c.transactions.get(line.id)
    expect(back).toMatchObject({ is_reconciled: false, bank_statement_id: s.id })
    expect(await rowsOf(acct)).toEqual([['2024-01-01', 'Shop 1', -11]])
    expect((await c.audit.verify()).intact).toBe(true)
    // Its import_ref went with the pairing: the same rows pair again instead of being "already there".
    expect((await send()).counts).toMatchObject({ created: 1, reconciled: 1, existing: 0 })
    expect(await rowsOf(acct)).toHaveLength(2)
  })

  it("a row a later statement reconciled goes with the batch, and leaves that statement's counts", async () => {
    const acct = await newAccount('Revert later statement')
    const b = await importBatch(acct, [{ date: '2024-02-01', description: 'Shop 7', amount: '-17.00', ref: 'l.1' }])
    const ofx = Buffer.from(
      'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>97<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>' +
        '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240201<TRNAMT>-17.00<FITID>L1<NAME>Shop 7</STMTTRN>' +
        '</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n',
    ).toString('base64')
    const s = await c.statements.upload({ bank_account_id: acct, file_name: 'l.ofx', content_base64: ofx })
    await c.statements.wait(s.id)
    expect((await c.statements.get(s.id)).matched_count).toBe(1)
    const r = await c.imports.revert(b.id)
    expect(r.deleted).toBe(1)
    expect(await rowsOf(acct)).toEqual([])
    expect(await c.statements.get(s.id)).toMatchObject({ matched_count: 0, transaction_count: 0 })
    expect((await c.audit.verify()).intact).toBe(true)
  })

  it('refuses a batch whose creator and time hold a row its entries do not count (it cannot tell them apart)', async () => {
    const acct = await newAccount('Revert same moment')
    const b = await importBatch(acct, [{ date: '2026-06-01', description: 'Mine', amount: '-1.00', ref: 's.1' }])
    const [mine] = (await c.transactions.list({ bank_account_id: acct })).data
    // A row of another write with the same creator and millisecond (made by hand here: no entry of its own).
    const row = await findTransaction(h.store, a.companyId, mine.id)
    const { seq: _, ...copy } = { ...row, id: uuidv7(Date.now()), import_ref: null, description: 'Not mine' }
    // (This breaks the company's verify: the tests after this one do not ask it.)
    await h.store.tx.actorKey(row.created_by as string)
    await h.store.tx.insert(h.store.db, [copy])
    const refused = await status('POST', `/api-v1/imports/${b.id}/revert`, {})
    expect(refused.status).toBe(409)
    expect(refused.body.error.message).toContain('cannot be told apart')
    expect(await rowsOf(acct)).toHaveLength(2)
  })

  it('answers 404 for a batch that is not the company’s, and 400 naming an unknown field', async () => {
    expect((await status('POST', '/api-v1/imports/0190aaaa-0000-7000-8000-000000000000/revert', {})).status).toBe(404)
    const b = await importBatch(await newAccount('Revert bad input'), [
      { date: '2026-03-01', description: 'x', amount: '-1.00', ref: 'b.1' },
    ])
    const bad = await status('POST', `/api-v1/imports/${b.id}/revert`, { dryrun: true })
    expect(bad.status).toBe(400)
  })
})
