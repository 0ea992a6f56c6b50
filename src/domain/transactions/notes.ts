/**
 * Notes on transactions (docs/agents.md): text beside a row, never a field of it, so that a note
 * changes no figure, no close's contents and no report. A person writes one at once; an agent's is a
 * proposal, written by the approval (agent-step.ts) with the proposal and its approver named.
 */
import type { Kysely, Selectable } from 'kysely'
import { uuidv7 } from '../../kernel/ids.js'
import { notFound } from '../../kernel/errors.js'
import type { Db, TransactionNotesTable } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { actorId, type Actor } from '../actor.js'
import { eventRow, recordEvents } from '../events.js'
import type { TransactionNote } from '../schemas.js'
import { companyKey } from '../transaction-rows.js'

const toNote = (r: Selectable<TransactionNotesTable>): TransactionNote => ({
  id: r.id,
  transaction_id: r.transaction_id,
  text: r.body,
  created_by: r.created_by,
  approved_by: r.approved_by,
  proposal_id: r.proposal_id,
  created_at: r.created_at,
})

export async function addNote(store: Store, actor: Actor, transactionId: string, text: string, now: Date): Promise<TransactionNote> {
  return store.writeTransaction((trx) => addNoteIn(store, trx, actor, transactionId, text, now))
}

/** The note inside the caller's write transaction; `proposal`: an agent's approved proposal, its proposer the note's author. */
export async function addNoteIn(
  store: Store,
  trx: Kysely<Db>,
  actor: Actor,
  transactionId: string,
  text: string,
  now: Date,
  proposal?: { id: string; proposed_by: string },
): Promise<TransactionNote> {
  // The row locked: a note is never written beside a row deleted meanwhile.
  const stored = store.tx.idParam(transactionId)
  let q = trx
    .selectFrom('transactions')
    .select('id')
    .where('company_key', '=', await companyKey(store, actor.companyId, trx))
    .where('id', '=', stored ?? '')
  if (store.sql.rowLocks) q = q.forUpdate()
  const found = stored ? await q.executeTakeFirst() : undefined
  if (!found) throw notFound('transaction')
  const row = { id: store.tx.idText(found.id) }
  const note = {
    id: uuidv7(now.getTime()),
    company_id: actor.companyId,
    transaction_id: row.id,
    body: text,
    created_by: proposal?.proposed_by ?? actorId(actor),
    approved_by: proposal ? actorId(actor) : null,
    proposal_id: proposal?.id ?? null,
    created_at: now.toISOString(),
  }
  await trx.insertInto('transaction_notes').values(note).execute()
  const shown = toNote(note)
  await recordEvents(store, trx, [eventRow(actor, 'transaction.noted', row.id, shown, now)])
  return shown
}

export async function notesOf(db: Kysely<Db>, companyId: string, transactionId: string): Promise<TransactionNote[]> {
  const rows = await db
    .selectFrom('transaction_notes')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('transaction_id', '=', transactionId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1000)
    .execute()
  return rows.map(toNote)
}
