/**
 * Documents and transactions in step: `tx get` lists a transaction's documents; reverting an import
 * batch unlinks the documents of the rows it deletes (the documents stay, in `docs list --unlinked`)
 * and names them in its summary, the dry run too; embedded and through `finctl serve`.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { minimalPdf } from '../../helpers/document-files.js'
import { TARGET_KINDS, type Target, openTarget } from '../../helpers/two-targets.js'

const today = new Date().toISOString().slice(0, 10)

describe.each(TARGET_KINDS)('documents of rows a revert deletes (%s)', (kind) => {
  let t: Target
  let batch: string
  let row: string
  let doc: string

  beforeAll(async () => {
    t = await openTarget(kind, 'docrows')
    const acct = (await t.json(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    const csv = t.sb.path('bank.csv')
    writeFileSync(csv, `Date,Description,Amount\n${today},Hardware store,-42.10\n${today},Bakery,-3.20\n`)
    batch = (await t.json(['tx', 'import', csv, '--account', acct, '--json'])).batch_id
    row = (await t.json<Array<{ id: string; description: string }>>(['tx', 'list', '--json'])).find(
      (r) => r.description === 'Hardware store',
    )!.id
    const pdf = t.sb.path('hardware-receipt.pdf')
    writeFileSync(pdf, minimalPdf('Hardware store 42.10'))
    doc = (await t.json(['docs', 'add', pdf, '--tx', row, '--json']))[0].id
  })
  afterAll(() => t?.close())

  it("tx get lists the transaction's documents, in JSON and on a terminal", async () => {
    const j = await t.json(['tx', 'get', row, '--json'])
    expect(j.documents).toEqual([{ id: doc, file_name: 'hardware-receipt.pdf', kind: expect.any(String) }])
    const table = await t.run(['tx', 'get', row], { tty: { stdout: true }, columns: 120, env: { NO_COLOR: '1' } })
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toMatch(/│ documents\s+│ hardware-receipt\.pdf \(\w+, [0-9a-f]{8}\)/)
  })

  it('a revert unlinks the documents of the rows it deletes, names them, and docs list --unlinked shows them', async () => {
    const dry = await t.run(['imports', 'revert', batch, '--dry-run'])
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stderr).toContain('1 document unlinked from the rows deleted and kept (hardware-receipt.pdf')
    const r = await t.run(['imports', 'revert', batch, '--yes', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).documents).toEqual([{ id: doc, file_name: 'hardware-receipt.pdf', transaction_id: row }])
    expect(r.stderr).toMatch(
      /reverted import batch [0-9a-f]{8}: 2 rows deleted, 1 document unlinked from the rows deleted and kept \(hardware-receipt\.pdf [0-9a-f]{8}: finctl docs list --unlinked\)/,
    )
    const unlinked = await t.json<Array<{ id: string; transaction_ids: string[] }>>(['docs', 'list', '--unlinked', '--json'])
    expect(unlinked.map((d) => d.id)).toEqual([doc])
    expect((await t.json(['docs', 'show', doc, '--json'])).transaction_ids).toEqual([])
  })
})

describe.each(TARGET_KINDS)('documents of rows a delete deletes (%s)', (kind) => {
  let t: Target
  let acct: string

  beforeAll(async () => {
    t = await openTarget(kind, 'docdel')
    acct = (await t.json(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
  })
  afterAll(() => t?.close())

  async function rowWithReceipt(description: string): Promise<{ row: string; doc: string }> {
    const row = (
      await t.json(['tx', 'create', '--account', acct, '--date', today, '--amount', '-9.99', '--description', description, '--json'])
    ).id
    const pdf = t.sb.path(`${description}.pdf`)
    writeFileSync(pdf, minimalPdf(`${description} 9.99`))
    const doc = (await t.json(['docs', 'add', pdf, '--tx', row, '--json']))[0].id
    return { row, doc }
  }

  it('tx delete drops the links and keeps the documents, naming them; the document names no deleted row', async () => {
    const { row, doc } = await rowWithReceipt('Paper')
    const r = await t.run(['tx', 'delete', row, '--yes', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({ id: row, deleted: true, documents: [{ id: doc, file_name: 'Paper.pdf', transaction_id: row }] })
    expect(r.stderr).toMatch(/1 document unlinked from it and kept \(Paper\.pdf [0-9a-f]{8}: finctl docs list --unlinked\)/)
    expect((await t.json(['docs', 'show', doc, '--json'])).transaction_ids).toEqual([])
    expect((await t.json<Array<{ id: string }>>(['docs', 'list', '--unlinked', '--json'])).map((d) => d.id)).toContain(doc)
  })

  it('tx bulk-delete does the same for every row it deletes', async () => {
    const a = await rowWithReceipt('Toner')
    const b = await rowWithReceipt('Stamps')
    const r = await t.run(['tx', 'bulk-delete', '--search', 'Toner', '--yes'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/1 document unlinked from the rows deleted and kept \(Toner\.pdf [0-9a-f]{8}: finctl docs list --unlinked\)/)
    expect((await t.json(['docs', 'show', a.doc, '--json'])).transaction_ids).toEqual([])
    // The row left standing keeps its document.
    expect((await t.json(['docs', 'show', b.doc, '--json'])).transaction_ids).toEqual([b.row])
  })
})
