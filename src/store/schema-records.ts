/**
 * Table shapes for kysely (schema.ts has the conventions): the tables of what the books record
 * beside their rows: closes and what they held, the report totals, the outbox of events and
 * webhook deliveries, approval policies and proposals, notes on transactions.
 */
import type { Generated } from 'kysely'

/** One close or reopen of a month (0016). */
export interface PeriodClosesTable {
  id: Generated<number>
  company_id: string
  /** The month, YYYY-MM */
  period: string
  action: 'close' | 'reopen'
  /** The company's lock date once this was done (null: nothing closed any more). */
  lock_date: string | null
  previous_lock_date: string | null
  /** `key:<id>` or `user:<id>` */
  actor: string
  reason: string | null
  /** 1: closed although the month was not ready (--force) */
  forced: number
  created_at: string
  /** The audit chain's head when the month was closed (0024; null on reopens and older closes, or no entry yet). */
  chain_head_id: number | string | null
  chain_head_hash: string | null
  /** What the month held at the close (0026; null on reopens and older closes): its rows, their SHA-256, its figures (JSON). */
  rows_count: number | string | null
  rows_sha256: string | null
  figures: string | null
  /** Who by name (0048): the user's email or the key's name then; null when neither was found. */
  actor_name: string | null
  /** A forced close: what it was forced over (0048, JSON: ForcedOver); null otherwise. */
  forced_over: string | null
  /** The company's and its accounts' names at the close (0048, JSON: `{ company, accounts: { id: name } }`); null on reopens and older closes. */
  names: string | null
}

/** Each transaction row of a closed month and its hash at the close (0026): what `verify --close` names. */
export interface CloseRowsTable {
  close_id: number | string
  transaction_id: string
  hash: string
}

/** An export written for a closed month (0024): what `finctl verify --close` checks again. */
export interface CloseExportsTable {
  id: Generated<number>
  close_id: number
  company_id: string
  format: string
  file_name: string
  sha256: string
  bytes: number | string
  rows: number | string
  period_from: string
  period_to: string
  /** SHA-256 of the accounts map a journal was written with (null: the default mapping). */
  accounts_map_sha256: string | null
  actor: string
  created_at: string
}

/**
 * Report totals kept by triggers (report-totals.ts): per day, account, cash-flow category and
 * currency. The key columns of categories hold '' for NULL and '.' before a value.
 */
export interface ReportDayFlowsTable {
  company_key: number
  transaction_date: string
  account_key: number
  cash_flow: string
  currency_code: string
  n: number
  inflows: number
  outflows: number
  amount: number
}

/** Report totals per month ('YYYY-MM'), account and the summary's groups (report-totals.ts). */
export interface ReportMonthGroupsTable {
  company_key: number
  month: string
  account_key: number
  cash_flow: string
  accounting: string
  category: string
  merchant: string
  n: number
  net: number
  inflows: number
  pending: number
  unreconciled: number
}

/** The outbox (0020): one row per change, written in the change's database transaction (docs/events.md). */
export interface EventsTable {
  /** The order of events and the cursor readers page with (commit order within a company). */
  seq: Generated<number>
  id: string
  company_id: string
  type: string
  object_id: string | null
  /** `key:<id>` or `user:<id>` */
  actor: string
  created_at: string
  /** JSON text: the object as the API returns it, or ids and counts for a batch */
  data: string
  /** `data.transaction_ids` packed (src/kernel/packed-ids.ts), taken out of `data`; null when none */
  packed_ids: Uint8Array | null
}

/** A webhook endpoint (0021): where events go, and where its delivery stands (docs/events.md). */
export interface WebhookEndpointsTable {
  id: string
  company_id: string
  url: string
  description: string
  /** JSON array of event types */
  event_types: string
  /** The signing secret, kept as it is: the deliverer signs with it (docs/security.md) */
  secret: string
  status: 'enabled' | 'disabled'
  disabled_reason: string | null
  /** The last event sequence settled (delivered, or not of its types) */
  cursor: number
  attempts: number
  next_attempt_at: string
  failing_since: string | null
  lease_until: string | null
  leased_by: string | null
  created_by: string
  created_at: string
  updated_at: string
}

