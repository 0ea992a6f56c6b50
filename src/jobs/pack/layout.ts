/**
 * The auditor's pack of a closed month (docs/closing.md, "The auditor's pack"): the names of its
 * files, and its manifest. `close pack` writes it (build.ts); `verify --pack` reads it with no
 * service at all (verify.ts), so both take their names from here.
 */
import type { PackClose } from '../../domain/closing/pack-schemas.js'

export const PACK_FORMAT = 'finctl-close-pack'
export const PACK_VERSION = 1

export const MANIFEST = 'manifest.json'
export const SIGNATURE = 'signature.json'
export const CLOSE_FILE = 'close.json'
export const STATEMENTS_FILE = 'statements/statements.json'
export const RECONCILIATION_FILE = 'reconciliation.csv'
export const DOCUMENTS_INDEX = 'documents/documents.csv'
export const AUDIT_FILE = 'audit/audit-entries.json'
export const journalFile = (name: string) => `journal/${name}`

/** Why a statement's own file is not in the pack: finctl keeps its SHA-256 and parsed lines, not its bytes. */
export const STATEMENT_FILES_NOTE =
  "finctl keeps a statement's SHA-256, size, balances and parsed lines, not the file itself: the originals are not in this pack; each statement's file_sha256 (statements/statements.json) identifies the file it was read from, and reconciliation.csv holds each parsed line with its transaction"

export interface ManifestFile {
  path: string
  sha256: string
  bytes: number
}

export interface Manifest {
  format: typeof PACK_FORMAT
  version: number
  month: string
  company_id: string
  company: { id: string; name: string; base_currency: string }
  /** The close this pack is of: its id and sequence (2: closed again after one reopen), figures and chain head. */
  close: Pick<
    PackClose,
    'id' | 'sequence' | 'created_at' | 'actor' | 'forced' | 'reason' | 'lock_date' | 'chain_head' | 'rows_count' | 'rows_sha256' | 'figures'
  >
  created_at: string
  formats: string[]
  statement_files: { included: false; note: string }
  files: ManifestFile[]
}

export interface SignatureFile {
  algorithm: 'ed25519'
  /** The raw public key, base64url (as `finctl company` prints it). */
  public_key: string
  /** Ed25519 over manifest.json's bytes, base64. */
  signature: string
}

/** A document's name inside the pack: its id, then its name with anything but plain characters replaced. */
export function documentPath(id: string, fileName: string): string {
  const safe =
    fileName
      .replace(/[^\w.-]+/g, '_')
      .replace(/^\.+/, '_')
      .slice(0, 100) || 'document'
  return `documents/${id}/${safe}`
}
