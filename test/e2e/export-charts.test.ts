/**
 * End to end through the built CLI, embedded and remote: a chart of accounts suggested, stored once
 * and used by DATEV, SIE 4 and SAF-T; `export check` passes each file; the SIE and SAF-T files read
 * back give `reports summary`'s balances; the SAF-T file validates against Skatteetaten's XSD where
 * the test machine has it (FINCTL_SAFT_XSD, or ../shared/fixtures/saf-t/ beside the clone: finctl
 * does not ship it, no licence grants that), its structure and totals otherwise; a close's exports
 * and the auditor's pack carry the formats.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readSaft } from '../../src/jobs/export/check-saft.js'
import { readSie } from '../../src/jobs/export/check-sie.js'
import { Sandbox, startServe, stopServeAndCleanup, type ServeProcess } from '../helpers/cli.js'

const XSD =
  process.env.FINCTL_SAFT_XSD ?? resolve(import.meta.dirname, '../../../shared/fixtures/saf-t/Norwegian_SAF-T_Financial_Schema_v_1.30.xsd')
const HAS_XSD = existsSync(XSD)
const PERIOD = ['--from', '2026-01-01', '--to', '2026-12-31']

interface Summary {
  by_category: Array<{ category: string | null; amount: number }>
  accounts: Array<{ name: string; balance: number }>
}

/** A file's bytes without what says when it was written (DATEV's Erzeugt am, SIE's #GEN, SAF-T's AuditFileDateCreated). */
const undated = (b: Buffer) =>
  b
    .toString('latin1')
    .replace(/^("EXTF";700;21;"Buchungsstapel";13;)\d{17}/, '$1')
    .replace(/#GEN \d{8}/, '#GEN')
    .replace(/<AuditFileDateCreated>[^<]*</, '<AuditFileDateCreated><')

describe('finctl export to a chart of accounts', () => {
  const sb = new Sandbox('export-charts')
  let server: ServeProcess | undefined
  const out = (name: string) => join(sb.dir, name)

  beforeAll(async () => {
    await sb.ok(['init', '--company', 'Fjord Regnskap AS', '--currency', 'NOK', '--no-input'])
    await sb.ok([
      'accounts',
      'create',
      '--name',
      'Driftskonto',
      '--type',
      'checking',
      '--opening-balance',
      '10000.00',
      '--opening-balance-date',
      '2025-12-31',
    ])
    await sb.ok(['accounts', 'create', '--name', 'Euro', '--type', 'checking', '--currency', 'EUR'])
    const rows: string[][] = [
      ['Driftskonto', '2026-01-15', '25000.00', 'Faktura 1001', '--category', 'Consulting', '--accounting-category', 'revenue'],
      ['Driftskonto', '2026-02-03', '-1249.50', 'Kontorrekvisita', '--category', 'Office', '--accounting-category', 'operating_expenses'],
      ['Driftskonto', '2026-03-31', '-30000.00', 'Lønn mars', '--category', 'Salaries', '--accounting-category', 'payroll'],
      ['Driftskonto', '2026-04-02', '-95.00', 'Gebyr'],
      [
        'Euro',
        '2026-05-05',
        '-120.00',
        'Hosting',
        '--exchange-rate',
        '11.7325',
        '--category',
        'Hosting',
        '--accounting-category',
        'operating_expenses',
      ],
    ]
    for (const [account, date, amount, description, ...rest] of rows)
      await sb.ok(['tx', 'create', '--account', account, '--date', date, '--amount', amount, '--description', description, ...rest])
  }, 360_000)
  afterAll(() => stopServeAndCleanup(server, sb))

  it('a suggested chart, completed and stored once, is what each format takes; check passes each file', async () => {
    const suggested = out('chart.yaml')
    await sb.ok(['export', 'map', 'suggest', '--chart', 'no-standard', '-o', suggested])
    const text = readFileSync(suggested, 'utf8')
    expect(text).toContain('revenue: { number: "3000", name: "Salgsinntekt", grouping_category: "salgsinntekt", grouping_code: "3000" }')
    writeFileSync(
      suggested,
      text
        .replace('# saft: {', 'saft: {')
        .replace(
          'fiscal_year_start: "01-01"',
          'fiscal_year_start: "01-01"\ndatev: { adviser: 1001, client: 1 }\nsie: { organization_number: "556677-8899" }',
        ),
    )
    const before = await sb.run(['export', '--format', 'saft-no', ...PERIOD, '-o', out('none.xml')])
    expect(before.code).toBe(6)
    expect(before.stderr).toContain('bank account "Driftskonto"')
    await sb.ok(['export', 'map', 'set', suggested])
    for (const [format, name] of [
      ['datev', 'EXTF_2026.csv'],
      ['sie4', 'books-2026.se'],
      ['saft-no', 'saft-2026.xml'],
    ]) {
      const r = await sb.run(['export', '--format', format, ...PERIOD, ...(format === 'sie4' ? ['--checksum'] : []), '-o', out(name)])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toContain(`exported 5 transactions of 2026-01-01 to 2026-12-31 as ${format} to`)
      const c = await sb.run(['export', 'check', out(name)], { env: HAS_XSD ? { FINCTL_SAFT_XSD: XSD } : {} })
      expect(c.code, c.stdout + c.stderr).toBe(0)
      expect(c.stdout).toBe('')
      if (format === 'saft-no' && HAS_XSD) expect(c.stderr).toMatch(/checked XSD \S+\.xsd/)
    }
    const datev = readFileSync(out('EXTF_2026.csv'))
    // Windows-1252: "ø" of "Lønn" is one byte, 0xF8; lines end in CR LF.
    expect(datev.includes(Buffer.from([0x4c, 0xf8, 0x6e, 0x6e]))).toBe(true)
    expect(datev.toString('latin1').split('\r\n')).toHaveLength(2 + 5 + 1)
    expect(datev.toString('latin1')).toContain('120,00;"H";"EUR";0,085233;1407,90;"NOK";1921;7700;')
  })

  it('SIE and SAF-T read back: bank balances and each category equal reports summary', async () => {
    const summary = await sb.json<Summary>(['reports', 'summary', ...PERIOD, '--json'])
    const sie = await readSie(out('books-2026.se'))
    const saft = await readSaft(out('saft-2026.xml'))
    const cents = (n: number) => BigInt(Math.round(n * 100))
    const drift = summary.accounts.find((a) => a.name === 'Driftskonto')!
    expect(sie.accounts.get('1920')?.ub).toBe(cents(drift.balance))
    expect(saft.accounts.get('1920')?.closing).toBe(cents(drift.balance))
    const numbers: Record<string, string> = { Consulting: '3000', Salaries: '5000', null: '2990' }
    for (const [category, number] of Object.entries(numbers)) {
      const row = summary.by_category.find((c) => String(c.category) === category)!
      expect(sie.accounts.get(number)?.trans, category).toBe(-cents(row.amount))
      expect(saft.accounts.get(number)?.lines, category).toBe(-cents(row.amount))
    }
    const office = summary.by_category
      .filter((c) => c.category === 'Office' || c.category === 'Hosting')
      .reduce((s, c) => s + cents(c.amount), 0n)
    expect(sie.accounts.get('7700')?.res).toBe(-office)
    expect(saft.accounts.get('7700')?.closing).toBe(-office)
  })

  it.skipIf(!HAS_XSD)("the SAF-T file validates against Skatteetaten's XSD; a broken one is named by it, line and all", async () => {
    const broken = readFileSync(out('saft-2026.xml'), 'utf8').replace('<AccountType>GL</AccountType>', '<AccountType>XX</AccountType>')
    writeFileSync(out('broken.xml'), broken)
    const r = await sb.run(['export', 'check', out('broken.xml'), '--xsd', XSD])
    expect(r.code).toBe(6)
    expect(r.stdout).toMatch(/broken\.xml:\d+: XSD: .*AccountType/)
  })

  it('a broken file of each format: exit 6, each problem with its line', async () => {
    const sie = readFileSync(out('books-2026.se'), 'latin1').replace('#TRANS 3000 {} -25000.00', '#TRANS 3000 {} -24000.00')
    writeFileSync(out('broken.se'), Buffer.from(sie, 'latin1'))
    const s = await sb.run(['export', 'check', out('broken.se')])
    expect(s.code).toBe(6)
    expect(s.stdout).toMatch(/broken\.se:\d+: voucher A 1: its #TRANS sum to 1000\.00, not 0/)
    expect(s.stdout).toMatch(/#KSUMMA \d+ is not the checksum of the file/)
    const datev = readFileSync(out('EXTF_2026.csv'), 'latin1').replace(';"Faktura 1001"', `;"${'x'.repeat(61)}"`)
    writeFileSync(out('EXTF_broken.csv'), Buffer.from(datev, 'latin1'))
    const d = await sb.run(['export', 'check', out('EXTF_broken.csv')])
    expect(d.code).toBe(6)
    expect(d.stdout).toMatch(/EXTF_broken\.csv:3: Buchungstext is 61 characters, at most 60/)
    const saft = readFileSync(out('saft-2026.xml'), 'utf8').replace(/<NumberOfEntries>5</, '<NumberOfEntries>6<')
    writeFileSync(out('count.xml'), saft)
    const x = await sb.run(['export', 'check', out('count.xml')])
    expect(x.code).toBe(6)
    expect(x.stdout).toMatch(/count\.xml:\d+: NumberOfEntries is 6, the file holds 5 transactions/)
  })

  it('remote: the same files through finctl serve, but for the time they were written', async () => {
    server = await startServe(sb, sb.database)
    const key = sb.profiles().profiles.local.api_key!
    sb.remember(key)
    for (const [format, name] of [
      ['datev', 'EXTF_2026.csv'],
      ['sie4', 'books-2026.se'],
      ['saft-no', 'saft-2026.xml'],
    ]) {
      const file = out(`remote-${name}`)
      const r = await sb.run(['export', '--format', format, ...PERIOD, ...(format === 'sie4' ? ['--checksum'] : []), '-o', file], {
        env: { FINCTL_API_KEY: key, FINCTL_BASE_URL: server.url },
      })
      expect(r.code, r.stderr).toBe(0)
      const a = undated(readFileSync(file))
      const b = undated(readFileSync(out(name)))
      // SIE's checksum covers #GEN: compare the rest.
      expect(a.replace(/#KSUMMA \d+/, '#KSUMMA')).toBe(b.replace(/#KSUMMA \d+/, '#KSUMMA'))
    }
  })

  it("a close's exports and the auditor's pack carry the formats", async () => {
    await sb.ok(['close', '2026-01', '--force', '--reason', 'test', '--export', 'datev,sie4,saft-no', '--output-dir', out('close')])
    for (const name of ['EXTF_books-2026-01.csv', 'books-2026-01.se', 'books-2026-01.saft.xml'])
      expect(existsSync(join(out('close'), name)), name).toBe(true)
    const datev = readFileSync(join(out('close'), 'EXTF_books-2026-01.csv'), 'latin1')
      .split('\r\n')[0]
      .split(';')
    expect(datev[20]).toBe('1')
    const v = await sb.run(['verify', '--close', '2026-01', '--dir', out('close')])
    expect(v.code, v.stdout + v.stderr).toBe(0)
    // Written with the company's map (no --accounts-map): the close records the SHA-256 of the map each read.
    const stored = await sb.json<{ sha256: string }>(['export', 'map', 'show', '--json'])
    const checked = await sb.json<{ exports: Array<{ format: string; accounts_map_sha256: string | null }> }>([
      'verify',
      '--close',
      '2026-01',
      '--json',
    ])
    expect(checked.exports.map((e) => [e.format, e.accounts_map_sha256])).toEqual(
      ['datev', 'sie4', 'saft-no'].map((f) => [f, stored.sha256]),
    )
    const pack = await sb.run(['close', 'pack', '2026-01', '-o', out('pack.zip'), '--formats', 'sie4,saft-no'])
    expect(pack.code, pack.stderr).toBe(0)
    expect(readFileSync(out('pack.zip')).includes(Buffer.from('books-2026-01.se'))).toBe(true)
  })
})
