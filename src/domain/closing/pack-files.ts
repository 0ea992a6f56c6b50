/**
 * The files of an auditor's pack and its manifest (docs/closing.md, "The auditor's pack"), from what
 * a source reads: `close pack` reads through the service (src/jobs/pack/build.ts), the service its
 * store when it is asked to sign (pack-check.ts). The same data gives the same bytes, so the
 * service signs a manifest only when it builds the same one again.
 *
 * Text finctl writes (the journals, the CSVs, SAF-T, the JSON files) holds no control character: a
 * CSV's, a journal's or SAF-T's are visible escapes (`\x1b`, as on a terminal), JSON's `\u` escapes;
 * DATEV's and SIE's writers let none into their code pages. The files uploaded (a bank's
 * statements, the documents) are kept byte for byte under `as-uploaded/` folders, and the manifest
 * marks them `exact_copy`.
 */
import { createHash } from 'node:crypto'
import { Writable } from 'node:stream'
import { finished } from 'node:stream/promises'
import { csvLine } from '../../kernel/csv-write.js'
import { AppError } from '../../kernel/errors.js'
import { jsonText, printableText } from '../../kernel/terminal-text.js'
import { monthEnd } from '../accounts/period-lock.js'
import { type ExportFormat, exportFileName, isCodePage } from '../exports/formats/format.js'
import { type ExportSource, writeExport } from '../exports/write.js'
import {
  AUDIT_FILE,
  CLOSE_FILE,
  DOCUMENTS_INDEX,
  documentPath,
  EXACT_COPIES_NOTE,
  journalFile,
  type Manifest,
  type ManifestFile,
  PACK_FORMAT,
  PACK_VERSION,
  RECONCILIATION_FILE,
  STATEMENT_FILES_NOTE,
  type StatementOriginal,
  statementOriginalPath,
  STATEMENTS_FILE,
} from './pack-layout.js'
import type { PackContents } from './pack-schemas.js'

/** What a pack is built from. */
export interface PackSource {
  contents: PackContents
  exports: ExportSource
  /** A kept statement's original bytes. */
  statementFile(statementId: string): Promise<Uint8Array>
  documentBytes(documentId: string): Promise<Uint8Array>
  /** DATEV, SIE, SAF-T: each text the format cannot hold as it is, named with its file and line. */
  onWarning?: (message: string) => void
}

export interface PackFiles {
  /** Path -> bytes, in the order they are written. */
  files: Map<string, Buffer>
  /** The files kept as uploaded. */
  exact: Set<string>
  originals: StatementOriginal[]
  /** The export formats, csv first. */
  formats: ExportFormat[]
}

export const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

/** JSON as the pack writes it: two-space indent, a final line end, no raw control character. */
export const packJson = (v: unknown) => Buffer.from(`${jsonText(JSON.stringify(v, null, 2))}\n`, 'utf8')
const packText = (text: string) => Buffer.from(printableText(text), 'utf8')

/** The pack's journal formats for those asked: csv first and always (verify --pack adds up its amounts), each once. */
export function packFormats(asked: readonly ExportFormat[]): ExportFormat[] {
  return ['csv', ...new Set(asked.filter((f) => f !== 'csv'))]
}

async function exportBytes(
  source: ExportSource,
  month: string,
  format: ExportFormat,
  writtenAt: Date,
  onWarning?: (message: string) => void,
): Promise<Buffer> {
  const chunks: Buffer[] = []
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(Buffer.from(chunk))
      done()
    },
  })
  const write = async (chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk))
  }
  await writeExport(source, { format, from: `${month}-01`, to: monthEnd(month), writtenAt, onWarning }, write, () => sink)
  if (format === 'xlsx') {
    // The workbook ends its sink itself.
    if (!sink.writableEnded) sink.end()
    await finished(sink)
    const { zipTimes } = await import('../exports/formats/xlsx.js')
    return zipTimes(Buffer.concat(chunks), writtenAt)
  }
  // DATEV's and SIE's bytes are in their code page, which their writers fill with no control character.
  if (isCodePage(format)) return Buffer.concat(chunks)
  return packText(Buffer.concat(chunks).toString('utf8'))
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
    'bank_account',
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
      r.bank_account,
      r.description,
      r.status,
      r.created_via ?? '',
    ])
  return packText(text)
}

