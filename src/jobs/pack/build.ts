/**
 * `finctl close pack MONTH -o FILE` (docs/closing.md, "The auditor's pack"): the month's journal in
 * the formats asked (always csv: `verify --pack` adds its totals up), its statements and their
 * original files, each statement line with its transaction, the linked documents, the audit entries
 * and the close record, with a manifest of every file's SHA-256, signed by the service with the
 * company's key. Held in memory (a month's files), then written as one zip that takes its name only
 * when whole.
 */
import { createHash } from 'node:crypto'
import { lstatSync } from 'node:fs'
import { Writable } from 'node:stream'
import { finished } from 'node:stream/promises'
import { ZipFile } from 'yazl'
import type { Client } from '../../client/client.js'
import type { PackContents } from '../../domain/closing/pack-schemas.js'
import { AppError } from '../../kernel/errors.js'
import { csvLine } from '../../kernel/csv-write.js'
import { closeExportName, monthPeriod } from '../export/close-exports.js'
import type { ExportFormat } from '../export/format.js'
import { openOutputFile } from '../export/output-file.js'
import { runExport } from '../export/run.js'
import {
  AUDIT_FILE,
  CLOSE_FILE,
  DOCUMENTS_INDEX,
  documentPath,
  journalFile,
  MANIFEST,
  type Manifest,
  type ManifestFile,
  PACK_FORMAT,
  PACK_VERSION,
  RECONCILIATION_FILE,
  SIGNATURE,
  type SignatureFile,
  STATEMENT_FILES_NOTE,
  type StatementOriginal,
  statementOriginalPath,
  STATEMENTS_FILE,
} from './layout.js'

export interface PackPlan {
  month: string
  formats: ExportFormat[]
  output: string
  force?: boolean
  now?: () => Date
}

export interface PackResult {
  path: string
  manifest: Manifest
  signature: SignatureFile
  bytes: number
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')
const json = (v: unknown) => Buffer.from(`${JSON.stringify(v, null, 2)}\n`, 'utf8')

/** Refused before any work: an existing file without --force, a folder, a link. */
export function checkPackOutput(plan: PackPlan): void {
  const here = lstatSync(plan.output, { throwIfNoEntry: false })
  if (here?.isFile() && !plan.force)
    throw new AppError('usage', `-o: ${plan.output} already exists: give a new path, or --force to replace it`)
}

async function exportBytes(client: Client, month: string, format: ExportFormat): Promise<{ bytes: Buffer; rows: number }> {
  const chunks: Buffer[] = []
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(Buffer.from(chunk))
      done()
    },
  })
  const r = await runExport(client, { format, ...monthPeriod(month) }, sink)
  // The workbook ends its sink itself; the text formats leave it open.
  if (!sink.writableEnded) sink.end()
  await finished(sink)
  return { bytes: Buffer.concat(chunks), rows: r.rows }
}

function reconciliationCsv(c: PackContents): Buffer {
  const files = new Map(c.statements.map((s) => [s.id, s.file_name]))
  let text = csvLine([
    'statement_id',
    'statement_file',
    'line_ref',
    'transaction_id',
    'date',
    'amount',
    'currency',
    'bank_account_id',
    'description',
    'status',
    'created_via',
  ])
  for (const r of c.reconciliation)
    text += csvLine([
      r.statement_id,
      files.get(r.statement_id) ?? '',
      r.line_ref ?? '',
      r.transaction_id,
      r.transaction_date,
      r.amount,
      r.currency_code,
      r.bank_account_id,
      r.description,
      r.status,
      r.created_via ?? '',
    ])
  return Buffer.from(text, 'utf8')
}

/** Each statement's original file, as the service keeps it, checked against the SHA-256 its statement recorded. */
async function statementOriginals(client: Client, c: PackContents, files: Map<string, Buffer>): Promise<StatementOriginal[]> {
  const originals: StatementOriginal[] = []
  for (const s of c.statements) {
    const entry = { statement_id: s.id, file_name: s.file_name, sha256: s.file_sha256 }
    if (!s.file_kept) {
      originals.push({ ...entry, path: null, note: s.file_note ?? 'original not kept' })
      continue
    }
    const bytes = Buffer.from((await client.statements.file(s.id)).bytes)
    if (sha256(bytes) !== s.file_sha256)
      throw new AppError('internal_error', `statement ${s.id}: its file does not hash to its file_sha256`)
    const path = statementOriginalPath(s.id, s.file_name)
    files.set(path, bytes)
    originals.push({ ...entry, path, note: null })
  }
  return originals
}

