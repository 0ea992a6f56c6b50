/**
 * `finctl policy set --document-threshold AMOUNT CURRENCY --require-documents on|off` and what
 * `close status` and `close` make of it, in process: the rows listed on stderr, exit 12 and the
 * refusal naming them once required; usage errors naming the flag (exit 2).
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { previousMonth } from '../../../src/domain/accounts/period-lock.js'
import { minimalPdf } from '../../helpers/document-files.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

const M = previousMonth(new Date().toISOString().slice(0, 7))

describe('documents before a close, in process', () => {
  let sb: InProcessSandbox
  let big: string

  beforeAll(async () => {
    sb = new InProcessSandbox('close-documents')
    await sb.ok(['init', '--company', 'Docs Co', '--currency', 'EUR', '--email', 'o@docs.test', '--password-stdin', '--no-input'], {
      input: 'password-for-docs\n',
    })
    const acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    const tx = (args: string[]) => sb.json<{ id: string }>(['tx', 'create', '--account', acct, ...args, '--json'])
    big = (await tx(['--date', `${M}-03`, '--amount', '-320.00', '--description', 'Desk\u001b[31m'])).id
    await tx(['--date', `${M}-04`, '--amount', '-12.00', '--description', 'Pens'])
  })
  afterAll(() => sb?.cleanup())

  it('policy set: the threshold and the flag, shown by policy show', async () => {
    const r = await sb.ok(['policy', 'set', '--document-threshold', '100.00', 'EUR'])
    expect(r.stderr).toContain('a document is needed from 100.00 EUR; close lists, and does not refuse, while one is missing')
    expect(await sb.json(['policy', 'show', '--json'])).toMatchObject({ document_thresholds: { EUR: '100.00' }, require_documents: false })
  })

  it('close status lists the transaction without a document (escaped), and does not block while not required', async () => {
    const r = await sb.run(['close', 'status', '--month', M])
    expect(r.stdout.split('\n')[0]).toContain('NO DOCUMENT')
    expect(r.stderr).toContain('1 transaction(s) at or above the document threshold (100.00 EUR) without a document (listed only')
    expect(r.stderr).toContain(`${big}  ${M}-03  -320.00 EUR  Desk`)
    expect(r.stderr).not.toContain('\u001b[31m')
    expect(r.stderr).not.toContain('Main: 1 without a document')
  })

  it('required: close status exits 12 and close refuses naming the row; a linked document takes it off', async () => {
    await sb.ok(['policy', 'set', '--require-documents', 'on'])
    const s = await sb.run(['close', 'status', '--month', M])
    expect(s.code).toBe(12)
    expect(s.stderr).toContain('Main: 1 without a document (at or above the threshold)')
    const c = await sb.run(['close', M])
    expect(c.code).toBe(12)
    expect(c.stderr).toContain(`without a document: ${big} (${M}-03, -320.00 EUR)`)
    writeFileSync(sb.path('desk.pdf'), minimalPdf('Desk 320.00 EUR'))
    await sb.ok(['docs', 'add', sb.path('desk.pdf'), '--tx', big])
    const j = JSON.parse((await sb.run(['close', 'status', '--month', M, '--json'])).stdout)
    expect(j.company.documents_missing).toBe(0)
    expect(j.documents_missing).toEqual([])
  })

  it('usage errors name the flag', async () => {
    const cases: Array<[string[], string]> = [
      [['policy', 'set', '--document-threshold', '100.00'], '--document-threshold takes pairs: AMOUNT CURRENCY'],
      [['policy', 'set', '--document-threshold', '100.00', 'euro'], '"euro" is not a currency code'],
      [['policy', 'set', '--document-threshold', 'lots', 'EUR'], '"lots" is not an amount'],
      [['policy', 'set', '--require-documents', 'maybe'], '--require-documents maybe: not one of on, off'],
      [['policy', 'set', '--require-approval', 'reopen', '--require-documents', 'on'], '--require-approval is set on its own'],
    ]
    for (const [args, message] of cases) {
      const r = await sb.run(args)
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2)
      expect(r.stderr).toContain(message)
    }
  })
})
