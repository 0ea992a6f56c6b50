/**
 * The exports of a closed month (docs/closing.md): `close MONTH --export F,...` writes each into a
 * folder and records its SHA-256 on the close record; `verify --close MONTH` produces each again (or
 * reads its file) and compares. One period: the month's first to last day, the whole company.
 */
import { mkdir, readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Client } from '../../client/client.js'
import { monthEnd } from '../../domain/accounts/period-lock.js'
import type { CloseExport, CloseVerification } from '../../domain/closing/schemas.js'
import { AppError } from '../../kernel/errors.js'
import { checkOutputFile, type OutputOptions, openOutputStream } from '../output-file.js'
import type { AccountsMapFile } from '../../domain/exports/formats/accounts-map.js'
import { exportDigest, fileDigest, reproducible, textDigest } from './digest.js'
import { type ExportFormat, exportFileName, isChart, isJournal } from '../../domain/exports/formats/format.js'
import { runExport } from './run.js'

export const closeExportName = exportFileName

export const monthPeriod = (month: string) => ({ from: `${month}-01`, to: monthEnd(month) })

/** An accounts map file, parsed, with the SHA-256 of its text (what the close record keeps). */
export interface AccountsMapInput {
  map: AccountsMapFile
  sha256: string
  path: string
}

export async function readAccountsMap(path: string): Promise<AccountsMapInput> {
  const { parseAccountsMap } = await import('../../domain/exports/formats/accounts-map.js')
  const text = await readFile(path, 'utf8')
  return { map: await parseAccountsMap(text, path), sha256: textDigest(text), path }
}

export interface CloseExportPlan {
  month: string
  formats: ExportFormat[]
  dir: string
  accountsMap?: AccountsMapInput
  overwrite?: boolean
  /** DATEV, SIE, SAF-T: each text the format cannot hold as it is, named with its file and line. */
  onWarning?: (message: string) => void
}

/** Everything that can be refused before the month is closed: the folder, and files already there. */
export async function checkCloseExports(plan: CloseExportPlan): Promise<void> {
  if (plan.accountsMap && !plan.formats.some((f) => isJournal(f) || isChart(f)))
    throw new AppError('usage', '--accounts-map is for the journals (ledger, hledger, beancount) and datev, sie4, saft-no among --export')
  await mkdir(plan.dir, { recursive: true })
  for (const f of plan.formats) checkOutputFile(join(plan.dir, closeExportName(plan.month, f)), target(plan))
}

/** A close's export is kept and read back for its SHA-256: a file, never the map it was written with. */
function target(plan: CloseExportPlan): OutputOptions {
  const inputs = plan.accountsMap ? [{ path: plan.accountsMap.path, what: 'the --accounts-map file' }] : []
  const fileOnly = 'the exports of a close are files, their SHA-256 recorded: remove it or give another folder'
  return { flag: '--output-dir', overwrite: plan.overwrite, fileOnly, inputs }
}

/** Write each export into the folder, then record it on the month's close. */
export async function writeCloseExports(client: Client, plan: CloseExportPlan): Promise<CloseExport[]> {
  const period = monthPeriod(plan.month)
  const recorded: CloseExport[] = []
  for (const format of plan.formats) {
    const name = closeExportName(plan.month, format)
    const path = join(plan.dir, name)
    const map = isJournal(format) || isChart(format) ? plan.accountsMap : undefined
    const file = await openOutputStream(path, target(plan))
    let written: Awaited<ReturnType<typeof runExport>>
    try {
      const onWarning = (m: string) => plan.onWarning?.(`${name}: ${m}`)
      written = await runExport(client, { format, ...period, accountsMap: map?.map, onWarning }, file.stream)
      await file.commit()
    } catch (e) {
      await file.abandon()
      throw e
    }
    const digest = await fileDigest(path)
    recorded.push(
      await client.close.attachExport(plan.month, {
        format,
        file_name: name,
        ...digest,
        rows: written.rows,
        ...period,
        // A filing format without a map file took the company's: the SHA-256 of the map it read is what the close records.
        ...(map ? { accounts_map_sha256: map.sha256 } : written.storedMapSha256 ? { accounts_map_sha256: written.storedMapSha256 } : {}),
      }),
    )
  }
  return recorded
}

export type ExportCheck = CloseExport & {
  /** Produced again now: its SHA-256 and whether it equals the recorded one (null: not produced again). */
  produced: { sha256: string; same: boolean } | null
  /** The file in --dir (null: no --dir given); missing: not there. */
  file: { path: string; sha256: string | null; same: boolean } | null
  /** same | differs | not checked */
  result: 'same' | 'differs' | 'not checked'
  why: string
  /** The file in --dir is this export as an earlier close of the month recorded it (reopened since). */
  earlier: { closed_at: string } | null
}

/** A file in --dir that is the export of an earlier close of the month: out of date since the month was closed again. */
export interface StaleFile {
  path: string
  format: string
  /** When the close it was recorded on was made. */
  closed_at: string
  accounts_map: boolean
}

/** The earlier close's export of that name whose bytes the file has, if any. */
function earlierExport(v: CloseVerification, fileName: string, sha256: string | null) {
  return sha256 === null ? undefined : v.earlier_exports?.find((e) => e.file_name === fileName && e.sha256 === sha256)
}

