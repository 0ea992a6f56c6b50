/**
 * The auditor's pack of a closed month (docs/closing.md, "The auditor's pack"): the names of its
 * files, and its manifest. `close pack` writes it (build.ts); `verify --pack` reads it with no
 * service at all (verify.ts), so both take their names from here.
 */
import type { PackClose } from '../../domain/closing/pack-schemas.js'

export const PACK_FORMAT = 'finctl-close-pack'
/** 2: the statements' original files are in the pack (statements/originals/); a version 1 pack held none. */
export const PACK_VERSION = 2

export const MANIFEST = 'manifest.json'
export const SIGNATURE = 'signature.json'
export const CLOSE_FILE = 'close.json'
export const STATEMENTS_FILE = 'statements/statements.json'
export const RECONCILIATION_FILE = 'reconciliation.csv'
export const DOCUMENTS_INDEX = 'documents/documents.csv'
export const AUDIT_FILE = 'audit/audit-entries.json'
export const journalFile = (name: string) => `journal/${name}`

/** What the manifest says of the statements' own files. */
export const STATEMENT_FILES_NOTE =
  "each statement's original file, as uploaded, is under statements/originals/ and hashes to the statement's file_sha256 (statements/statements.json); a statement uploaded before finctl kept statements' files has none, and says so"

/** One statement's original in the manifest: its path in the pack, or null and why. */
export interface StatementOriginal {
  statement_id: string
  file_name: string
  sha256: string
  path: string | null
  note: string | null
}

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
  /** `included`: every statement's original is in the pack; a version 1 pack had `{ included: false, note }` alone. */
  statement_files: { included: boolean; note: string; originals?: StatementOriginal[] }
  files: ManifestFile[]
}

export interface SignatureFile {
  algorithm: 'ed25519'
  /** The raw public key, base64url (as `finctl company` prints it). */
  public_key: string
  /** Ed25519 over manifest.json's bytes, base64. */
  signature: string
}

/** A name from outside made safe for a zip entry: anything but plain characters replaced, no leading dot. */
function safeName(fileName: string, fallback: string): string {
  return (
    fileName
      .replace(/[^\w.-]+/g, '_')
      .replace(/^\.+/, '_')
      .slice(0, 100) || fallback
  )
}

/** A document's name inside the pack: its id, then its name made safe. */
export function documentPath(id: string, fileName: string): string {
  return `documents/${id}/${safeName(fileName, 'document')}`
}

/** A statement's original inside the pack: its statement's id, then its name made safe. */
export function statementOriginalPath(statementId: string, fileName: string): string {
  return `statements/originals/${statementId}-${safeName(fileName, 'statement')}`
}
