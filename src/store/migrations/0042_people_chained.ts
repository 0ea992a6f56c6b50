/**
 * 0042 chains the proposals already there (docs/audit.md, "Proposals in the chain"): one entry per
 * proposal as its row stands now (actor `finctl`), so that `verify` covers them too; lets an
 * owner revoke an invitation (docs/people.md, "Invitations"); and keeps a policy's bulk threshold.
 */
import type { Kysely } from 'kysely'
import { appendAudit } from '../audit-chain.js'
import { type ProposalAction, proposalEntry } from '../proposal-entries.js'
import type { Db } from '../schema.js'
import type { AnyDb, Dialect, DialectAdapter } from './common.js'

export async function up(db: AnyDb, _dialect: Dialect, adapter: DialectAdapter): Promise<void> {
  await db.schema.alterTable('user_invitations').addColumn('revoked_at', 'text').execute()
  await db.schema.alterTable('user_invitations').addColumn('revoked_by', 'text').execute()
  await db.schema.alterTable('approval_policies').addColumn('bulk_threshold', 'integer').execute()
  const rows = await (db as Kysely<Db>).selectFrom('proposals').selectAll().orderBy('company_id').orderBy('id').execute()
  const now = new Date().toISOString()
  const action = (state: string) => (state === 'pending' ? 'proposal_requested' : `proposal_${state}`) as ProposalAction
  if (rows.length)
    await appendAudit(
      db as Kysely<Db>,
      adapter.sql,
      rows.map((r) => proposalEntry(r, 'finctl', action(r.state), now)),
    )
}

/** The entries stay: they are chained, and an older finctl's verify sees them as any other entry. */
export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('approval_policies').dropColumn('bulk_threshold').execute()
  await db.schema.alterTable('user_invitations').dropColumn('revoked_by').execute()
  await db.schema.alterTable('user_invitations').dropColumn('revoked_at').execute()
}
