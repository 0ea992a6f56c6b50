/**
 * Matching on the command line, in process: `docs add` names the transaction a document was linked
 * to by itself, `--no-auto-link` leaves it, `docs suggest` shows the candidates with score and why
 * (table and --json), `--apply` links the sure ones, and `tx review --list` shows a candidate document.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AddedDocument, AppliedLinks, DocumentSuggestion } from '../../../src/domain/documents/schemas.js'
import { ciiInvoice, textPdf } from '../../helpers/document-files.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

describe('docs suggest, in process', () => {
  let sb: InProcessSandbox
  let acme: string
  let twins: string[]
  let cafe: string

  beforeAll(async () => {
    sb = new InProcessSandbox('docs-suggest')
    await sb.ok(['init', '--company', 'Suggest Co', '--currency', 'EUR', '--no-input'])
    const acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    acme = await sb.newTransaction(acct, '2026-10-03', '-119.00', 'SEPA ACME Tools GmbH')
    twins = [
      await sb.newTransaction(acct, '2026-10-09', '-89.00', 'Amazon Marketplace'),
      await sb.newTransaction(acct, '2026-10-09', '-89.00', 'Amazon Marketplace'),
    ]
    cafe = await sb.newTransaction(acct, '2026-10-12', '-7.40', 'Cafe Morgenrot')
    writeFileSync(
      sb.path('acme.xml'),
      ciiInvoice({ id: 'A-1', amount: '119.00', currency: 'EUR', date: '2026-10-01', seller: 'ACME Tools GmbH' }),
    )
    writeFileSync(sb.path('amazon.pdf'), textPdf(['Amazon Marketplace', '2026-10-09', 'Order Total EUR 89.00']))
    writeFileSync(sb.path('2026-10-12_cafe-morgenrot_7.40EUR.pdf'), textPdf(['Thank you']))
  })
  afterAll(() => sb?.cleanup())

  it('add: a document matching one transaction alone is linked by itself, and the output names it', async () => {
    const r = await sb.ok(['docs', 'add', sb.path('acme.xml')])
    expect(r.stderr).toContain(`linked by itself to transaction ${acme}`)
    const [d] = await sb.json<AddedDocument[]>(['docs', 'add', sb.path('acme.xml'), '--json'])
    expect(d).toMatchObject({ created: false, transaction_ids: [acme] })
    // What was read, shown with the document.
    const shown = await sb.ok(['docs', 'show', d.id])
    for (const text of ['119.00 EUR', '2026-10-01', 'ACME Tools GmbH', 'cii']) expect(shown.stdout).toContain(text)
  })

  it('add --no-auto-link leaves it; suggest shows the candidates, --apply links the sure one', async () => {
    const [d] = await sb.json<AddedDocument[]>([
      'docs',
      'add',
      sb.path('2026-10-12_cafe-morgenrot_7.40EUR.pdf'),
      '--no-auto-link',
      '--json',
    ])
    expect(d).toMatchObject({ auto_linked: null, transaction_ids: [] })
    const [amazon] = await sb.json<AddedDocument[]>(['docs', 'add', sb.path('amazon.pdf'), '--json'])
    expect(amazon.auto_linked).toBeNull()

    const all = await sb.json<DocumentSuggestion[]>(['docs', 'suggest', '--json'])
    expect(all.map((s) => s.document_id).sort()).toEqual([d.id, amazon.id].sort())
    const one = await sb.json<DocumentSuggestion>(['docs', 'suggest', d.id, '--json'])
    expect(one).toMatchObject({ auto_link: cafe, fields: { amount: 7.4, currency: 'EUR', date: '2026-10-12', source: 'file_name' } })

    const table = await sb.ok(['docs', 'suggest'])
    expect(table.stdout.split('\n')[0]).toContain('SCORE')
    expect(table.stdout).toContain('sure: amount 7.40 EUR the same')
    for (const t of twins) expect(table.stdout).toContain(t.slice(-8))
    expect(table.stderr).toContain('1 sure enough to link')

    const applied = await sb.json<AppliedLinks>(['docs', 'suggest', '--apply', '--json'])
    expect(applied.linked).toEqual([{ document_id: d.id, transaction_id: cafe, score: 1 }])
    expect(applied.left).toBe(1)
    const again = await sb.ok(['docs', 'suggest', '--apply'])
    expect(again.stderr).toContain('0 linked, 1 left unlinked')
  })

  it('tx review --list shows the candidate document of a transaction', async () => {
    const r = await sb.ok(['tx', 'review', '--list', '--output', 'csv'])
    const lines = r.stdout.trim().split('\n')
    expect(lines[0]).toContain('document')
    const twin = lines.find((l) => l.startsWith(twins[0]))
    expect(twin).toMatch(/amazon\.pdf \(1\.00\)/)
  })

  it('tx review on a terminal names the candidate document of the row it shows, and how to link it', async () => {
    for (const id of [acme, cafe]) await sb.ok(['tx', 'update', id, '--category', 'Supplies'])
    const r = await sb.run(['tx', 'review', '--limit', '1'], {
      tty: { stdin: true, stdout: true, stderr: true },
      columns: 160,
      script: [['a document may prove it', '\x03']],
    })
    expect(r.stderr).toMatch(/a document may prove it: amazon\.pdf \(1\.00\), finctl docs link [0-9a-f-]{36} --tx [0-9a-f-]{36}/)
  })

  it('suggest: an unknown document is not found; --limit is checked', async () => {
    const r = await sb.run(['docs', 'suggest', '01900000-0000-7000-8000-000000000000'])
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain('not found')
    const bad = await sb.run(['docs', 'suggest', '--limit', 'many'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--limit')
  })
})
