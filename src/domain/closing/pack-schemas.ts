/** Schemas of the auditor's pack (docs/closing.md, "The auditor's pack"): what GET /close/{month}/pack answers, and signing its manifest. */
import { z } from '@hono/zod-openapi'
import { CloseRecord, MonthFigure } from './schemas.js'

export const PackClose = CloseRecord.extend({
  sequence: z.number().int().openapi({ description: 'which close of the month this is: 1 the first, 2 after one reopen, ...' }),
  rows_count: z.number().int().nullable(),
  rows_sha256: z.string().nullable().openapi({ description: "SHA-256 over the month's rows as the close recorded them" }),
  figures: z
    .array(MonthFigure.extend({ bank_account: z.string().openapi({ description: "the account's name now" }) }))
    .nullable()
    .openapi({ description: 'per account and currency: non-void transactions and their sum' }),
}).openapi('PackClose')
export type PackClose = z.infer<typeof PackClose>

export const PackStatement = z
  .object({
    id: z.string(),
    bank_account_id: z.string(),
    bank_account: z.string(),
    file_name: z.string(),
    format: z.string(),
    file_sha256: z.string().openapi({ description: 'SHA-256 of the file as uploaded: its original, when kept, hashes to it' }),
    file_size: z.number().int(),
    currency_code: z.string(),
    period_start: z.string().nullable(),
    period_end: z.string().nullable(),
    opening_balance: z.string().nullable().openapi({ description: 'a decimal in the currency' }),
    closing_balance: z.string().nullable().openapi({ description: 'a decimal in the currency' }),
    balance_check: z.string().nullable(),
    line_count: z.number().int(),
    created_at: z.string(),
    file_kept: z.boolean().openapi({ description: 'true: finctl keeps the original file (GET /statements/{id}/file answers it)' }),
    file_note: z
      .string()
      .nullable()
      .openapi({ description: 'why the original is not kept (a statement uploaded before finctl kept them); null when kept' }),
    book_balance_before: z.string().nullable().openapi({
      description:
        "the account's balance in finctl the day before period_start (a decimal): where the lines start when the statement gives no opening balance",
    }),
  })
  .openapi('PackStatement')
export type PackStatement = z.infer<typeof PackStatement>

export const PackReconciliation = z
  .object({
    statement_id: z.string(),
    line_ref: z.string().nullable().openapi({ description: "the statement line's identity" }),
    transaction_id: z.string(),
    transaction_date: z.string(),
    amount: z.string().openapi({ description: 'a decimal in the currency' }),
    currency_code: z.string(),
    bank_account_id: z.string(),
    bank_account: z.string().openapi({ description: "the account's name" }),
    description: z.string(),
    status: z.string(),
    created_via: z.string().nullable().openapi({ description: 'statement_import: the line made it; otherwise the line reconciled it' }),
  })
  .openapi('PackReconciliation')
export type PackReconciliation = z.infer<typeof PackReconciliation>

export const PackDocument = z
  .object({
    id: z.string(),
    sha256: z.string(),
    size: z.number().int(),
    media_type: z.string(),
    kind: z.string(),
    file_name: z.string(),
    transaction_ids: z.array(z.string()).openapi({ description: "the month's transactions it is linked to" }),
  })
  .openapi('PackDocument')
export type PackDocument = z.infer<typeof PackDocument>

export const PackAuditEntry = z
  .object({
    id: z.number().int(),
    transaction_id: z.string(),
    actor: z.string(),
    action: z.string(),
    changes: z.string().openapi({ description: 'as stored (JSON text): the entry hash covers it' }),
    created_at: z.string(),
    prev_hash: z.string().nullable(),
    hash: z.string().nullable(),
  })
  .openapi('PackAuditEntry')
export type PackAuditEntry = z.infer<typeof PackAuditEntry>

export const PackContents = z
  .object({
    month: z.string(),
    company: z.object({ id: z.string(), name: z.string(), base_currency: z.string() }),
    close: PackClose.openapi({ description: "the month's latest close" }),
    rows_sha256_now: z.string().openapi({ description: "SHA-256 over the month's rows now: equal to the close's while nothing changed" }),
    statements: z.array(PackStatement).openapi({ description: 'completed statements whose period overlaps the month' }),
    reconciliation: z.array(PackReconciliation).openapi({ description: "the month's transactions that carry a statement line" }),
    documents: z.array(PackDocument).openapi({ description: "documents linked to the month's transactions" }),
    audit_entries: z.array(PackAuditEntry).openapi({ description: "audit entries about the month's transactions, in chain order" }),
  })
  .openapi('PackContents')
export type PackContents = z.infer<typeof PackContents>

export const PackSignRequest = z
  .object({
    manifest_base64: z
      .string()
      .min(1, 'is required')
      .max(8 * 1024 * 1024)
      .openapi({ description: "the manifest's bytes, base64: signed as they are" }),
  })
  .strict()
  .openapi('PackSignRequest')
export type PackSignRequest = z.infer<typeof PackSignRequest>

export const PackSignature = z
  .object({
    algorithm: z.literal('ed25519'),
    signature: z.string().openapi({ description: "Ed25519 over the manifest's bytes, base64" }),
    public_key: z.string().openapi({ description: "the company's public key, raw, base64url (finctl company prints it)" }),
  })
  .openapi('PackSignature')
export type PackSignature = z.infer<typeof PackSignature>
