/**
 * GET /api-v1/audit/verify (docs/audit.md): walk the company's audit chain, then compare its
 * transactions with the creations the chain records, its proposals and its lock date with their
 * last entries, and name the first break.
 */
import { z } from '@hono/zod-openapi'
import { verifyChain } from '../../store/audit-chain.js'
import { verifyCreations } from '../../store/creations.js'
import { verifyLockDate } from '../../store/lock-entries.js'
import { verifyProposals } from '../../store/proposal-entries.js'
import type { Store } from '../../store/store.js'

export const AuditVerification = z
  .object({
    intact: z.boolean().openapi({ description: 'true when every entry is as written, none removed, none inserted' }),
    entries: z.number().int().openapi({ description: 'entries checked and found intact (before the break, if any)' }),
    transactions: z
      .number()
      .int()
      .openapi({ description: 'transactions compared with the creations the chain records (0 when the chain itself is broken)' }),
    proposals: z
      .number()
      .int()
      .openapi({ description: 'proposals found as their last audit entry recorded them (0 when the chain or the rows are broken)' }),
    head: z.object({
      id: z.number().int().nullable().openapi({ description: "the id of the chain's last entry (null: no entry yet)" }),
      hash: z.string().openapi({ description: "SHA-256 (hex) of the chain's last entry" }),
    }),
    broken: z
      .object({
        kind: z
          .enum([
            'changed',
            'removed',
            'inserted',
            'row_inserted',
            'rows_deleted',
            'rows_changed',
            'proposal_changed',
            'proposal_inserted',
            'proposal_removed',
            'lock_date_changed',
          ])
          .openapi({
            description:
              'an entry changed, removed or inserted; a transaction row inserted, rows deleted, or rows not as created; a proposal changed, inserted or deleted; or the lock date changed, outside finctl',
          }),
        entry_id: z.number().int().nullable().openapi({
          description:
            "the entry changed or inserted; for a removal the entry after the gap (null: at the end); for rows, their group's rows_created entry",
        }),
        transaction_id: z
          .string()
          .nullable()
          .openapi({ description: 'the transaction row inserted outside finctl, or the proposal changed, when it can be named' }),
        after_id: z.number().int().nullable().openapi({ description: 'the last intact entry before the break' }),
        message: z.string(),
      })
      .nullable()
      .openapi({ description: 'the first break found, null when intact' }),
  })
  .openapi('AuditVerification')
export type AuditVerification = z.infer<typeof AuditVerification>

/**
 * The chain, then the rows, then the proposals: the first break found. On one snapshot (SQLite: a
 * read transaction; PostgreSQL: repeatable read), so a writer's rows, entries and head agree.
 */
export function verifyAudit(store: Store, companyId: string): Promise<AuditVerification> {
  return store.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (db) => {
      const chain = await verifyChain(db, companyId)
      const base = { entries: chain.entries, head: chain.head }
      if (chain.broken) return { intact: false, ...base, transactions: 0, proposals: 0, broken: { ...chain.broken, transaction_id: null } }
      const rows = await verifyCreations(db, store.tx, companyId)
      if (rows.broken) return { intact: false, ...base, transactions: rows.rows, proposals: 0, broken: { ...rows.broken, after_id: null } }
      const p = await verifyProposals(db, companyId)
      const lock = p.broken ? null : await verifyLockDate(db, companyId)
      const broken =
        (p.broken && {
          kind: p.broken.kind,
          entry_id: p.broken.entry_id,
          after_id: null,
          transaction_id: p.broken.proposal_id,
          message: p.broken.message,
        }) ||
        (lock && {
          kind: 'lock_date_changed' as const,
          entry_id: lock.entry_id,
          after_id: null,
          transaction_id: null,
          message: lock.message,
        })
      return { intact: broken === null, ...base, transactions: rows.rows, proposals: p.proposals, broken }
    })
}