/** Gather the pack's files (path -> bytes), in the order they are written, and the statements' originals among them. */
async function packFiles(
  client: Client,
  plan: PackPlan,
  c: PackContents,
): Promise<{ files: Map<string, Buffer>; originals: StatementOriginal[] }> {
  const files = new Map<string, Buffer>()
  files.set(CLOSE_FILE, json({ month: c.month, company: c.company, close: c.close }))
  // csv first and always: verify --pack adds up its amounts.
  const formats: ExportFormat[] = ['csv', ...plan.formats.filter((f) => f !== 'csv')]
  for (const format of formats) files.set(journalFile(closeExportName(c.month, format)), (await exportBytes(client, c.month, format)).bytes)
  const originals = await statementOriginals(client, c, files)
  const byStatement = new Map(originals.map((o) => [o.statement_id, o.path]))
  files.set(STATEMENTS_FILE, json(c.statements.map((st) => ({ ...st, original_file: byStatement.get(st.id) ?? null }))))
  files.set(RECONCILIATION_FILE, reconciliationCsv(c))
  let index = csvLine(['document_id', 'path', 'file_name', 'kind', 'media_type', 'sha256', 'bytes', 'transaction_ids'])
  for (const d of c.documents) {
    const path = documentPath(d.id, d.file_name)
    const content = await client.documents.content(d.id)
    const bytes = Buffer.from(content.bytes)
    if (sha256(bytes) !== d.sha256) throw new AppError('internal_error', `document ${d.id}: its bytes do not hash to its SHA-256`)
    files.set(path, bytes)
    index += csvLine([d.id, path, d.file_name, d.kind, d.media_type, d.sha256, String(d.size), d.transaction_ids.join(' ')])
  }
  files.set(DOCUMENTS_INDEX, Buffer.from(index, 'utf8'))
  files.set(AUDIT_FILE, json(c.audit_entries))
  return { files, originals }
}

export async function buildPack(client: Client, plan: PackPlan): Promise<PackResult> {
  checkPackOutput(plan)
  const c = await client.closePack.contents(plan.month)
  if (c.close.rows_sha256 !== null && c.close.rows_sha256 !== c.rows_sha256_now)
    throw new AppError(
      'conflict',
      `${plan.month}'s rows differ from those its close recorded: see finctl verify --close ${plan.month}; the pack would not match its close`,
    )
  const { files, originals } = await packFiles(client, plan, c)
  const listed: ManifestFile[] = [...files].map(([path, b]) => ({ path, sha256: sha256(b), bytes: b.length }))
  const { id, sequence, created_at, actor, forced, reason, lock_date, chain_head, rows_count, rows_sha256, figures } = c.close
  const manifest: Manifest = {
    format: PACK_FORMAT,
    version: PACK_VERSION,
    month: c.month,
    company_id: c.company.id,
    company: c.company,
    close: { id, sequence, created_at, actor, forced, reason, lock_date, chain_head, rows_count, rows_sha256, figures },
    created_at: (plan.now?.() ?? new Date()).toISOString(),
    formats: ['csv', ...plan.formats.filter((f) => f !== 'csv')],
    statement_files: { included: originals.every((o) => o.path !== null), note: STATEMENT_FILES_NOTE, originals },
    files: listed,
  }
  const manifestBytes = json(manifest)
  const signed = await client.closePack.sign(plan.month, manifestBytes)
  const signature: SignatureFile = { algorithm: 'ed25519', public_key: signed.public_key, signature: signed.signature }

  const zip = new ZipFile()
  const mtime = new Date(c.close.created_at)
  zip.addBuffer(manifestBytes, MANIFEST, { mtime })
  zip.addBuffer(json(signature), SIGNATURE, { mtime })
  for (const [path, b] of files) zip.addBuffer(b, path, { mtime })
  zip.end()
  const out = await openOutputFile(plan.output, { flag: '-o', overwrite: plan.force })
  let bytes = 0
  try {
    await new Promise<void>((resolve, reject) => {
      zip.outputStream.on('data', (d: Buffer) => {
        bytes += d.length
      })
      zip.outputStream.on('error', reject)
      out.stream.on('error', reject)
      zip.outputStream.on('end', resolve)
      zip.outputStream.pipe(out.stream, { end: false })
    })
    await out.commit()
  } catch (e) {
    await out.abandon()
    throw e
  }
  return { path: plan.output, manifest, signature, bytes }
}
