/**
 * Signing a pack's manifest (docs/closing.md, "The key"): the service signs only what it holds. It
 * builds the pack of the month again from its store (pack-files.ts, the code `close pack` built it
 * with), with the formats and the time the manifest names, and signs the manifest only when it is
 * that one byte for byte; any other is refused (409) naming each file that differs. A forged
 * journal, a receipt swapped, audit entries replaced, a close record edited: none is signed.
 */
import { AppError } from '../../kernel/errors.js'
import type { Store } from '../../store/store.js'
import type { Actor } from '../actor.js'
import { getCompany } from '../accounts/companies.js'
import { documentContent } from '../documents/documents.js'
import { storedAccountsMap } from '../exports/accounts-map.js'
import { exportAsOf, exportGroups, exportTransactions, openingBalances } from '../exports/exports.js'
import { EXPORT_FORMATS, type ExportFormat } from '../exports/formats/format.js'
import type { ExportSource } from '../exports/write.js'
import { cashFlowReport, summaryReport } from '../reports/reports.js'
import { CashFlowQuery, SummaryQuery } from '../reports/schemas.js'
import { statementOriginal } from '../statements/original.js'
import { requireCloser } from './close.js'
import { heldClose, packContents } from './pack.js'
import { packFiles, packJson, packManifest } from './pack-files.js'
import type { Manifest } from './pack-layout.js'
import type { PackSignature } from './pack-schemas.js'
import { signWithCompanyKey } from './signing-key.js'

/** An export's reads straight from the store: what the service's routes answer, without the round trip. */
export function storeSource(store: Store, companyId: string, now: Date): ExportSource {
  return {
    company: () => getCompany(store, companyId),
    accounts: () =>
      store.db
        .selectFrom('bank_accounts')
        .select(['id', 'name', 'account_type'])
        .where('company_id', '=', companyId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute(),
    pages: (q) =>
      (async function* () {
        let cursor: string | undefined
        for (;;) {
          const page = await exportTransactions(store, companyId, { ...q, cursor }, now)
          yield { data: page.data, total: page.pagination.total }
          cursor = page.pagination.next_cursor ?? undefined
          if (!page.pagination.has_more || !cursor) return
        }
      })(),
    openingBalances: (q) => openingBalances(store, companyId, q),
    summary: (q) => summaryReport(store, companyId, SummaryQuery.parse(q), now),
    cashFlow: (q) => cashFlowReport(store, companyId, CashFlowQuery.parse(q), now),
    asOf: (q) => exportAsOf(store, companyId, q),
    groups: (q) => exportGroups(store, companyId, q),
    accountsMap: () => storedAccountsMap(store, companyId),
  }
}

function invalid(why: string): AppError {
  return new AppError('validation_error', `manifest_base64: the manifest ${why}`, {
    details: [{ path: 'manifest_base64', message: why }],
  })
}

/** What in `given` is not as the service built it: each file named, then the fields. */
function differences(given: Partial<Manifest>, built: Manifest): string[] {
  const out: string[] = []
  const listed = new Map((Array.isArray(given.files) ? given.files : []).map((f) => [String(f?.path), f]))
  for (const f of built.files) {
    const g = listed.get(f.path)
    listed.delete(f.path)
    if (!g) out.push(`${f.path} is missing from it`)
    else if (g.sha256 !== f.sha256 || g.bytes !== f.bytes) out.push(`${f.path} is not the file the service holds (its SHA-256 differs)`)
    else if (g.exact_copy !== f.exact_copy) out.push(`${f.path} is marked exact_copy ${String(g.exact_copy)}, it is ${f.exact_copy}`)
  }
  for (const path of listed.keys()) out.push(`${path} is not a file of the month's pack`)
  for (const key of Object.keys({ ...built, ...given }) as Array<keyof Manifest>)
    if (key !== 'files' && JSON.stringify(given[key]) !== JSON.stringify(built[key]))
      out.push(`its ${key} is not what the service holds${key === 'close' ? ' (the close record)' : ''}`)
  return out
}

/**
 * Sign a pack's manifest with the company's key (a closer: owner, accountant, a key with `close`):
 * only the manifest of the month's latest close, still closed, that the service builds again.
 */
export async function signPackManifest(store: Store, actor: Actor, month: string, bytes: Uint8Array, now: Date): Promise<PackSignature> {
  await requireCloser(store, actor, false)
  await heldClose(store.db, actor.companyId, month)
  let m: Partial<Manifest>
  try {
    m = JSON.parse(Buffer.from(bytes).toString('utf8'))
  } catch {
    throw invalid('is not JSON')
  }
  if (typeof m !== 'object' || m === null) throw invalid('is not a JSON object')
  if (m.month !== month) throw invalid(`is of month ${String(m.month)}, not ${month}`)
  if (m.company_id !== actor.companyId) throw invalid('is of another company')
  const formats = m.formats
  if (!Array.isArray(formats) || formats.some((f) => !(EXPORT_FORMATS as readonly unknown[]).includes(f)))
    throw invalid(`names formats other than ${EXPORT_FORMATS.join(', ')}`)
  if (typeof m.created_at !== 'string' || Number.isNaN(Date.parse(m.created_at))) throw invalid('has no created_at time')

  const contents = await packContents(store, actor.companyId, month)
  if (contents.close.rows_sha256 !== null && contents.close.rows_sha256 !== contents.rows_sha256_now)
    throw new AppError(
      'conflict',
      `${month}'s rows differ from those its close recorded (finctl verify --close ${month}): its pack is not signed`,
    )
  const built = await packFiles(
    {
      contents,
      exports: storeSource(store, actor.companyId, now),
      statementFile: async (id) => (await statementOriginal(store, actor.companyId, id)).bytes,
      documentBytes: async (id) => (await documentContent(store, actor.companyId, id)).bytes,
    },
    formats as ExportFormat[],
  )
  const manifest = packManifest(contents, built, m.created_at)
  if (!packJson(manifest).equals(Buffer.from(bytes))) {
    const found = differences(m, manifest)
    const words = found.length ? found : ['it is not written as finctl writes a manifest']
    throw new AppError(
      'conflict',
      `the pack of ${month} is not what the service holds, so it is not signed: ${words.slice(0, 10).join('; ')}${words.length > 10 ? `; and ${words.length - 10} more` : ''}`,
      { details: words.slice(0, 100).map((message) => ({ path: 'manifest_base64', message })) },
    )
  }
  return signWithCompanyKey(store, actor.companyId, bytes, now) as Promise<PackSignature>
}
