/**
 * A transaction's document links, read and dropped where rows are deleted (tx delete, bulk delete,
 * an import's revert): the documents stay, unlinked (`docs list --unlinked`), and the answer names
 * them. Read here, not through documents/: that aggregate stands above this one.
 */
import type { Kysely } from 'kysely'
import type { Db } from '../../store/schema.js'

/** A document linked to a row being deleted: unlinked with it, the document kept. */
export interface UnlinkedDocument {
  id: string
  file_name: string
  transaction_id: string
}

const chunks = <T>(list: readonly T[], n = 500): T[][] =>
  Array.from({ length: Math.ceil(list.length / n) }, (_, i) => list.slice(i * n, (i + 1) * n))

/** The documents linked to `ids` (transactions of one company), in the order they were linked. */
export async function linkedDocuments(db: Kysely<Db>, companyId: string, ids: readonly string[]): Promise<UnlinkedDocument[]> {
  const out: UnlinkedDocument[] = []
  for (const part of chunks(ids))
    out.push(
      ...(await db
        .selectFrom('document_links as l')
        .innerJoin('documents as d', (j) => j.onRef('d.id', '=', 'l.document_id').onRef('d.company_id', '=', 'l.company_id'))
        .select(['d.id as id', 'd.file_name as file_name', 'l.transaction_id as transaction_id'])
        .where('l.company_id', '=', companyId)
        .where('l.transaction_id', 'in', part)
        .orderBy('l.linked_at')
        .execute()),
    )
  return out
}

/** Drop the links of the rows `docs` names (linkedDocuments' answer). */
export async function unlinkDocuments(trx: Kysely<Db>, companyId: string, docs: readonly UnlinkedDocument[]): Promise<void> {
  for (const part of chunks([...new Set(docs.map((d) => d.transaction_id))]))
    await trx.deleteFrom('document_links').where('company_id', '=', companyId).where('transaction_id', 'in', part).execute()
}

/** Read and drop in one go: what a delete answers. */
export async function unlinkDocumentsOf(trx: Kysely<Db>, companyId: string, ids: readonly string[]): Promise<UnlinkedDocument[]> {
  const docs = await linkedDocuments(trx, companyId, ids)
  await unlinkDocuments(trx, companyId, docs)
  return docs
}
