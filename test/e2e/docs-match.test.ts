/**
 * End to end, the built CLI: a ZUGFeRD PDF (its invoice embedded, built here) is read through the
 * bundled PDF reader, its fields shown, and linked by itself to the one transaction it matches.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AddedDocument } from '../../src/domain/documents/schemas.js'
import { ciiInvoice, textPdf } from '../helpers/document-files.js'
import { Sandbox } from '../helpers/cli.js'

describe('docs matching, the built CLI', () => {
  let sb: Sandbox
  let tx: string

  beforeAll(async () => {
    sb = new Sandbox('docs-match')
    await sb.ok(['init', '--company', 'Match Co', '--currency', 'EUR', '--no-input'])
    const acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    tx = (
      await sb.json<{ id: string }>([
        'tx',
        'create',
        '--account',
        acct,
        '--date',
        '2026-10-03',
        '--amount',
        '-119.00',
        '--description',
        'ACME GmbH',
        '--json',
      ])
    ).id
    const xml = ciiInvoice({ id: 'Z-1', amount: '119.00', currency: 'EUR', date: '2026-10-02', seller: 'ACME GmbH' })
    writeFileSync(join(sb.dir, 'invoice.pdf'), textPdf(['ACME GmbH', 'Invoice Z-1'], { name: 'factur-x.xml', bytes: xml }))
  })
  afterAll(() => sb?.cleanup())

  it('reads the embedded invoice and links the PDF to its payment', async () => {
    const r = await sb.ok(['docs', 'add', join(sb.dir, 'invoice.pdf'), '--json'])
    const [d] = JSON.parse(r.stdout) as AddedDocument[]
    expect(d).toMatchObject({ auto_linked: tx, transaction_ids: [tx] })
    expect(d.fields).toEqual({ amount: 119, currency: 'EUR', date: '2026-10-02', merchant: 'ACME GmbH', source: 'pdf_xml' })
    expect(r.stderr).toContain(`linked by itself to transaction ${tx}`)
  })
})
