/**
 * The CLI in process (test/helpers/in-process-cli.ts): a saved mapping recognises its bank's next
 * file by the header it was made from (docs/csv-mapping.md, "Banks recognised"). A real DKB
 * credit-card export from the corpus (windows-1252, seven preamble lines, header on line 8; read in
 * place, never copied): saved once with its flags, `tx import FILE` without --mapping uses it and
 * says so; --no-mapping does not; two mappings of one header are refused (exit 2) naming both; a
 * mapping saved before (no header) still works by name and is never picked by itself.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HAS_BANK_FILES, bankFile } from '../../helpers/bank-files.js'
import { fastKey, InProcessSandbox } from '../../helpers/in-process-cli.js'

const DKB = bankFile('csv', 'de-dkb-creditcard-latin1-preamble-lines.csv')
const CHASE = bankFile('csv', 'us-chase-style-checking-signed-balance.csv')

interface Tx {
  transaction_date: string
  description: string
  tags: string[]
}

describe.skipIf(!HAS_BANK_FILES)('banks recognised by their header', () => {
  let sb: InProcessSandbox
  const newAccount = () => sb.newAccount({ currency: 'EUR', type: 'credit_card' })
  const txs = async (account: string): Promise<Tx[]> => sb.json(['tx', 'list', '--account', account, '--all', '--json'])
  const mappingsFile = () => join(sb.configDir, 'mappings.json')

  beforeAll(async () => {
    sb = new InProcessSandbox('mapping-recognition')
    await sb.ok(['init', '--no-input', '--currency', 'EUR'])
    await fastKey(sb)
    // The bank's first file: the flags it needs, saved (a dry run sends nothing).
    const save = await sb.ok([
      'tx',
      'import',
      DKB,
      '--account',
      await newAccount(),
      '--skip-lines',
      '7',
      '--map',
      'date=Wertstellung',
      '--set',
      'tags=dkb',
      '--save-mapping',
      'dkb',
      '--dry-run',
    ])
    expect(save.stderr).toContain('mapping saved as "dkb"')
  })
  afterAll(() => sb?.cleanup())

  it('the saved mapping remembers the header, encoding and delimiter it was made from', () => {
    const saved = JSON.parse(readFileSync(mappingsFile(), 'utf8')).mappings.dkb
    expect(saved.source).toMatchObject({
      header: ['Umsatz abgerechnet', 'Wertstellung', 'Belegdatum', 'Umsatzbeschreibung', 'Betrag (EUR)', 'Ursprünglicher Betrag', ''],
      encoding: 'windows-1252',
      delimiter: ';',
    })
  })

  it('tx import FILE without --mapping uses the mapping whose header the file has, and says so on stderr', async () => {
    const account = await newAccount()
    const r = await sb.ok(['tx', 'import', DKB, '--account', account, '--json'])
    expect(r.stderr.split('\n')[0]).toBe('using mapping "dkb" (header matched)')
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 7, rejected: 0 })
    const rows = await txs(account)
    // The mapping's own choices: Wertstellung as the date (Belegdatum by default), its tags.
    expect(rows.map((t) => t.transaction_date).sort()[0]).toBe('2012-02-23')
    expect(rows.every((t) => t.tags.includes('dkb'))).toBe(true)
  })

  it('--no-mapping uses none: the file is read as if nothing were saved', async () => {
    const account = await newAccount()
    const r = await sb.ok(['tx', 'import', DKB, '--account', account, '--no-mapping', '--json'])
    expect(r.stderr).not.toContain('using mapping')
    const rows = await txs(account)
    expect(rows.map((t) => t.transaction_date).sort()[0]).toBe('2012-02-22')
    expect(rows.some((t) => t.tags.includes('dkb'))).toBe(false)
  })

  it("another bank's file matches no mapping", async () => {
    const r = await sb.ok(['tx', 'import', CHASE, '--account', await newAccount(), '--dry-run'])
    expect(r.stderr).not.toContain('using mapping')
  })

  it('two mappings of the same header: exit 2 naming both, until --mapping NAME chooses', async () => {
    const account = await newAccount()
    await sb.ok(['tx', 'import', DKB, '--account', account, '--save-mapping', 'dkb-copy', '--dry-run'])
    const r = await sb.run(['tx', 'import', DKB, '--account', account, '--dry-run'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      `error: the header of ${DKB} matches the saved mappings "dkb" and "dkb-copy": choose one with --mapping NAME, or none with --no-mapping\n`,
    )
    const chosen = await sb.ok(['tx', 'import', DKB, '--account', account, '--mapping', 'dkb', '--dry-run'])
    expect(chosen.stderr).not.toContain('header matched')
  })

  it('a mapping saved before headers were kept works by name and is never picked by itself', async () => {
    const all = JSON.parse(readFileSync(mappingsFile(), 'utf8'))
    const { source: _source, ...old } = all.mappings.dkb
    writeFileSync(mappingsFile(), JSON.stringify({ mappings: { old } }), { mode: 0o600 })
    const account = await newAccount()
    const plain = await sb.ok(['tx', 'import', DKB, '--account', account, '--dry-run'])
    expect(plain.stderr).not.toContain('using mapping')
    expect(plain.stderr).toContain('date <- Belegdatum')
    const named = await sb.ok(['tx', 'import', DKB, '--account', account, '--mapping', 'old', '--json'])
    expect(JSON.parse(named.stdout)).toMatchObject({ created: 7 })
    expect((await txs(account)).every((t) => t.tags.includes('dkb'))).toBe(true)
  })
})