/** Every file of the pack of `source`'s month with the journal in `formats` (csv is always in). */
export async function packFiles(source: PackSource, asked: readonly ExportFormat[]): Promise<PackFiles> {
  const c = source.contents
  const formats = packFormats(asked)
  const files = new Map<string, Buffer>()
  const exact = new Set<string>()
  files.set(CLOSE_FILE, packJson({ month: c.month, company: c.company, close: c.close }))
  // A workbook, DATEV, SIE and SAF-T hold their time of writing: the close's, so that the same data gives the same bytes.
  const writtenAt = new Date(c.close.created_at)
  for (const format of formats) {
    const path = journalFile(exportFileName(c.month, format))
    const warn = source.onWarning && ((m: string) => source.onWarning?.(`${path}: ${m}`))
    files.set(path, await exportBytes(source.exports, c.month, format, writtenAt, warn))
  }
  const originals: StatementOriginal[] = []
  for (const s of c.statements) {
    const entry = { statement_id: s.id, file_name: s.file_name, sha256: s.file_sha256 }
    if (!s.file_kept) {
      originals.push({ ...entry, path: null, note: s.file_note ?? 'original not kept' })
      continue
    }
    const bytes = Buffer.from(await source.statementFile(s.id))
    if (sha256(bytes) !== s.file_sha256)
      throw new AppError('internal_error', `statement ${s.id}: its file does not hash to its file_sha256`)
    const path = statementOriginalPath(s.id, s.file_name)
    files.set(path, bytes)
    exact.add(path)
    originals.push({ ...entry, path, note: null })
  }
  const byStatement = new Map(originals.map((o) => [o.statement_id, o.path]))
  files.set(STATEMENTS_FILE, packJson(c.statements.map((st) => ({ ...st, original_file: byStatement.get(st.id) ?? null }))))
  files.set(RECONCILIATION_FILE, reconciliationCsv(c))
  let index = csvLine(['document_id', 'path', 'file_name', 'kind', 'media_type', 'sha256', 'bytes', 'transaction_ids'])
  for (const d of c.documents) {
    const path = documentPath(d.id, d.file_name)
    const bytes = Buffer.from(await source.documentBytes(d.id))
    if (sha256(bytes) !== d.sha256) throw new AppError('internal_error', `document ${d.id}: its bytes do not hash to its SHA-256`)
    files.set(path, bytes)
    exact.add(path)
    index += csvLine([d.id, path, d.file_name, d.kind, d.media_type, d.sha256, String(d.size), d.transaction_ids.join(' ')])
  }
  files.set(DOCUMENTS_INDEX, packText(index))
  files.set(AUDIT_FILE, packJson(c.audit_entries))
  return { files, exact, originals, formats }
}

/** The manifest of the pack: what it is of, and every file's path, SHA-256, size and whether it is an exact copy. */
export function packManifest(c: PackContents, built: PackFiles, createdAt: string): Manifest {
  const files: ManifestFile[] = [...built.files].map(([path, b]) => ({
    path,
    sha256: sha256(b),
    bytes: b.length,
    exact_copy: built.exact.has(path),
  }))
  return {
    format: PACK_FORMAT,
    version: PACK_VERSION,
    month: c.month,
    company_id: c.company.id,
    company: c.company,
    close: c.close,
    created_at: createdAt,
    formats: built.formats,
    statement_files: { included: built.originals.every((o) => o.path !== null), note: STATEMENT_FILES_NOTE, originals: built.originals },
    exact_copies: EXACT_COPIES_NOTE,
    files,
  }
}