/**
 * The files of --dir beyond the latest close's exports: each named as an earlier close of the month
 * wrote it (stale), or as not checked (no close recorded its bytes). Files of another name are not the month's exports.
 */
export async function checkFolder(
  v: CloseVerification,
  dir: string,
  checks: ExportCheck[],
): Promise<{ stale: StaleFile[]; unchecked: string[] }> {
  const stale: StaleFile[] = checks
    .filter((c) => c.earlier && c.file)
    .map((c) => ({
      path: c.file?.path ?? '',
      format: c.format,
      closed_at: c.earlier?.closed_at ?? '',
      accounts_map: !!c.accounts_map_sha256,
    }))
  const latest = new Set(v.exports.map((e) => e.file_name))
  const names = new Set((v.earlier_exports ?? []).map((e) => e.file_name))
  const prefixes = [`books-${v.month}.`, `EXTF_books-${v.month}.`]
  const listed = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return [] as string[]
    throw err
  })
  for (const name of listed) if (prefixes.some((p) => name.startsWith(p))) names.add(name)
  const unchecked: string[] = []
  for (const name of [...names].sort()) {
    if (latest.has(name)) continue
    const path = join(dir, name)
    const d = await fileDigest(path).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null
      throw err
    })
    if (!d) continue
    const old = earlierExport(v, name, d.sha256)
    if (old) stale.push({ path, format: old.format, closed_at: old.closed_at, accounts_map: !!old.accounts_map_sha256 })
    else unchecked.push(path)
  }
  return { stale, unchecked }
}

/** Refused before any work: a journal written with an accounts map needs that map again. */
export function checkAccountsMapGiven(v: CloseVerification, given: AccountsMapInput | undefined): void {
  for (const e of v.exports) {
    if (!e.accounts_map_sha256 || !reproducible(e.format as ExportFormat)) continue
    if (!given)
      throw new AppError(
        'usage',
        `the ${e.format} export of ${v.month} was written with an accounts map: give it again with --accounts-map FILE`,
      )
    if (given.sha256 !== e.accounts_map_sha256)
      throw new AppError(
        'usage',
        `--accounts-map: ${given.path} is not the map the ${e.format} export of ${v.month} was written with (its SHA-256 differs)`,
      )
  }
}

/** The names the close kept where they changed since, for producing its exports again; undefined when none changed. */
function namesThen(v: CloseVerification): { company?: string; accounts: Record<string, string> } | undefined {
  const r = v.renamed
  if (!r || (!r.company && !r.accounts.length)) return undefined
  return { company: r.company?.at_close, accounts: Object.fromEntries(r.accounts.map((a) => [a.bank_account_id, a.at_close])) }
}

export async function checkExports(
  client: Client,
  v: CloseVerification,
  o: { dir?: string; accountsMap?: AccountsMapInput },
): Promise<ExportCheck[]> {
  const out: ExportCheck[] = []
  for (const e of v.exports) {
    const format = e.format as ExportFormat
    let produced: ExportCheck['produced'] = null
    let renamed = false
    if (reproducible(format)) {
      const request = { format, from: e.from, to: e.to, accountsMap: e.accounts_map_sha256 ? o.accountsMap?.map : undefined }
      let d = await exportDigest(client, request)
      // Renamed since the close: produced again with the names it had then; the same bytes then is a rename, not a change of the period.
      const names = namesThen(v)
      if (d.sha256 !== e.sha256 && names) {
        const again = await exportDigest(client, { ...request, names })
        if (again.sha256 === e.sha256) [d, renamed] = [again, true]
      }
      produced = { sha256: d.sha256, same: d.sha256 === e.sha256 }
    }
    let file: ExportCheck['file'] = null
    if (o.dir !== undefined) {
      const path = join(o.dir, e.file_name)
      const d = await fileDigest(path).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return null
        throw err
      })
      file = { path, sha256: d?.sha256 ?? null, same: d?.sha256 === e.sha256 }
    }
    const differs = (produced && !produced.same) || (file && !file.same)
    const checked = produced || file
    // A file that differs from this close's export may be an earlier close's, written before a reopen.
    const old = file && !file.same ? earlierExport(v, e.file_name, file.sha256) : undefined
    const why = differs
      ? [
          produced && !produced.same ? 'produced again today it gives other bytes: the data of the period changed' : '',
          file && !file.same
            ? old
              ? `${file.path} is the export of the close of ${old.closed_at}, reopened since`
              : file.sha256
                ? `${file.path} was changed`
                : `${file.path} is missing`
            : '',
        ]
          .filter(Boolean)
          .join('; ')
      : checked
        ? [
            produced ? `produced again${renamed ? ' with the names of the close (renamed since)' : ''}: same bytes` : '',
            file ? 'file: same bytes' : '',
          ]
            .filter(Boolean)
            .join('; ')
        : `not checked: ${format === 'xlsx' ? 'a workbook' : 'a DATEV, SIE or SAF-T file'} holds its time of writing, so only its file can be checked (give --dir)`
    out.push({
      ...e,
      produced,
      file,
      result: differs ? 'differs' : checked ? 'same' : 'not checked',
      why,
      earlier: old ? { closed_at: old.closed_at } : null,
    })
  }
  return out
}
