/**
 * Documents (docs/documents.md): each file kept once per company, found by the SHA-256 of its
 * bytes, and linked to any number of transactions. A link or an unlink is written in the
 * transaction's audit trail (who, when) and as an event, in the same database transaction.
 */
import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import { uuidv7 } from '../../kernel/ids.js'
import { AppError, notFound } from '../../kernel/errors.js'
import type { Db, NewEventRow } from '../../store/schema.js'
import { isUniqueViolation } from '../../store/store-errors.js'
import type { Store } from '../../store/store.js'
import { actorId, type Actor } from '../actor.js'
import { eventRow, recordEvents } from '../events.js'
import { findTransaction } from '../transaction-rows.js'
import { auditRow } from '../transactions/audit.js'
import { baseCurrency } from '../accounts/companies.js'
import { apiFields, FIELD_COLUMNS, type FieldColumns, fromColumns, readDocumentFields, toColumns } from './fields.js'
import { type AddedDocument, type Document, type DocumentListQuery, MAX_DOCUMENT_FILE } from './schemas.js'
import { type DocumentKind, MEDIA_TYPES, sniff } from './sniff.js'

export interface DocumentUpload {
  fileName: string
  bytes: Uint8Array
  transactionId?: string
  /** false: never linked by itself (docs/documents.md, "Matching"). */
  autoLink?: boolean
}

const COLUMNS = ['id', 'sha256', 'size', 'media_type', 'kind', 'file_name', 'created_by', 'created_at', ...FIELD_COLUMNS] as const
type DocumentRow = Omit<Document, 'transaction_ids' | 'kind' | 'fields'> & { kind: string } & FieldColumns

export function tooLarge(size: number): AppError {
  return new AppError('payload_too_large', `the document is ${size} bytes: at most 20 MiB (${MAX_DOCUMENT_FILE} bytes) are accepted`)
}

/** Store a file (or find it, by content) and link it to a transaction when asked. */
export async function addDocument(store: Store, actor: Actor, up: DocumentUpload, now: Date): Promise<AddedDocument> {
  if (up.bytes.length > MAX_DOCUMENT_FILE) throw tooLarge(up.bytes.length)
  const found = sniff(up.bytes)
  if (found.kind === null) {
    const message = `${JSON.stringify(up.fileName)} looks like ${found.looksLike}: a document must be a PDF, PNG, JPEG or HEIC file, or an XML e-invoice (UBL Invoice or CreditNote, CII CrossIndustryInvoice)`
    throw new AppError('validation_error', `file: ${message}`, { details: [{ path: 'file', message }] })
  }
  const kind: DocumentKind = found.kind
  const txId = up.transactionId ? (await findTransaction(store, actor.companyId, up.transactionId)).id : undefined
  const sha256 = createHash('sha256').update(up.bytes).digest('hex')
  // Read before the write transaction: a PDF's text takes a while, and no lock is held meanwhile.
  const currency = await baseCurrency(store, actor.companyId)
  const fields = toColumns(await readDocumentFields(up.bytes, kind, up.fileName, currency, actor.companyId), now)
  const write = () =>
    store.writeTransaction(async (trx) => {
      const had = await trx
        .selectFrom('documents')
        .select('id')
        .where('company_id', '=', actor.companyId)
        .where('sha256', '=', sha256)
        .executeTakeFirst()
      if (had) {
        if (txId) await link(store, trx, actor, had.id, txId, now, [])
        return { id: had.id, created: false }
      }
      const row = {
        id: uuidv7(now.getTime()),
        company_id: actor.companyId,
        sha256,
        size: up.bytes.length,
        media_type: MEDIA_TYPES[kind],
        kind,
        file_name: up.fileName,
        content: Buffer.from(up.bytes),
        created_by: actorId(actor),
        created_at: now.toISOString(),
      }
      await trx
        .insertInto('documents')
        .values({ ...row, ...fields })
        .execute()
      const { content: _content, company_id: _company, ...data } = row
      // The link's audit entry before any event: events come last in a transaction, as every writer
      // orders its locks (the audit chain's head, then the outbox), or two writers deadlock on PostgreSQL.
      const events = [eventRow(actor, 'document.added', row.id, data, now)]
      if (txId) await link(store, trx, actor, row.id, txId, now, events)
      else await recordEvents(store, trx, events)
      return { id: row.id, created: true }
    })
  // Two processes adding the same bytes at once: the unique index keeps one, the other finds it on a second try.
  const { id, created } = await write().catch((err: unknown) => {
    if (isUniqueViolation(err)) return write()
    throw err
  })
  return { ...(await getDocument(store, actor.companyId, id)), created, auto_linked: null }
}

/** Link, in `trx`, then record `before` and the link's event (last); nothing when the link is there already. */
async function link(
  store: Store,
  trx: Kysely<Db>,
  actor: Actor,
  documentId: string,
  txId: string,
  now: Date,
  before: NewEventRow[],
): Promise<boolean> {
  const there = await trx
    .selectFrom('document_links')
    .select('document_id')
    .where('document_id', '=', documentId)
    .where('transaction_id', '=', txId)
    .executeTakeFirst()
  if (there) {
    if (before.length) await recordEvents(store, trx, before)
    return false
  }
  await trx
    .insertInto('document_links')
    .values({
      document_id: documentId,
      transaction_id: txId,
      company_id: actor.companyId,
      linked_by: actorId(actor),
      linked_at: now.toISOString(),
    })
    .execute()
  await store.writes.appendAudit(trx, [auditRow(actor, 'document_linked', txId, { document_id: { before: null, after: documentId } }, now)])
  const linked = eventRow(actor, 'document.linked', documentId, { document_id: documentId, transaction_id: txId }, now)
  await recordEvents(store, trx, [...before, linked])
  return true
}

