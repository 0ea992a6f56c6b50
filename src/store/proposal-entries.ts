/**
 * Proposals in the audit chain (docs/audit.md, "Proposals in the chain"): each proposal's request and
 * each decision chains an entry (the proposal's id in `transaction_id`) whose `changes` hold a
 * SHA-256 digest of the proposal's whole row as it was then written. `verifyProposals` compares every
 * proposal row with the digest of its last entry, so an edit of a proposal by SQL (its effect, its
 * state, who decided) is found like an edit of an entry.
 */
import { createHash } from 'node:crypto'
import type { Kysely, Selectable } from 'kysely'
import type { Db, NewAuditEntryRow, ProposalsTable } from './schema.js'

export const PROPOSAL_ACTIONS = ['proposal_requested', 'proposal_approved', 'proposal_rejected', 'proposal_failed'] as const
export type ProposalAction = (typeof PROPOSAL_ACTIONS)[number]

type ProposalRow = Selectable<ProposalsTable>

/** SHA-256 (hex) of the row's columns as a JSON array, in the table's order. */
export function proposalDigest(r: ProposalRow): string {
  const canonical = JSON.stringify([
    r.id,
    r.company_id,
    r.kind,
    r.target,
    r.request,
    r.effect,
    r.state,
    r.proposed_by,
    r.proposer_user_id,
    r.created_at,
    r.decided_by,
    r.decided_at,
    r.reason,
    r.result,
  ])
  return createHash('sha256').update(canonical).digest('hex')
}

/** The entry chaining the proposal as `row` holds it now. */
export function proposalEntry(row: ProposalRow, actor: string, action: ProposalAction, at: string): NewAuditEntryRow {
  const changes = { kind: row.kind, target: row.target, state: row.state, digest: proposalDigest(row) }
  return { company_id: row.company_id, transaction_id: row.id, actor, action, changes: JSON.stringify(changes), created_at: at }
}

export interface ProposalsBreak {
  kind: 'proposal_changed' | 'proposal_inserted' | 'proposal_removed'
  /** The proposal's last entry (null: a proposal without one). */
  entry_id: number | null
  proposal_id: string
  message: string
}

/** Each proposal row against its last entry's digest, and each chained proposal against its row. */
export async function verifyProposals(db: Kysely<Db>, companyId: string): Promise<{ proposals: number; broken: ProposalsBreak | null }> {
  const last = new Map<string, { entry: number; digest: string }>()
  const entries = await db
    .selectFrom('audit_entries')
    .select(['id', 'transaction_id', 'changes'])
    .where('company_id', '=', companyId)
    .where('action', 'in', [...PROPOSAL_ACTIONS])
    .orderBy('id')
    .execute()
  for (const e of entries) {
    let digest = ''
    try {
      digest = String((JSON.parse(e.changes) as { digest?: unknown }).digest ?? '')
    } catch {}
    last.set(e.transaction_id, { entry: Number(e.id), digest })
  }
  const rows = await db.selectFrom('proposals').selectAll().where('company_id', '=', companyId).orderBy('id').execute()
  let checked = 0
  for (const r of rows) {
    const e = last.get(r.id)
    if (!e)
      return {
        proposals: checked,
        broken: {
          kind: 'proposal_inserted',
          entry_id: null,
          proposal_id: r.id,
          message: `proposal ${r.id} is not in the audit chain: it was inserted outside finctl`,
        },
      }
    if (proposalDigest(r) !== e.digest)
      return {
        proposals: checked,
        broken: {
          kind: 'proposal_changed',
          entry_id: e.entry,
          proposal_id: r.id,
          message: `proposal ${r.id} was changed outside finctl: it is not as audit entry #${e.entry} recorded it`,
        },
      }
    last.delete(r.id)
    checked++
  }
  for (const [id, e] of last)
    return {
      proposals: checked,
      broken: {
        kind: 'proposal_removed',
        entry_id: e.entry,
        proposal_id: id,
        message: `proposal ${id} was deleted outside finctl (audit entry #${e.entry} records it)`,
      },
    }
  return { proposals: checked, broken: null }
}