/** One try to deliver an event to an endpoint (0021). */
export interface WebhookAttemptsTable {
  id: Generated<number>
  endpoint_id: string
  event_id: string
  attempt: number
  status_code: number | null
  error: string | null
  ok: number
  resend: number
  worker: string
  duration_ms: number
  created_at: string
}

/** A company's approval policy (0037): the steps, as a JSON list, that need a second person. */
export interface ApprovalPoliciesTable {
  company_id: string
  require: string
  updated_by: string
  updated_at: string
  /** A bulk update or delete of more rows than this is held back when `bulk` is required (0042). */
  bulk_threshold: number | null
}

/** A step proposed under a policy (0037): its request and effect (JSON), its state and decision. */
export interface ProposalsTable {
  id: string
  company_id: string
  kind: string
  target: string
  request: string
  effect: string
  state: string
  proposed_by: string
  proposer_user_id: string | null
  created_at: string
  decided_by: string | null
  decided_at: string | null
  reason: string | null
  result: string | null
}

/** A stored document (0038): its bytes, found by their SHA-256 within the company. */
export interface DocumentsTable {
  id: string
  company_id: string
  sha256: string
  size: number
  media_type: string
  /** What sniffing found: pdf, png, jpeg, heic, ubl_invoice, ubl_credit_note, cii_invoice. */
  kind: string
  /** As uploaded: text from outside, printed escaped. */
  file_name: string
  content: Uint8Array
  created_by: string
  created_at: string
  /** What was read of it (0039): the amount in minor units of `currency`; all NULL when nothing was found. */
  amount_minor: number | null
  currency: string | null
  document_date: string | null
  merchant: string | null
  /** Where the fields were read: cii, ubl, pdf_xml (a ZUGFeRD PDF's embedded invoice), pdf_text, file_name. */
  fields_source: string | null
  /** When the file was read; NULL: not yet. */
  fields_read_at: string | null
}

/** A document linked to a transaction (0038): who linked it, when. */
export interface DocumentLinksTable {
  document_id: string
  transaction_id: string
  company_id: string
  linked_by: string
  linked_at: string
}

/** A company's key that signs its closed months' packs (0040): Ed25519, the private key as PKCS#8 PEM. */
export interface CompanySigningKeysTable {
  company_id: string
  algorithm: string
  /** The raw public key, base64url (a JWK's `x`): what `finctl company` prints and `verify --pack --public-key` takes. */
  public_key: string
  private_key: string
  created_at: string
}

/** The close's document policy (0040): thresholds per currency (JSON: code -> minor units), and whether close refuses. */
export interface ClosePoliciesTable {
  company_id: string
  document_thresholds: string
  require_documents: number
  updated_by: string
  updated_at: string
}

/** The company's chart of accounts for the exports (0058): the accounts map file as JSON, and its SHA-256. */
export interface ExportAccountsMapsTable {
  company_id: string
  map: string
  sha256: string
  updated_by: string
  updated_at: string
}

/** A statement upload's original file (0043), once per company and content: bank_statements.file_sha256 finds it. */
export interface StatementFilesTable {
  company_id: string
  sha256: string
  size: number
  content: Uint8Array
  created_at: string
}

export interface DocumentTables {
  documents: DocumentsTable
  statement_files: StatementFilesTable
  document_links: DocumentLinksTable
  company_signing_keys: CompanySigningKeysTable
  close_policies: ClosePoliciesTable
  export_accounts_maps: ExportAccountsMapsTable
}

/** A note on a transaction (0060): written by a person, or proposed by an agent and approved (docs/agents.md). */
export interface TransactionNotesTable {
  id: string
  company_id: string
  transaction_id: string
  body: string
  /** Who wrote it: a person, or the agent's key (`key:<id>`) whose proposal was approved. */
  created_by: string
  approved_by: string | null
  proposal_id: string | null
  created_at: string
}
