/**
 * A DATEV, SIE 4 or SAF-T export (docs/exporting.md), written from what a source reads (write.ts):
 * the accounts map (the one given, else the company's stored map), the period's groups and the bank
 * accounts' positions are read first, and every bank account and category without a number is
 * refused at once (exit 6) before a byte is written; then the rows stream page by page, each written
 * in its format's encoding.
 */
import { currencyExponent } from '../../kernel/currencies.js'
import { AppError } from '../../kernel/errors.js'
import { VERSION } from '../../version.js'
import type { AccountsMapFile } from './accounts-map-schema.js'
import type { BankAccountInfo } from './formats/accounts-map.js'
import { chartBalances } from './formats/chart-balances.js'
import { ChartMap, oneFiscalYear, positions } from './formats/chart.js'
import { DatevWriter, datevHeaderLine } from './formats/datev.js'
import type { ChartFormat } from './formats/format.js'
import { encode } from './formats/legacy-text.js'
import { SaftWriter } from './formats/saft.js'
import { SieWriter } from './formats/sie.js'
import type { EachPage, ExportSource, ExportWrite } from './source.js'

export interface ChartRequest {
  format: ChartFormat
  from: string
  to: string
  bankAccountId?: string
  /** The map given (--accounts-map); else the company's stored map. */
  accountsMap?: AccountsMapFile
  /** When the file is made (DATEV's Erzeugt am, SIE's #GEN, SAF-T's AuditFileDateCreated). */
  writtenAt: Date
  /** SIE: write #KSUMMA. */
  checksum?: boolean
  /** As the data stood at this moment: the groups and balances too. */
  asOf?: string
  /** Each text the format cannot hold as it is, with its line. */
  onWarning?: (message: string) => void
}

export interface ChartResult {
  zeroLeftOut: number
  warnings: number
  storedMapSha256?: string
}

export async function writeChartExport(
  source: ExportSource,
  r: ChartRequest,
  company: { name: string; base_currency: string; lock_date: string | null },
  accounts: BankAccountInfo[],
  each: EachPage,
  write: ExportWrite,
): Promise<ChartResult> {
  const base = company.base_currency
  // The map given, else the stored one (an empty map when none: every account is then missing).
  const stored = r.accountsMap ? undefined : await source.accountsMap()
  const file = r.accountsMap ?? stored?.map ?? {}
  const fy = oneFiscalYear(r.format, r.from, r.to, file.fiscal_year_start)
  if (r.format === 'saft-no' && currencyExponent(base) > 2)
    throw new AppError('validation_error', `SAF-T amounts have at most 2 decimals: the base currency ${base} has ${currencyExponent(base)}`)
  const strangers = Object.keys(file.bank_accounts ?? {}).filter((k) => !accounts.some((a) => a.id === k || a.name === k))
  if (strangers.length)
    throw new AppError(
      'usage',
      `--accounts-map: ${strangers.map((k) => `bank_accounts.${k}`).join(', ')} is no bank account of this company (give its id or name)`,
    )
  const chart = new ChartMap(r.format, file, accounts)
  const scope = { from: r.from, to: r.to, bank_account_id: r.bankAccountId, as_of: r.asOf }
  const withBalances = r.format !== 'datev'
  const [groups, opening] = await Promise.all([
    source.groups(scope),
    withBalances ? source.openingBalances({ from: r.from, bank_account_id: r.bankAccountId, as_of: r.asOf }) : undefined,
  ])
  const pos = opening ? positions(opening, r.format, base, r.to) : { start: new Map<string, bigint>(), later: [] }
  const held = [...pos.start.entries()].filter(([, m]) => m !== 0n).map(([id]) => id)
  const needsOpening = withBalances && (held.length > 0 || pos.later.length > 0)
  const sections = [
    ...(r.format === 'datev' && !file.datev ? ['datev: {adviser, client} (the Beraternummer and Mandantennummer)'] : []),
    ...(r.format === 'saft-no' && !file.saft
      ? ['saft: {registration_number, contact: {first_name, last_name, telephone}} (the company)']
      : []),
  ]
  chart.requireMapped(groups.groups, [...held, ...pos.later.map((l) => l.bankId)], needsOpening, sections)

  let warnings = 0
  const warn = (m: string) => {
    warnings++
    r.onWarning?.(m)
  }
  const result: ChartResult = { zeroLeftOut: 0, warnings: 0, ...(stored?.sha256 ? { storedMapSha256: stored.sha256 } : {}) }
  if (r.format === 'datev') {
    const w = new DatevWriter(chart, base, warn)
    // The lock date closes every day up to it: Festschreibung only when the whole period is closed.
    const locked = company.lock_date !== null && r.to <= company.lock_date
    const header = datevHeaderLine({
      adviser: file.datev!.adviser,
      client: file.datev!.client,
      fiscalYearStart: fy.start,
      accountLength: file.datev!.account_length ?? 4,
      from: r.from,
      to: r.to,
      locked,
      currency: base,
      chart: file.chart,
      now: r.writtenAt,
    })
    await write(encode(header, 'windows-1252'))
    await each(async (page) => {
      let chunk = ''
      for (const t of page) chunk += w.transaction(t)
      await write(encode(chunk, 'windows-1252'))
    })
    result.zeroLeftOut = w.zeroLeftOut
  } else {
    const balances = chartBalances(chart, groups.groups, pos, base)
    // SAF-T 1.30 makes an account's grouping category and code mandatory: none is made up.
    const ungrouped = r.format === 'saft-no' ? balances.accounts.filter((a) => !a.account.grouping) : []
    if (ungrouped.length)
      throw new AppError(
        'validation_error',
        `SAF-T needs a grouping category and code for each account (grouping_category, grouping_code in the accounts map, or chart: no-standard): ${ungrouped.map((a) => `${a.account.number} "${a.account.name}"`).join('; ')}`,
      )
    const later = [...pos.later]
    if (r.format === 'sie4') {
      const w = new SieWriter(chart, base, r.checksum === true, warn)
      const header = w.header(
        {
          company: company.name,
          organizationNumber: file.sie?.organization_number,
          version: VERSION,
          fiscalYear: fy,
          from: r.from,
          to: r.to,
          currency: base,
          now: r.writtenAt,
          checksum: r.checksum === true,
        },
        balances,
      )
      await write(encode(header, 'cp437'))
      await each(async (page) => {
        let chunk = ''
        for (const t of page) {
          while (later.length && later[0].date <= t.transaction_date) {
            const l = later.shift()!
            chunk += w.opened(l.date, l.bankId, l.base)
          }
          chunk += w.transaction(t)
        }
        await write(encode(chunk, 'cp437'))
      })
      let tail = ''
      for (const l of later) tail += w.opened(l.date, l.bankId, l.base)
      await write(encode(tail + w.end(), 'cp437'))
    } else {
      const w = new SaftWriter(chart, base, file.fiscal_year_start ?? '01-01', warn)
      const header = w.header(
        { company: company.name, saft: file.saft!, version: VERSION, from: r.from, to: r.to, currency: base, now: r.writtenAt },
        balances,
      )
      await write(header)
      await each(async (page) => {
        let chunk = ''
        for (const t of page) {
          while (later.length && later[0].date <= t.transaction_date) {
            const l = later.shift()!
            chunk += w.opened(l.date, l.bankId, l.base)
          }
          chunk += w.transaction(t)
        }
        await write(chunk)
      })
      let tail = ''
      for (const l of later) tail += w.opened(l.date, l.bankId, l.base)
      await write(tail + w.end())
    }
  }
  result.warnings = warnings
  return result
}
