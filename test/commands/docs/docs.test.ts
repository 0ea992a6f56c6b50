/**
 * `finctl docs add | list | show | get | link | unlink` in process (test/helpers/in-process-cli.ts):
 * the same file twice is one document, a file refused by its content names the file, --json
 * everywhere, `get` never writes over a file unasked, and names from outside are printed escaped.
 */
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Document } from '../../../src/domain/documents/schemas.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'
import { minimalPdf, tinyPng } from '../../helpers/document-files.js'

type Added = Document & { created: boolean }

describe('docs, in process', () => {
  let sb: InProcessSandbox
  let tx: string
  let pdf: string
  let png: string

  beforeAll(async () => {
    sb = new InProcessSandbox('docs')
    await sb.ok(['init', '--company', 'Docs Co', '--currency', 'EUR', '--no-input'])
    const acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    tx = (
      await sb.json<{ id: string }>([
        'tx',
        'create',
        '--account',
        acct,
        '--date',
        '2026-03-02',
        '--amount',
        '-12.50',
        '--description',
        'Paper',
        '--json',
      ])
    ).id
    pdf = sb.path('receipt.pdf')
    writeFileSync(pdf, minimalPdf('Paper 12.50'))
    png = sb.path('scan.pdf')
    writeFileSync(png, tinyPng())
  })
  afterAll(() => sb?.cleanup())

  it('add: each file by content, linked with --tx; the same file again is the same document', async () => {
    const [a, b] = await sb.json<Added[]>(['docs', 'add', pdf, png, '--tx', tx, '--json'])
    expect(a).toMatchObject({ kind: 'pdf', created: true, transaction_ids: [tx] })
    expect(b).toMatchObject({ kind: 'png', media_type: 'image/png', file_name: 'scan.pdf' })
    const again = await sb.ok(['docs', 'add', pdf])
    expect(again.stderr).toContain('already there')
    expect(again.stdout).toContain(a.id.slice(0, 8))
    const listed = await sb.json<Document[]>(['docs', 'list', '--tx', tx, '--json'])
    expect(listed.map((d) => d.id).sort()).toEqual([a.id, b.id].sort())
  })

  it('add: a text file named invoice.pdf is refused naming the file; a missing file is a usage error', async () => {
    const fake = sb.path('invoice.pdf')
    writeFileSync(fake, 'Invoice 42\nTotal 12.50\n')
    const r = await sb.run(['docs', 'add', fake])
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain('"invoice.pdf" looks like plain text')
    // With a good file before it: nothing is sent, so the good one is not stored either.
    const other = sb.path('other.pdf')
    writeFileSync(other, minimalPdf('Other 1.00'))
    const mixed = await sb.run(['docs', 'add', other, fake])
    expect(mixed.code).toBe(6)
    expect(mixed.stderr).toContain('nothing was added')
    expect((await sb.json<Document[]>(['docs', 'list', '--json'])).map((d) => d.file_name)).not.toContain('other.pdf')
    const big = sb.path('big.pdf')
    writeFileSync(big, Buffer.alloc(20 * 1024 * 1024 + 1, 0x25))
    const tooBig = await sb.run(['docs', 'add', pdf, big])
    expect(tooBig.code).toBe(2)
    expect(tooBig.stderr).toContain('big.pdf is 20971521 bytes: a document may be at most 20 MiB')
    const missing = await sb.run(['docs', 'add', sb.path('nope.pdf')])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('nope.pdf: no such file')
    // A loop of symbolic links: a usage error that says so, before anything is sent.
    symlinkSync(sb.path('loop-b.pdf'), sb.path('loop-a.pdf'))
    symlinkSync(sb.path('loop-a.pdf'), sb.path('loop-b.pdf'))
    const loop = await sb.run(['docs', 'add', pdf, sb.path('loop-a.pdf')])
    expect(loop.code).toBe(2)
    expect(loop.stderr).toContain('loop-a.pdf is a loop of symbolic links')
    expect(loop.stderr).not.toMatch(/internal error|ELOOP/)
  })

  it('show, link, unlink, list --unlinked', async () => {
    const contract = sb.path('contract.pdf')
    writeFileSync(contract, minimalPdf('Contract'))
    const [d] = await sb.json<Added[]>(['docs', 'add', contract, '--json'])
    expect((await sb.json<Document[]>(['docs', 'list', '--unlinked', '--json'])).map((x) => x.id)).toEqual([d.id])
    expect((await sb.json<Document>(['docs', 'link', d.id, '--tx', tx, '--json'])).transaction_ids).toEqual([tx])
    expect(await sb.json<Document[]>(['docs', 'list', '--unlinked', '--json'])).toEqual([])
    const shown = await sb.ok(['docs', 'show', d.id])
    expect(shown.stdout).toContain('contract.pdf')
    expect(shown.stdout).toContain(tx)
    const un = await sb.ok(['docs', 'unlink', d.id, '--tx', tx])
    expect(un.stderr).toContain(`unlinked document ${d.id} from transaction ${tx}`)
    const twice = await sb.run(['docs', 'unlink', d.id, '--tx', tx])
    expect(twice.code).toBe(5)
    const both = await sb.run(['docs', 'list', '--tx', tx, '--unlinked'])
    expect(both.code).toBe(2)
  })

  it('get: writes the bytes to a new file, never over one unasked; -o - to stdout', async () => {
    const [d] = await sb.json<Added[]>(['docs', 'add', pdf, '--json'])
    const out = sb.path('copy.pdf')
    await sb.ok(['docs', 'get', d.id, '-o', out])
    expect(readFileSync(out).equals(readFileSync(pdf))).toBe(true)
    const again = await sb.run(['docs', 'get', d.id, '-o', out])
    expect(again.code).toBe(2)
    expect(again.stderr).toContain('already exists')
    await sb.ok(['docs', 'get', d.id, '-o', out, '--overwrite'])
    const piped = await sb.ok(['docs', 'get', d.id, '-o', '-'])
    expect(piped.stdout).toBe(readFileSync(pdf, 'latin1'))
  })

  it('prints a file name from outside escaped', async () => {
    const odd = sb.path('evil\u001b[31m.pdf')
    writeFileSync(odd, minimalPdf('Odd'))
    const r = await sb.ok(['docs', 'add', odd])
    expect(r.stdout + r.stderr).not.toContain('\u001b[31m')
  })
})
