/** The tables of import batches (src/domain/imports/): the batch, and a review import's pending rows. */
import type { Generated } from 'kysely'

/** An import or statement upload (0030): its file, options (JSON), who ran it, counts and state. */
export interface ImportBatchesTable {
  id: string
  company_id: string
  kind: string
  bank_account_id: string | null
  statement_id: string | null
  file_name: string
  file_sha256: string | null
  options: string
  actor: string
  state: string
  read_rows: number | null
  created: Generated<number>
  existing: Generated<number>
  reconciled: Generated<number>
  rejected: Generated<number>
  rejects: Generated<string>
  created_at: string
  finished_at: string | null
  /** 0033: when and by whom the batch was reverted. */
  reverted_at: string | null
  reverted_by: string | null
}

/** A review import waiting for `imports apply` or `discard` (0034): how many rows it staged, when it expires. */
export interface ImportReviewsTable {
  batch_id: string
  company_id: string
  staged: Generated<number>
  expires_at: string
  /** The create request's shape its rows were checked and stored in (CREATE_REQUEST_SHAPE, 0045); null: parsed again at apply. */
  checked_shape: number | null
}

/** A pending row of a review import (0034): its line in the file and its create request (JSON). */
export interface ImportPendingRowsTable {
  batch_id: string
  line: number
  body: string
}

/** A part of a review import's file (0041), kept for `imports remap`: parts in order make the file. */
export interface ImportReviewFilesTable {
  batch_id: string
  part: number
  content: Uint8Array
}
