/** GET /api-v1/audit/verify (docs/audit.md): walk the company's audit chain and name its first break. */
import { z } from '@hono/zod-openapi'
import { type ChainReport, verifyChain } from '../../store/audit-chain.js'
import type { Store } from '../../store/store.js'

export const AuditVerification = z
  .object({
    intact: z.boolean().openapi({ description: 'true when every entry is as written, none removed, none inserted' }),
    entries: z.number().int().openapi({ description: 'entries checked and found intact (before the break, if any)' }),
    head: z.object({
      id: z.number().int().nullable().openapi({ description: "the id of the chain's last entry (null: no entry yet)" }),
      hash: z.string().openapi({ description: "SHA-256 (hex) of the chain's last entry" }),
    }),
    broken: z
      .object({
        kind: z.enum(['changed', 'removed', 'inserted']),
        entry_id: z
          .number()
          .int()
          .nullable()
          .openapi({ description: 'the entry changed or inserted; for a removal the entry after the gap (null: at the end)' }),
        after_id: z.number().int().nullable().openapi({ description: 'the last intact entry before the break' }),
        message: z.string(),
      })
      .nullable()
      .openapi({ description: 'the first break found, null when intact' }),
  })
  .openapi('AuditVerification')
export type AuditVerification = z.infer<typeof AuditVerification>

/** On one snapshot (SQLite: a read transaction; PostgreSQL: repeatable read), so a writer's new entries and head agree. */
export function verifyAudit(store: Store, companyId: string): Promise<ChainReport> {
  return store.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute((db) => verifyChain(db, companyId))
}
