/**
 * Matching unlinked documents to transactions (docs/documents.md, "Matching"): the candidates of a
 * document (its stored fields scored against the company's transactions near its date or of its
 * amount), and the links made by themselves: when a document is added, and by `apply`.
 */
import type { Actor } from '../actor.js'
import { minorToNumber } from '../../kernel/money.js'
import { notFound } from '../../kernel/errors.js'
import type { Store } from '../../store/store.js'
import { baseCurrency } from '../accounts/companies.js'
import { shiftDate } from '../reconcile.js'
import { companyKey } from '../transaction-rows.js'
import { getDocument, linkDocument } from './documents.js'
import { apiFields, FIELD_COLUMNS, fromColumns, readDocumentFields, toColumns } from './fields.js'
import { autoLinkOf, DAYS_AFTER, DAYS_BEFORE, MAX_CANDIDATES, type MatchableTransaction, rank } from './match.js'
import type { DocumentFields } from './read-fields.js'
import type { AddedDocument, AppliedLinks, DocumentSuggestion } from './schemas.js'
import type { DocumentKind } from './sniff.js'

/** Transactions read per document at most, on each side of the query (of its amount, of its dates). */
const MAX_ROWS = 1000

/** A document's stored fields, read from its bytes now (and stored) when it was added before they were kept. */
async function fieldsOf(store: Store, companyId: string, id: string, now: Date): Promise<{ fields: DocumentFields; fileName: string }> {
  const row = await store.db
    .selectFrom('documents')
    .select(['file_name', 'kind', ...FIELD_COLUMNS])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) throw notFound('document')
  const stored = fromColumns(row)
  if (stored) return { fields: stored, fileName: row.file_name }
  const content = await store.db.selectFrom('documents').select('content').where('id', '=', id).executeTakeFirstOrThrow()
  const fields = await readDocumentFields(
    new Uint8Array(content.content),
    row.kind as DocumentKind,
    row.file_name,
    await baseCurrency(store, companyId),
    companyId,
  )
  await store.writeTransaction((trx) => trx.updateTable('documents').set(toColumns(fields, now)).where('id', '=', id).execute())
  return { fields, fileName: row.file_name }
}

/** The transactions worth scoring: those of the document's amount (either sign) and those near its date. */
async function candidatesOf(store: Store, companyId: string, f: DocumentFields): Promise<MatchableTransaction[]> {
  const key = await companyKey(store, companyId)
  const base = () => store.db.selectFrom('transactions').selectAll().where('company_key', '=', key).where('status', '!=', 'void')
  const queries = []
  if (f.amount_minor !== null && f.amount_minor !== 0) {
    let q = base().where('amount', 'in', [f.amount_minor, -f.amount_minor])
    if (f.date)
      q = q.where('transaction_date', '>=', shiftDate(f.date, -DAYS_BEFORE)).where('transaction_date', '<=', shiftDate(f.date, DAYS_AFTER))
    queries.push(q.orderBy('transaction_date').limit(MAX_ROWS).execute())
  }
  // Near its date, for a document whose amount was not read (or misread): the date and merchant still tell.
  if (f.date)
    queries.push(
      base()
        .where('transaction_date', '>=', shiftDate(f.date, -3))
        .where('transaction_date', '<=', shiftDate(f.date, 7))
        .orderBy('transaction_date')
        .limit(MAX_ROWS)
        .execute(),
    )
  const rows = (await Promise.all(queries)).flat()
  const decoded = await store.tx.decode(store.db, rows)
  const byId = new Map(decoded.map((r) => [r.id, r]))
  const ids = [...byId.keys()]
  const counts = new Map<string, number>()
  for (let i = 0; i < ids.length; i += 500) {
    const linked = await store.db
      .selectFrom('document_links')
      .select('transaction_id')
      .where('company_id', '=', companyId)
      .where('transaction_id', 'in', ids.slice(i, i + 500))
      .execute()
    for (const l of linked) counts.set(l.transaction_id, (counts.get(l.transaction_id) ?? 0) + 1)
  }
  return [...byId.values()].map((r) => ({
    id: r.id,
    transaction_date: r.transaction_date,
    amount_minor: Number(r.amount),
    currency_code: r.currency_code,
    description: r.description,
    merchant_name: r.merchant_name,
    documents: counts.get(r.id) ?? 0,
  }))
}

/** One document's candidates, best first, and the one sure enough to be linked by itself. */
export async function suggestFor(store: Store, companyId: string, id: string, now: Date): Promise<DocumentSuggestion> {
  const { fields, fileName } = await fieldsOf(store, companyId, id, now)
  const txs = await candidatesOf(store, companyId, fields)
  const ranked = rank(fields, txs)
  const byId = new Map(txs.map((t) => [t.id, t]))
  return {
    document_id: id,
    file_name: fileName,
    fields: apiFields(fields),
    candidates: ranked.slice(0, MAX_CANDIDATES).map(({ merchant_share: _share, ...s }) => {
      const t = byId.get(s.transaction_id)!
      return {
        ...s,
        transaction_date: t.transaction_date,
        amount: minorToNumber(t.amount_minor, t.currency_code),
        currency_code: t.currency_code,
        description: t.description,
      }
    }),
    auto_link: autoLinkOf(ranked),
  }
}

/** The company's unlinked documents (oldest first, up to `limit`), each with its candidates. */
export async function suggestAll(store: Store, companyId: string, limit: number, now: Date): Promise<DocumentSuggestion[]> {
  const ids = await store.db
    .selectFrom('documents')
    .select('id')
    .where('company_id', '=', companyId)
    .where('id', 'not in', (s) => s.selectFrom('document_links').select('document_id').where('company_id', '=', companyId))
    .orderBy('id')
    .limit(limit)
    .execute()
  const out: DocumentSuggestion[] = []
  for (const { id } of ids) out.push(await suggestFor(store, companyId, id, now))
  return out
}

/** Link each unlinked document (or the one given) whose fields match one transaction alone. */
export async function applySuggestions(store: Store, actor: Actor, documentId: string | undefined, now: Date): Promise<AppliedLinks> {
  const suggestions = documentId
    ? [await suggestFor(store, actor.companyId, documentId, now)]
    : await suggestAll(store, actor.companyId, 500, now)
  const linked: AppliedLinks['linked'] = []
  let left = 0
  for (const s of suggestions) {
    // A document given by id that is linked already keeps its links as they are.
    if (documentId && (await getDocument(store, actor.companyId, s.document_id)).transaction_ids.length > 0) continue
    if (!s.auto_link) {
      left++
      continue
    }
    await linkDocument(store, actor, s.document_id, s.auto_link, now)
    linked.push({ document_id: s.document_id, transaction_id: s.auto_link, score: s.candidates[0].score })
  }
  return { linked, left }
}

/** After an upload: a document linked to nothing is linked to the one transaction it matches, if any. */
export async function autoLinkAdded(store: Store, actor: Actor, added: AddedDocument, now: Date): Promise<AddedDocument> {
  if (added.transaction_ids.length > 0) return added
  const s = await suggestFor(store, actor.companyId, added.id, now)
  if (!s.auto_link) return added
  const linked = await linkDocument(store, actor, added.id, s.auto_link, now)
  return { ...linked, created: added.created, auto_linked: s.auto_link }
}