async function documentRow(db: Kysely<Db>, companyId: string, id: string): Promise<DocumentRow> {
  const row = await db.selectFrom('documents').select(COLUMNS).where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst()
  if (!row) throw notFound('document')
  return row
}

async function linksOf(db: Kysely<Db>, ids: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(ids.map((id) => [id, []]))
  if (ids.length === 0) return out
  const rows = await db
    .selectFrom('document_links')
    .select(['document_id', 'transaction_id'])
    .where('document_id', 'in', [...ids])
    .orderBy('linked_at')
    .orderBy('transaction_id')
    .execute()
  for (const r of rows) out.get(r.document_id)?.push(r.transaction_id)
  return out
}

function toDocument(row: DocumentRow, txIds: string[]): Document {
  const { amount_minor, currency, document_date, merchant, fields_source, fields_read_at, ...rest } = row
  const fields = fromColumns({ amount_minor, currency, document_date, merchant, fields_source, fields_read_at })
  return { ...rest, size: Number(row.size), kind: row.kind as DocumentKind, transaction_ids: txIds, fields: fields && apiFields(fields) }
}

export async function getDocument(store: Store, companyId: string, id: string): Promise<Document> {
  const row = await documentRow(store.db, companyId, id)
  return toDocument(row, (await linksOf(store.db, [row.id])).get(row.id) ?? [])
}

/** The stored bytes, with what to answer them as. */
export async function documentContent(
  store: Store,
  companyId: string,
  id: string,
): Promise<{ bytes: Uint8Array; mediaType: string; fileName: string }> {
  const row = await store.db
    .selectFrom('documents')
    .select(['content', 'media_type', 'file_name'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) throw notFound('document')
  return { bytes: new Uint8Array(row.content), mediaType: row.media_type, fileName: row.file_name }
}

/** The company's documents, oldest first (ids are time-ordered), a page after `cursor` (the last id seen). */
export async function listDocuments(
  store: Store,
  companyId: string,
  q: DocumentListQuery,
): Promise<{ data: Document[]; pagination: { limit: number; next_cursor: string | null; has_more: boolean } }> {
  if (q.transaction_id && q.unlinked)
    throw new AppError('validation_error', 'transaction_id and unlinked=true exclude each other: give one', {
      details: [{ path: 'unlinked', message: 'cannot be given with transaction_id' }],
    })
  const limit = q.limit ?? 100
  let sel = store.db.selectFrom('documents').select(COLUMNS).where('company_id', '=', companyId)
  if (q.cursor) sel = sel.where('id', '>', q.cursor)
  const txId = q.transaction_id?.toLowerCase()
  if (txId)
    sel = sel.where('id', 'in', (s) =>
      s.selectFrom('document_links').select('document_id').where('company_id', '=', companyId).where('transaction_id', '=', txId),
    )
  if (q.unlinked)
    sel = sel.where('id', 'not in', (s) => s.selectFrom('document_links').select('document_id').where('company_id', '=', companyId))
  const rows = await sel
    .orderBy('id')
    .limit(limit + 1)
    .execute()
  const page = rows.slice(0, limit)
  const links = await linksOf(
    store.db,
    page.map((r) => r.id),
  )
  const hasMore = rows.length > limit
  return {
    data: page.map((r) => toDocument(r, links.get(r.id) ?? [])),
    pagination: { limit, next_cursor: hasMore ? page[page.length - 1].id : null, has_more: hasMore },
  }
}

export async function linkDocument(store: Store, actor: Actor, id: string, transactionId: string, now: Date): Promise<Document> {
  await documentRow(store.db, actor.companyId, id)
  const txId = (await findTransaction(store, actor.companyId, transactionId)).id
  const write = () => store.writeTransaction((trx) => link(store, trx, actor, id, txId, now, []))
  // The same link made at once by another process: the second try finds it there.
  await write().catch((err: unknown) => {
    if (isUniqueViolation(err)) return write()
    throw err
  })
  return getDocument(store, actor.companyId, id)
}

/** Remove a link; a link that is not there is a 404 (naming both), so a typo is not taken for done. */
export async function unlinkDocument(store: Store, actor: Actor, id: string, transactionId: string, now: Date): Promise<Document> {
  await documentRow(store.db, actor.companyId, id)
  const txId = transactionId.toLowerCase()
  await store.writeTransaction(async (trx) => {
    const gone = await trx
      .deleteFrom('document_links')
      .where('document_id', '=', id)
      .where('transaction_id', '=', txId)
      .where('company_id', '=', actor.companyId)
      .executeTakeFirst()
    if (Number(gone.numDeletedRows) === 0) throw new AppError('not_found', `document ${id} is not linked to transaction ${transactionId}`)
    await store.writes.appendAudit(trx, [auditRow(actor, 'document_unlinked', txId, { document_id: { before: id, after: null } }, now)])
    await recordEvents(store, trx, [eventRow(actor, 'document.unlinked', id, { document_id: id, transaction_id: txId }, now)])
  })
  return getDocument(store, actor.companyId, id)
}
